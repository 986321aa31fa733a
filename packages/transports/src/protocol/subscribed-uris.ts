/**
 * The resource URIs a client subscribed to, keyed by the real URI a change event carries.
 *
 * Under a pseudonymising policy a client knows resources by their pseudonymised URIs, while the
 * workspace announces changes under real ones. Each subscription is resolved the way a read of
 * that URI would be (`Layer.realResourceUri`) and remembered with the URI the client sent, so an
 * update reaches it under the name it used and never under the real one.
 */
import type { Layer, Principal } from '@cloudg/core';

export class SubscribedUris {
  /** Real URI → the URI the client sent. */
  private readonly byReal = new Map<string, string>();

  /** Remember `uri` as the client sent it. */
  async add(layer: Layer<unknown>, principal: Principal, uri: string): Promise<void> {
    this.byReal.set(await layer.realResourceUri(uri, principal), uri);
  }

  /** Forget the subscription `uri` named. */
  async remove(layer: Layer<unknown>, principal: Principal, uri: string): Promise<void> {
    const real = await layer.realResourceUri(uri, principal);
    if (this.byReal.get(real) === uri) this.byReal.delete(real);
  }

  /** The URI to tell the client about a change to `realUri`, when it subscribed to it. */
  clientUri(realUri: string): string | undefined {
    return this.byReal.get(realUri);
  }

  /** Every subscription, real URI → client URI (what a replica needs to continue the session). */
  entries(): Record<string, string> {
    return Object.fromEntries(this.byReal);
  }

  /** Replace every subscription with these (real URI → client URI), as another replica left them. */
  replace(entries: Record<string, string>): void {
    this.byReal.clear();
    for (const [real, uri] of Object.entries(entries)) this.byReal.set(real, uri);
  }

  get size(): number {
    return this.byReal.size;
  }
}

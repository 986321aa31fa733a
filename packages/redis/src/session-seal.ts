/**
 * How the shared sessions' values travel through Redis: sealed (AES-256-GCM) with the vault key,
 * so that someone who can read or write Redis but lacks the key learns no identifier and plants
 * nothing a replica accepts. Each sealed value names the session it belongs to inside the
 * sealed text (a per-session label would grow the sealer's label cache without bound), so a
 * value copied into another session's hash, log or signal is refused like a forged one. Lookups
 * (a subscription's real URI, a principal's quota) are keyed digests: equal for every replica,
 * nothing else shows.
 */
import type { VaultSealer } from '@cloudg/privacy';
import type { JsonRpcMessage, SharedSessionSignal } from '@cloudg/transports';

const FIELD = 'session-field';
const ENTRY = 'session-log';
const SIGNAL = 'session-signal';
const CHANGE = 'change';

/** A change as the changes channel carries it. */
export interface SealedChange {
  origin: string;
  kind: string;
  uri?: string;
}

export class SessionSeal {
  constructor(private readonly sealer: VaultSealer) {}

  /** A value of session `session`'s hash. */
  field(session: string, value: unknown): string {
    return this.sealer.seal(JSON.stringify({ s: session, v: value }), FIELD);
  }

  /** The value sealed by `field` for this session; undefined for anything else. */
  openField<T>(session: string, sealed: string | undefined): T | undefined {
    return sealed === undefined ? undefined : this.#open<T>(session, sealed, FIELD);
  }

  /** A message of the session's log (and of the event that routes it to the stream's holder). */
  entry(session: string, message: JsonRpcMessage | JsonRpcMessage[]): string {
    return this.sealer.seal(JSON.stringify({ s: session, v: message }), ENTRY);
  }

  openEntry(session: string, sealed: string): JsonRpcMessage | JsonRpcMessage[] | undefined {
    return this.#open(session, sealed, ENTRY);
  }

  signal(signal: SharedSessionSignal): string {
    return JSON.stringify({ x: this.sealer.seal(JSON.stringify(signal), SIGNAL) });
  }

  /** A signal sealed by `signal`; undefined for a forged, damaged or foreign one. */
  openSignal(sealed: string): SharedSessionSignal | undefined {
    try {
      return JSON.parse(this.sealer.open(sealed, SIGNAL)) as SharedSessionSignal;
    } catch {
      return undefined;
    }
  }

  change(change: SealedChange): string {
    return this.sealer.seal(JSON.stringify(change), CHANGE);
  }

  openChange(sealed: string): SealedChange | undefined {
    try {
      return JSON.parse(this.sealer.open(sealed, CHANGE)) as SealedChange;
    } catch {
      return undefined;
    }
  }

  /** The field of a subscription to `realUri` in every session's subscriptions hash. */
  subscription(realUri: string): string {
    return this.sealer.lookup(`sub\u0000${realUri}`);
  }

  /** The principal as the quota's keys name it. */
  principal(principalId: string): string {
    return this.sealer.lookup(`principal\u0000${principalId}`);
  }

  #open<T>(session: string, sealed: string, label: string): T | undefined {
    try {
      const body = JSON.parse(this.sealer.open(sealed, label)) as { s?: unknown; v?: T };
      return body.s === session ? body.v : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Thrown by a session store or fan-out used before `sealWith`: it never writes in clear. */
export function unsealed(what: string): Error {
  return new Error(`${what} is not sealed: call sealWith(sealer) with the vault's sealer first`);
}

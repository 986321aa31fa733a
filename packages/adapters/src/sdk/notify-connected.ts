/**
 * The layer's change events as notifications to the client connected to one SDK server (MCP.md
 * 8.10): list changes to every session; a resource update to a handshake-era session only when it
 * subscribed, and on 2026-07-28 to the SDK, whose serving entry matches it against each listen
 * stream's filter. The server is held weakly, so a mount nobody closes does not keep it alive;
 * closing the server stops the forwarding.
 */
import type { Layer } from '@cloudg/core';
import type { Server } from '@modelcontextprotocol/server';
import type { IncludeKind } from './include-kinds.js';

function ignore(): void {}

/** Start forwarding; returns the function that stops it. */
export function notifyConnectedClient(
  layer: Layer<unknown>,
  server: Server,
  include: ReadonlySet<IncludeKind>,
  subscribed: ReadonlyMap<string, ReadonlySet<string>>,
): () => void {
  const target = new WeakRef(server);
  const unsubscribe = layer.onChange((kind, uri) => {
    const live = target.deref();
    if (!live) return unsubscribe();
    if (!live.transport) return;
    const send = (() => {
      if (kind === 'tools' && include.has('tools')) return live.sendToolListChanged();
      if (kind === 'prompts' && include.has('prompts')) return live.sendPromptListChanged();
      if (kind === 'resources' && include.has('resources')) return live.sendResourceListChanged();
      const modern = (live.getNegotiatedProtocolVersion() ?? '') >= '2026-07-28';
      if (kind !== 'resource' || uri === undefined) return undefined;
      if (modern) return live.sendResourceUpdated({ uri });
      // Handshake era: under each URI the client subscribed with.
      const sent = [...(subscribed.get(uri) ?? [])];
      return sent.length > 0
        ? Promise.all(sent.map((as) => live.sendResourceUpdated({ uri: as }))).then(ignore)
        : undefined;
    })();
    send?.catch(ignore);
  });
  const previous = server.onclose;
  server.onclose = () => {
    unsubscribe();
    previous?.();
  };
  return () => {
    unsubscribe();
  };
}

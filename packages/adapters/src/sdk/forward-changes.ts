/**
 * Change events for 2026-era clients of an SDK host: their `subscriptions/listen` streams are fed
 * by the host's event bus (`createMcpHandler(...).notify`), not by a connection, so the layer's
 * events are forwarded there once per handler rather than once per mounted server.
 */
import type { Layer } from '@cloudg/core';
import type { ServerNotifier } from '@modelcontextprotocol/server';

/** Forward the layer's change events to an SDK notifier; returns the function that stops it. */
export function forwardChanges<TApp>(layer: Layer<TApp>, notifier: ServerNotifier): () => void {
  return layer.onChange((kind, uri) => {
    if (kind === 'tools') notifier.toolsChanged();
    else if (kind === 'prompts') notifier.promptsChanged();
    else if (kind === 'resources') notifier.resourcesChanged();
    else if (uri !== undefined) notifier.resourceUpdated(uri);
  });
}

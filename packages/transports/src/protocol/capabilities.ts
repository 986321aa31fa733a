/** What the server announces in `initialize` and `server/discover`. */
import type { Layer } from '@cloudg/core';

export function serverCapabilities(): Record<string, unknown> {
  return {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    logging: {},
    completions: {},
  };
}

export function serverInfo(layer: Layer<unknown>, title: string | undefined): Record<string, unknown> {
  const { name, version } = layer.identity;
  return { name, version, title: title ?? name };
}

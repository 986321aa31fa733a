/** What the server announces in `initialize` and `server/discover`. */
import type { Layer } from '@cloudg/core';
import { TASKS_EXTENSION } from '../tasks/task-wire.js';

/**
 * `tasks` is where each era announces tasks: 2026-07-28 under `extensions` (the tasks extension),
 * 2025-11-25 as its own `tasks` capability; earlier revisions have no tasks.
 */
export function serverCapabilities(tasks?: 'modern' | 'legacy-tasks'): Record<string, unknown> {
  const capabilities: Record<string, unknown> = {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    logging: {},
    completions: {},
  };
  if (tasks === 'modern') capabilities.extensions = { [TASKS_EXTENSION]: {} };
  if (tasks === 'legacy-tasks') {
    capabilities.tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
  }
  return capabilities;
}

export function serverInfo(layer: Layer<unknown>, title: string | undefined): Record<string, unknown> {
  const { name, version } = layer.identity;
  return { name, version, title: title ?? name };
}

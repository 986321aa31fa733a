import { DOCS_TOPIC_NAMES } from '../docs/topics.js';

/** Documentation topics starting with what was typed (any case), in the topic list's order. */
export function completeDocsTopic(_ctx: unknown, partial: string): string[] {
  const prefix = partial.trim().toLowerCase();
  return DOCS_TOPIC_NAMES.filter((t) => t.startsWith(prefix));
}

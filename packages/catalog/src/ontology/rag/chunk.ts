/** One retrieval chunk: text to embed and flat metadata to filter on. */
export interface RagChunk {
  chunk_id: string;
  chunk_type: 'entity' | 'community' | 'relation_group';
  content: string;
  metadata: Record<string, unknown>;
}

/** JSON with `, ` and `: ` separators, as the reference's chunks print dicts. */
export function spacedJson(value: Record<string, unknown>): string {
  return `{${Object.entries(value)
    .map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
    .join(', ')}}`;
}

export const WARNING = '\u26a0';
export const OUT = '\u2192';
export const IN = '\u2190';
export const BULLET = '\u2022';

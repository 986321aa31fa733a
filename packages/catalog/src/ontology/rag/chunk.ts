/** One retrieval chunk: text to embed and flat metadata to filter on. */
export interface RagChunk {
  chunk_id: string;
  chunk_type: 'entity' | 'community' | 'relation_group';
  content: string;
  metadata: Record<string, unknown>;
}

/**
 * A chunk whose text is written on first use: a page of 10 out of 50,000 entity chunks should
 * not pay for 50,000 texts. `materialise` gives the plain chunk.
 */
export class LazyChunk {
  #content: string | undefined;

  constructor(
    readonly chunk_id: string,
    readonly chunk_type: RagChunk['chunk_type'],
    readonly metadata: Record<string, unknown>,
    private readonly write: () => string,
  ) {}

  get content(): string {
    if (this.#content === undefined) this.#content = this.write();
    return this.#content;
  }

  materialise(): RagChunk {
    return {
      chunk_id: this.chunk_id,
      chunk_type: this.chunk_type,
      content: this.content,
      metadata: this.metadata,
    };
  }
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

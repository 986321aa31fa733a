import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { parseSeverity } from '../../conventions/enums.js';
import { paginate } from '../../conventions/paging.js';
import { resolveAssetRef } from '../../conventions/references.js';
import { isSeverity, severityRank } from '../../model/severity.js';
import { assetIdOfIndividual } from '../../ontology/iri.js';
import {
  communityChunks,
  entityChunks,
  LazyChunk,
  type RagChunk,
  relationGroupChunks,
} from '../../ontology/rag/index.js';
import type { Workspace } from '../../workspace/workspace.js';
import { cursorArg, datasetArg } from '../workspace/args.js';

const CHUNK_TYPES = ['entity', 'community', 'relation_group'] as const;

/** `rag_chunks`: retrieval-ready text chunks with metadata, a page at a time. */
export function registerRagChunks(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'rag_chunks',
    title: 'RAG chunks',
    description:
      'Retrieval-ready text chunks of the dataset, useful as context for summarising an area. entity chunks describe one asset with its relations and findings (chunk_id entity::<asset id>); community chunks describe Louvain clusters of tightly connected resources with a risk score; relation_group chunks list the triples of one semantic group. Each item has chunk_id, chunk_type, content and metadata.',
    category: 'ontology',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    input: {
      chunk_type: z.enum(CHUNK_TYPES).default('entity').describe('Which chunk family to return.'),
      ref: z.string().default('').describe("Entity chunks: only this asset's chunk."),
      query: z.string().default('').describe('Substring of chunk content.'),
      min_severity: z.string().default('').describe('Entity chunks: severity_max at or above.'),
      limit: z.number().int().min(1).max(100).default(10).describe('Page size.'),
      cursor: cursorArg(),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      const dataset = resolveDataset(ctx.app, args.dataset);
      const min = args.min_severity.trim() ? parseSeverity(args.min_severity) : null;
      const only =
        args.chunk_type === 'entity' && args.ref.trim()
          ? resolveAssetRef(dataset, assetIdOfIndividual(args.ref))
          : null;
      let chunks: readonly (RagChunk | LazyChunk)[];
      if (args.chunk_type === 'entity') chunks = entityChunks(dataset, ctx.signal);
      else if (args.chunk_type === 'community') chunks = communityChunks(dataset, ctx.signal);
      else chunks = relationGroupChunks(dataset, ctx.signal);
      const needle = args.query.trim().toLowerCase();
      const wanted = chunks.filter((c) => {
        if (only !== null && c.chunk_id !== `entity::${only.id}`) return false;
        if (needle && !c.content.toLowerCase().includes(needle)) return false;
        if (min !== null && 'severity_max' in c.metadata) {
          const worst = c.metadata.severity_max;
          if (!isSeverity(worst) || severityRank(worst) < severityRank(min)) return false;
        }
        return true;
      });
      const page = paginate(wanted, { dataset, query: args, limit: args.limit, cursor: args.cursor });
      // Entity texts are written only for the page shown (or for every chunk a query searches).
      const items = page.items.map((c) => (c instanceof LazyChunk ? c.materialise() : c));
      return { dataset: dataset.name, chunk_type: args.chunk_type, ...page, items };
    },
  });
}

/**
 * Retrieval-ready chunks of a dataset (the reference's RAGExporter): entity, community and
 * relation-group chunks, each built on first use and cached on the dataset like the graph views.
 */
export { LazyChunk, type RagChunk } from './chunk.js';
export { communityChunks } from './community.js';
export { entityChunks } from './entity.js';
export { relationGroupChunks } from './relation-group.js';

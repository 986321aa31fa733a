export { completeAssetType } from './asset-types.js';
export { assetRefCandidates, completeAssetRef } from './assets.js';
export { completeDatasetName } from './datasets.js';
export { completeDocsTopic } from './docs-topics.js';
export { completeFindingId, completeSeverity } from './findings.js';
export { completeFramework } from './frameworks.js';
export { completeGraphFormat } from './graph.js';

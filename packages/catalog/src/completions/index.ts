export { assetRefCandidates, completeAssetRef } from './assets.js';
export { completeDatasetName } from './datasets.js';

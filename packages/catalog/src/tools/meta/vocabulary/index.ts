// Relation types and groups are the ontology's own: the meta tools describe what it produces.
export {
  RELATION_GROUPS,
  RELATION_TYPES,
  RELATION_TYPES_BY_GROUP,
  type RelationGroup,
} from '../../../ontology/vocabulary.js';
export {
  ASSET_TYPES,
  type AssetTypeInfo,
  assetTypeInfo,
  assetTypesByFamily,
} from './asset-types.js';
export {
  type DependencyDirection,
  dependencyDirection,
  EDGE_TYPE_ORDER,
  type EdgeTypeInfo,
  edgeTypeInfo,
  edgeTypeVerbs,
} from './edge-types.js';

import type { Dataset } from '../dataset/dataset.js';
import type { CloudAsset } from '../model/asset.js';

export { findingRiskScore, SEVERITY_RISK } from '../model/finding.js';

/** Bonus added to an internet-exposed asset's risk when sorting `find_assets` by risk. */
export const EXPOSURE_SORT_BONUS = 2.0;

/** `find_assets` risk order: worst open finding's risk score, +2 when exposed, then open count. */
export function assetRiskKey(dataset: Dataset, asset: CloudAsset): [number, number] {
  const stats = dataset.indexes.findingStats(asset.id);
  const base = stats.open === 0 ? 0 : stats.maxRisk;
  return [base + (asset.is_internet_exposed ? EXPOSURE_SORT_BONUS : 0), stats.open];
}

export interface TopRiskComponents {
  max_finding_risk: number;
  /** 1.5 when flagged exposed or reachable from the internet, else 1.0. */
  exposure: number;
  /** 1 + min(1, log10(1 + transitive dependents) / 2). */
  blast: number;
  /** 1 + min(0.5, 0.05 * (open findings - 1)). */
  volume: number;
  score: number;
}

/** `top_risks`: max finding risk x exposure x blast x volume, to two decimals. */
export function topRiskScore(input: {
  maxFindingRisk: number;
  exposed: boolean;
  transitiveDependents: number;
  openFindings: number;
}): TopRiskComponents {
  const exposure = input.exposed ? 1.5 : 1.0;
  const blast = 1 + Math.min(1, Math.log10(1 + Math.max(0, input.transitiveDependents)) / 2);
  const volume = 1 + Math.min(0.5, 0.05 * Math.max(0, input.openFindings - 1));
  const score = Math.round(input.maxFindingRisk * exposure * blast * volume * 100) / 100;
  return { max_finding_risk: input.maxFindingRisk, exposure, blast, volume, score };
}

/** Crown-jewel weights of attack-path targets, by asset type. */
export const CROWN_JEWEL_WEIGHTS: Readonly<Record<string, number>> = {
  RDS_INSTANCE: 10,
  RDS_CLUSTER: 10,
  AURORA_CLUSTER: 10,
  AZURE_SQL: 10,
  SQL_DATABASE: 10,
  CLOUD_SQL: 10,
  DYNAMODB_TABLE: 9,
  DATA_WAREHOUSE: 9,
  REDSHIFT_CLUSTER: 9,
  SECRET: 9,
  KEY_VAULT: 9,
  KMS_KEY: 8,
  S3_BUCKET: 8,
  GCS_BUCKET: 8,
  BLOB_STORAGE: 8,
  STORAGE_ACCOUNT: 8,
  EFS_FILE_SYSTEM: 7,
  FILE_SYSTEM: 7,
  SEARCH_DOMAIN: 7,
  OPENSEARCH_DOMAIN: 7,
  ELASTICACHE_CLUSTER: 6,
  CACHE: 6,
  ACCESS_KEY: 6,
  IAM_ACCESS_KEY: 6,
  IAM_ROLE: 5,
  IAM_USER: 5,
};

/** Weight of an explicit `target` argument: always the maximum. */
export const EXPLICIT_TARGET_WEIGHT = 10;

/** `attack_paths` score: target weight + 0.5 x min(10, open findings on the path) - 0.3 x (hops - 1). */
export function attackPathScore(targetWeight: number, openFindingsOnPath: number, hops: number): number {
  return targetWeight + 0.5 * Math.min(10, openFindingsOnPath) - 0.3 * (hops - 1);
}

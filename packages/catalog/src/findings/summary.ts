import type { Dataset } from '../dataset/dataset.js';
import { SEVERITIES, type Severity, severityRank } from '../model/severity.js';
import { findingFacts, suppressedFlags } from './columns.js';

/** The dimensions `findings_summary` groups by. */
export const FINDING_GROUPS = [
  'severity',
  'source_tool',
  'framework',
  'asset_type',
  'account',
  'asset',
] as const;
export type FindingGroup = (typeof FINDING_GROUPS)[number];

/** Group of findings matched to no asset, under the asset-based groupings. */
export const UNMAPPED_GROUP = 'unmapped';
/** Group of findings tagged with no framework. */
export const NO_FRAMEWORK_GROUP = '(none)';
/** Account group of an asset that has no account. */
const NO_ACCOUNT_GROUP = 'unknown';

/** One group: how many findings it holds, then how many of each severity (present ones only). */
export type SeverityCounts = { total: number } & Partial<Record<Severity, number>>;

export interface FindingsSummary {
  dataset: string;
  group_by: FindingGroup;
  /** Findings counted (open, or all with include_suppressed), not the sum of the groups. */
  total: number;
  /** Suppressed findings in the dataset, whatever was counted. */
  suppressed: number;
  groups: Record<string, SeverityCounts>;
  truncated: boolean;
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The keys of one grouping for every finding, by dataset position, dictionary-encoded: finding
 * `i` counts under `keys[flat[j]]` for `j` from `offsets[i]` to `offsets[i + 1]`. Built once per
 * dataset version and kept across triage (a suppression moves no finding between groups).
 */
export interface GroupKeyColumn {
  keys: string[];
  offsets: Uint32Array;
  flat: Uint32Array;
  /**
   * Key indexes in key order: counting a grouping then sorts its groups by size alone (stable,
   * so equal sizes stay in key order) instead of comparing some 30,000 asset ids as strings
   * after every suppression.
   */
  byKey: Uint32Array;
}

export function groupKeyColumn(dataset: Dataset, groupBy: FindingGroup): GroupKeyColumn {
  return dataset.derived(`findings:group-keys:${groupBy}`, (d) => {
    const column = keyColumn(d, groupBy);
    const byKey = Uint32Array.from(column.keys, (_, k) => k).sort((a, b) =>
      compareKeys(column.keys[a] ?? '', column.keys[b] ?? ''),
    );
    return { ...column, byKey };
  });
}

function keyColumn(d: Dataset, groupBy: FindingGroup): Omit<GroupKeyColumn, 'byKey'> {
  const facts = findingFacts(d);
  const n = d.findings.length;
  const offsets = Uint32Array.from({ length: n + 1 }, (_, i) => i);
  // The groupings on a finding's own facts are read from the facts columns, without a pass over
  // the findings; framework is the only one where a finding counts under several keys.
  if (groupBy === 'severity') {
    const keys = [...SEVERITIES].reverse(); // index = rank
    return { keys, offsets, flat: Uint32Array.from(facts.rank) };
  }
  if (groupBy === 'source_tool') return { keys: facts.tools, offsets, flat: Uint32Array.from(facts.tool) };
  if (groupBy === 'framework') {
    const ids = new Map<string, number>();
    const keys: string[] = [];
    const id = (key: string) => {
      let k = ids.get(key);
      if (k === undefined) {
        k = keys.length;
        ids.set(key, k);
        keys.push(key);
      }
      return k;
    };
    const perSet = facts.frameworkSets.map((set) => (set.length ? set : [NO_FRAMEWORK_GROUP]).map(id));
    const flat: number[] = [];
    for (let i = 0; i < n; i += 1) {
      for (const k of perSet[facts.frameworks[i] ?? 0] ?? []) flat.push(k);
      offsets[i + 1] = flat.length;
    }
    return { keys, offsets, flat: Uint32Array.from(flat) };
  }
  if (groupBy === 'asset') {
    const assets = d.indexes.assetsOfFindings();
    const ids = new Map<string, number>();
    const keys: string[] = [];
    const flat = new Uint32Array(n);
    for (let i = 0; i < n; i += 1) {
      const key = assets[i]?.id ?? UNMAPPED_GROUP;
      let k = ids.get(key);
      if (k === undefined) {
        k = keys.length;
        ids.set(key, k);
        keys.push(key);
      }
      flat[i] = k;
    }
    return { keys, offsets, flat };
  }
  // Asset type and account: a relabelling of the asset grouping, one lookup per asset.
  const byAsset = groupKeyColumn(d, 'asset');
  const ids = new Map<string, number>();
  const keys: string[] = [];
  const relabel = Uint32Array.from(byAsset.keys, (assetId) => {
    const asset = assetId === UNMAPPED_GROUP ? undefined : d.indexes.assetById(assetId);
    const key = !asset
      ? UNMAPPED_GROUP
      : groupBy === 'asset_type'
        ? asset.asset_type
        : (asset.account_id ?? NO_ACCOUNT_GROUP);
    let k = ids.get(key);
    if (k === undefined) {
      k = keys.length;
      ids.set(key, k);
      keys.push(key);
    }
    return k;
  });
  return { keys, offsets, flat: byAsset.flat.map((k) => relabel[k] ?? 0) };
}

/** Every group of one grouping, in result order, with per-severity counts (index = rank). */
interface Grouped {
  keys: string[];
  /** Counts of group `k` at `k * 5 + rank`. */
  counts: Uint32Array;
  index: Map<string, number>;
  total: number;
  suppressed: number;
}

const WIDTH = SEVERITIES.length;

function group(dataset: Dataset, groupBy: FindingGroup, includeSuppressed: boolean): Grouped {
  const column = groupKeyColumn(dataset, groupBy);
  const ranks = findingFacts(dataset).rank;
  const flags = suppressedFlags(dataset);
  const counts = new Uint32Array(column.keys.length * WIDTH);
  let total = 0;
  let suppressed = 0;
  for (let i = 0; i < ranks.length; i += 1) {
    if (flags[i]) {
      suppressed += 1;
      if (!includeSuppressed) continue;
    }
    total += 1;
    const r = ranks[i] ?? 0;
    for (let j = column.offsets[i] ?? 0; j < (column.offsets[i + 1] ?? 0); j += 1) {
      const cell = (column.flat[j] ?? 0) * WIDTH + r;
      counts[cell] = (counts[cell] ?? 0) + 1;
    }
  }
  const size = (k: number) => {
    let n = 0;
    for (let r = 0; r < WIDTH; r += 1) n += counts[k * WIDTH + r] ?? 0;
    return n;
  };
  const sizes = Uint32Array.from(column.keys, (_, k) => size(k));
  const present = Array.from(column.byKey).filter((k) => (sizes[k] ?? 0) > 0);
  if (groupBy === 'severity') {
    const order = (k: number) => SEVERITIES.indexOf(column.keys[k] as Severity);
    present.sort((a, b) => order(a) - order(b));
  } else {
    // Array sort is stable: groups of one size stay in key order.
    present.sort((a, b) => (sizes[b] ?? 0) - (sizes[a] ?? 0));
  }
  return {
    keys: present.map((k) => column.keys[k] ?? ''),
    counts,
    index: new Map(column.keys.map((key, k) => [key, k])),
    total,
    suppressed,
  };
}

/**
 * Count findings by one dimension. Groups come largest first (ties by key), except by severity,
 * which keeps severity order; at most `top` groups are returned. The grouping is counted once per
 * dataset version (any suppression starts it again), so asking again with another `top` is a
 * lookup.
 */
export function summariseFindings(
  dataset: Dataset,
  options: { groupBy: FindingGroup; includeSuppressed: boolean; top: number },
): FindingsSummary {
  const grouped = dataset.derived(`findings:summary:${options.groupBy}:${options.includeSuppressed}`, (d) =>
    group(d, options.groupBy, options.includeSuppressed),
  );
  // Inside a group the severities come worst first. The reference lists them in the order the
  // findings happened to come (scoutsuite: HIGH, CRITICAL, MEDIUM); severity order reads the same
  // whatever the file order.
  const groups: Record<string, SeverityCounts> = {};
  for (const key of grouped.keys.slice(0, options.top)) {
    const k = grouped.index.get(key) ?? 0;
    const entry: SeverityCounts = { total: 0 };
    for (const s of SEVERITIES) {
      const n = grouped.counts[k * WIDTH + severityRank(s)] ?? 0;
      entry.total += n;
      if (n > 0) entry[s] = n;
    }
    groups[key] = entry;
  }
  return {
    dataset: dataset.name,
    group_by: options.groupBy,
    total: grouped.total,
    suppressed: grouped.suppressed,
    groups,
    truncated: grouped.keys.length > options.top,
  };
}

/**
 * One `mapInventory` through the collector engine for the cloud stand-in tests: the governor's
 * back-off sleeps are recorded instead of waited, its jitter is zero, and the engine's errors and
 * throttling events are collected.
 */
import { CloudgConfig, type CollectionCoverage, type EngineCollection } from '@cloudg/catalog';
import {
  createCollectorEngine,
  type GovernorEvent,
  type ProviderCollector,
  SILENT_HOOKS,
} from '../../src/index.js';

export interface EngineRun {
  out: EngineCollection;
  errors: string[];
  events: GovernorEvent[];
  sleeps: number[];
}

export async function runEngine(
  collector: ProviderCollector,
  provider: 'azure' | 'gcp',
  config: Record<string, unknown>,
  services: string[] | null,
): Promise<EngineRun> {
  const errors: string[] = [];
  const events: GovernorEvent[] = [];
  const sleeps: number[] = [];
  const engine = createCollectorEngine({
    collectors: [collector],
    governor: { sleep: async (s) => void sleeps.push(s), random: () => 0 },
  });
  const out = await engine.mapInventory({
    config: CloudgConfig.parse({ providers: [provider], ...config }),
    providers: [provider],
    regions: null,
    services,
    taggingSweep: null,
    signal: new AbortController().signal,
    hooks: { ...SILENT_HOOKS, error: (_p, m) => errors.push(m), throttle: (e) => events.push(e) },
  });
  return { out, errors, events, sleeps };
}

/** The coverage entry of one service, across the collection's accounts. */
export const coverageEntry = (coverage: CollectionCoverage[] | undefined, service: string) =>
  (coverage ?? []).flatMap((c) => c.services).find((s) => s.service === service);

/** Each edge as `source type target`, by asset name where the asset is known. */
export function edgeLines(out: EngineCollection): Set<string> {
  const name = new Map((out.assets ?? []).map((a) => [a.id, a.name]));
  return new Set(
    (out.edges ?? []).map(
      (e) => `${name.get(e.source_id) ?? e.source_id} ${e.edge_type} ${name.get(e.target_id) ?? e.target_id}`,
    ),
  );
}

import type {
  CloudAsset,
  CloudgConfig,
  CollectionCoverage,
  NetworkEdge,
  OrganizationTopology,
} from '@cloudg/catalog';
import type { Governor } from './governor/governor.js';
import type { EngineHooks, LiveProvider } from './port.js';

/** What the engine hands one cloud's collector. */
export interface ProviderRun {
  config: CloudgConfig;
  /** The call's regions, or null for the configured ones. */
  regions: readonly string[] | null;
  /** Service families or task names, or null for all. */
  services: readonly string[] | null;
  signal: AbortSignal;
  hooks: EngineHooks;
  governor: Governor;
}

/** One cloud's raw collection: assets with declared relations, collector network edges, coverage. */
export interface ProviderCollection {
  assets: CloudAsset[];
  edges: NetworkEdge[];
  coverage: CollectionCoverage[];
  /** Regions actually collected. */
  regions: string[];
  /** An organization's topology, when the collector discovered one. */
  organization?: OrganizationTopology;
}

/** A cloud collector the engine composes; each lives on its own entry point with its SDK. */
export interface ProviderCollector {
  readonly provider: LiveProvider;
  collect(run: ProviderRun): Promise<ProviderCollection>;
}

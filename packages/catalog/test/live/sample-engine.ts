import { join } from 'node:path';
import {
  type CloudAsset,
  type CloudgEngine,
  type CollectRequest,
  type EngineCollection,
  loadPath,
  type MapInventoryRequest,
  sampleEstateDir,
} from '../../src/index.js';

/**
 * An engine that "collects" the bundled sample estate: it reports its phase, an access-denied
 * service through the error hook and in coverage, a throttle event, and waits until released
 * (when `hold` is set) or its signal aborts, as a real collector stops its API calls.
 */
export class SampleEngine implements CloudgEngine {
  calls: { kind: 'map' | 'collect'; request: CollectRequest }[] = [];
  hold = false;
  /** Assets collected besides the sample estate's (a test's IAM policy, say). */
  extraAssets: CloudAsset[] = [];
  lastSignal: AbortSignal | undefined;
  #release: (() => void)[] = [];

  release(): void {
    for (const r of this.#release.splice(0)) r();
  }

  async mapInventory(request: MapInventoryRequest): Promise<EngineCollection> {
    this.calls.push({ kind: 'map', request });
    request.hooks.phase('inventory_mapping');
    return this.#collect(request);
  }

  async collect(request: CollectRequest): Promise<EngineCollection> {
    this.calls.push({ kind: 'collect', request });
    request.hooks.phase('collection');
    return this.#collect(request);
  }

  async #collect(request: CollectRequest): Promise<EngineCollection> {
    this.lastSignal = request.signal;
    request.hooks.throttle({ kind: 'throttled', scope: 'aws', service: 'ec2', wait_seconds: 0.5 });
    if (this.hold) {
      await new Promise<void>((resolve, reject) => {
        this.#release.push(resolve);
        request.signal.addEventListener('abort', () => reject(request.signal.reason), { once: true });
      });
    }
    const loaded = await loadPath(join(sampleEstateDir(), 'inventory'), { signal: request.signal });
    request.hooks.error('inventory_mapping', 'aws:rds: AccessDenied');
    return {
      assets: [...(loaded.data.assets ?? []), ...this.extraAssets],
      edges: loaded.data.edges ?? [],
      providers: [...request.providers],
      coverage: [
        {
          provider: 'aws',
          region: 'us-east-1',
          account_id: null,
          started_at: null,
          completed_at: null,
          services: [
            { service: 'ec2', status: 'SUCCESS', asset_count: 3, error: null, duration_ms: 5 },
            {
              service: 'rds',
              status: 'FAILED',
              asset_count: 0,
              error: 'AccessDenied: rds:DescribeDBInstances',
              duration_ms: 1,
            },
          ],
        },
      ],
    };
  }
}

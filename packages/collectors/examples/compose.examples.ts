// Type-checked with the package; not run in tests (it would call AWS with your credentials).
// #region compose
import { CloudgConfig } from '@cloudg/catalog';
import { createCollectorEngine, SILENT_HOOKS } from '@cloudg/collectors';
import { AwsCollector } from '@cloudg/collectors/aws';

// One engine per server: its governor remembers slowed buckets and open breakers between runs.
const engine = createCollectorEngine({ collectors: [new AwsCollector()] });

const config = CloudgConfig.parse({ providers: ['aws'], aws: { regions: ['us-east-1', 'eu-west-1'] } });
const collection = await engine.mapInventory({
  config,
  providers: ['aws'],
  regions: null, // the configured regions
  services: null, // every service family
  taggingSweep: null,
  signal: AbortSignal.timeout(30 * 60_000),
  hooks: { ...SILENT_HOOKS, error: (phase, message) => console.error(`${phase}: ${message}`) },
});
console.log(collection.assets?.length, 'assets,', collection.edges?.length, 'edges');
for (const record of collection.coverage ?? [])
  for (const service of record.services)
    if (service.status !== 'SUCCESS')
      console.log(record.region, service.service, service.status, service.error);
// #endregion compose

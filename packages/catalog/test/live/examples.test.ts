import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { liveQuickStart } from '../../examples/live.examples.js';
import { sampleEstateDir } from '../../src/index.js';

it('the README live example collects the sample estate as the active live dataset', async () => {
  const out = await mkdtemp(join(tmpdir(), 'cloudg-live-example-'));
  try {
    const layer = await liveQuickStart(join(sampleEstateDir(), 'inventory'), out);
    const summary = await layer.callTool('dataset_summary', {});
    expect(summary.structured).toMatchObject({ dataset: 'live-aws', kind: 'live', total_assets: 44 });
    const again = await layer.callTool('map_inventory', { providers: ['aws'], preflight: false });
    expect(again.meta['cloudg/error_data']).toMatchObject({ reason: 'cooldown', use_dataset: 'live-aws' });
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

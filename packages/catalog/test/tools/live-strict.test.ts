import { describe, expect, it } from 'vitest';
import { LiveOperationGuard, parseCloudgConfig } from '../../src/index.js';
import { configureLive } from '../../src/live/state.js';
import { profileLayer } from '../privacy-profiles/support.js';

/**
 * Scopes name accounts, subscriptions and projects. Under strict, `rate_limit_status` (the only
 * live tool strict leaves visible: the others need cloud_access or exec) shows them as
 * pseudonyms, in keys as in values.
 */
describe('rate_limit_status under strict', () => {
  it('shows the scopes of configured accounts and projects only as pseudonyms', async () => {
    const { layer } = await profileLayer('strict');
    const ws = layer.app;
    const config = parseCloudgConfig({
      providers: ['aws', 'gcp'],
      aws: { accounts: ['111111111111'] },
      gcp: { projects: ['proj-analytics'] },
    });
    const guard = LiveOperationGuard.fromConfig(config);
    configureLive(ws, { guard });
    for (const scopes of [['aws/111111111111'], ['gcp/proj-analytics']])
      await guard.run(
        {
          operation: 'map_inventory',
          providers: ['aws'],
          scopes,
          key: '{}',
          caller: 'local',
          force: false,
          signal: new AbortController().signal,
        },
        async () => 'done',
      );
    const names = layer.listTools().map((t) => t.name);
    expect(names).toContain('rate_limit_status');
    expect(names).not.toContain('run_scanners');
    const result = await layer.callTool('rate_limit_status', {});
    expect(result.isError).toBe(false);
    const text = JSON.stringify(result.toWire());
    expect(text).not.toContain('111111111111');
    expect(text).not.toContain('proj-analytics');
    const cooling = (result.structured as { live_guard: { cooling_down: Record<string, number> } }).live_guard
      .cooling_down;
    expect(Object.keys(cooling)).toHaveLength(2);
  });
});

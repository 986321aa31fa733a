import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/sample-engine.ts', import.meta.url));

describe('--engine', () => {
  it('serves the collecting tools with an engine and not without one', async () => {
    const without = await cli(['tools']);
    expect(without.code).toBe(0);
    expect(without.stdout).not.toContain('map_inventory');
    expect(without.stdout).toContain('rate_limit_status');
    const withEngine = await cli(['tools', '--engine', FIXTURE]);
    expect(withEngine.code).toBe(0);
    for (const name of ['map_inventory', 'collect_assets', 'run_pipeline'])
      expect(withEngine.stdout).toContain(name);
  });

  it('refuses a module attribute that is not an engine, with status 2', async () => {
    const run = await cli(['tools', '--engine', `${FIXTURE}:notAnEngine`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Invalid value for --engine: 'notAnEngine' is not an engine");
  });
});

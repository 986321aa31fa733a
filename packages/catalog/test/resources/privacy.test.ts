import { describe, expect, it } from 'vitest';
import { createCatalogLayer } from '../../src/index.js';
import { profileLayer } from '../privacy-profiles/support.js';
import { workspaceAt } from '../support/estate.js';
import { call, estate, readJson } from '../tools/support.js';

describe('cloudg://privacy/detectors', () => {
  it('is the list_detectors table for the caller under the standard profile', async () => {
    const { layer } = await profileLayer('standard');
    const table = await readJson(layer, 'cloudg://privacy/detectors');
    expect(table).toEqual(await call(layer, 'list_detectors'));
    expect(table.policy).toBe('standard');
    const detectors = table.detectors as { name: string; strategy: string }[];
    expect(detectors.length).toBeGreaterThan(0);
    expect(detectors.every((d) => typeof d.strategy === 'string')).toBe(true);
  });

  it('is the empty table under a policy that cannot describe itself', async () => {
    const layer = createCatalogLayer({ workspace: workspaceAt(estate) });
    expect(await readJson(layer, 'cloudg://privacy/detectors')).toEqual({
      policy: 'allow-all',
      detectors: [],
      key_rules: [],
    });
  });
});

import { describe, expect, it } from 'vitest';
import { ontologyOf } from '../../src/ontology/cache.js';
import { sampleWorkspace } from '../support/estate.js';

/** The per-dataset ontology cache: built once per version, never poisoned by a cancelled build. */
describe('ontologyOf', () => {
  it('builds once per dataset version and shares a build in progress', async () => {
    const ds = (await sampleWorkspace()).get();
    const [a, b] = await Promise.all([ontologyOf(ds), ontologyOf(ds)]);
    expect(a.ontology).toBe(b.ontology);
    expect([a.builtNow, b.builtNow].filter(Boolean)).toHaveLength(1);
    expect((await ontologyOf(ds)).builtNow).toBe(false);
    ds.touch();
    const after = await ontologyOf(ds);
    expect(after.builtNow).toBe(true);
    expect(after.ontology).not.toBe(a.ontology);
    expect(after.ontology.key).toBe(`${ds.loadId}:${ds.version}`);
  });

  it('stops on a cancelled signal and leaves nothing cached, so the next call builds', async () => {
    const ds = (await sampleWorkspace()).get();
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the caller'));
    await expect(ontologyOf(ds, { signal: controller.signal })).rejects.toThrow('cancelled by the caller');
    expect(ds.isCached('ontology')).toBe(false);
    const next = await ontologyOf(ds);
    expect(next.builtNow).toBe(true);
    expect(next.ontology.size).toBeGreaterThan(1000);
  });
});

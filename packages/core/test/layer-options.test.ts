import { describe, expect, it } from 'vitest';
import { allowAllPolicy, Layer, LayerConfigError, Principal, Registry } from '../src/index.js';
import { MaskingPipeline, RecordingPolicy, testLayer, testRegistry } from './helpers.js';

describe('layer options (section 10.1)', () => {
  it('validates the prefix: at most 64 of A-Za-z0-9_.-', () => {
    expect(() => testLayer({ prefix: 'bad prefix' })).toThrow(LayerConfigError);
    expect(() => testLayer({ prefix: 'x'.repeat(65) })).toThrow(LayerConfigError);
    expect(testLayer({ prefix: 'x'.repeat(64) }).prefix).toHaveLength(64);
    expect(testLayer({ prefix: 'cg.' }).exposedName('echo')).toBe('cg.echo');
    expect(testLayer({ prefix: 'cg.' }).internalName('cg.echo')).toBe('echo');
  });

  it('has the documented defaults', () => {
    const layer = new Layer();
    expect(layer.defaultTimeout).toBe(300);
    expect(layer.maxOutputChars).toBe(200_000);
    expect(layer.identity.name).toBe('cloudg');
    expect(layer.policy).toBe(allowAllPolicy);
    expect(() => new Layer({ defaultTimeout: -1 })).toThrow(LayerConfigError);
    expect(new Layer({ defaultTimeout: null }).defaultTimeout).toBe(0);
  });

  it('filters by category (every kind) and by tool name (tools only) into a new registry', () => {
    const registry = testRegistry();
    const before = registry.size;
    const onlyTest = testLayer({ registry, includeCategories: ['test'] });
    expect(onlyTest.listTools().every((t) => t.category === 'test')).toBe(true);
    expect(onlyTest.listPrompts()).toEqual([]);
    expect(onlyTest.listResources().length).toBeGreaterThan(0);
    const noAdmin = testLayer({ registry, excludeCategories: ['admin'] });
    expect(noAdmin.listTools().map((t) => t.name)).not.toContain('reset');
    const twoTools = testLayer({ registry, includeTools: ['echo', 'boom'] });
    expect(twoTools.listTools().map((t) => t.name)).toEqual(['echo', 'boom']);
    expect(twoTools.listPrompts().length).toBe(2);
    const minusEcho = testLayer({ registry, excludeTools: ['echo'] });
    expect(minusEcho.listTools().map((t) => t.name)).not.toContain('echo');
    expect(registry.size).toBe(before);
  });

  it('uses the registry as is without filters, so later additions show up', () => {
    const registry = new Registry();
    const layer = new Layer({ registry });
    registry.tool({ name: 'late', handler: () => 1 });
    expect(layer.toolsWire().map((t) => t.name)).toEqual(['late']);
  });

  it('lists per principal and withholds outputSchema when the output pipeline is not empty', () => {
    const registry = new Registry();
    registry.tool({ name: 'typed', outputSchema: { type: 'object' }, handler: () => ({}) });
    const open = new Layer({ registry });
    expect(open.toolsWire()[0]).toHaveProperty('outputSchema');
    const masked = new Layer({ registry, policy: new RecordingPolicy({ output: new MaskingPipeline() }) });
    expect(masked.toolsWire()[0]).not.toHaveProperty('outputSchema');
    const hiding = testLayer({
      policy: new RecordingPolicy({ hidden: ['echo', 'status', 'item', 'greet'] }),
    });
    const names = hiding.toolsWire(new Principal({ id: 'x' })).map((t) => t.name);
    expect(names).not.toContain('echo');
    expect(hiding.resourcesWire().map((r) => r.uri)).not.toContain('test://status');
    expect(hiding.resourceTemplatesWire().map((r) => r.uriTemplate)).toEqual(['test://items/{+ref}/detail']);
    expect(hiding.promptsWire().map((p) => p.name)).toEqual(['investigate']);
  });

  it('delivers change events to every listener and survives a failing one', () => {
    const layer = testLayer();
    const events: unknown[] = [];
    layer.onChange(() => {
      throw new Error('listener bug');
    });
    const off = layer.onChange((kind, uri) => events.push([kind, uri]));
    layer.notifyChange('resources');
    layer.notifyChange('resource', 'test://status');
    off();
    layer.notifyChange('tools');
    expect(events).toEqual([
      ['resources', undefined],
      ['resource', 'test://status'],
    ]);
  });

  it('runs as the local user without a principal, and as the context principal when only a context is given', async () => {
    const seen: string[] = [];
    const layer = testLayer({
      middleware: [
        async (info, next) => {
          seen.push(info.principal.id);
          return next(info);
        },
      ],
    });
    await layer.callTool('echo', { text: 'a' });
    await layer.callTool(
      'echo',
      { text: 'a' },
      { context: layer.context(new Principal({ id: 'ann', roles: ['analyst'] })) },
    );
    expect(seen).toEqual(['local', 'ann']);
    expect(Principal.local().sortedRoles()).toEqual(['default', 'local']);
    expect(Principal.anonymous().toJSON()).toEqual({ id: 'anonymous', roles: ['default'] });
  });
});

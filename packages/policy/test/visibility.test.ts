/**
 * Visible tools per profile and role, through a real core `Layer` over the catalog's tool index
 * (MCP.md section 5.4, MCP_PRIVACY.md section 4.1, MCP_TOOLS.md "Sensitivity, capabilities").
 */
import { Layer, type Principal } from '@cloudg/core';
import { describe, expect, it } from 'vitest';
import { catalogRegistry } from './fixtures/catalog.js';
import { as, load, local, silent } from './helpers.js';

function visible(profile: string, principal: Principal = local, registry = catalogRegistry()) {
  const layer = new Layer({ policy: load(profile), registry, logger: silent });
  return layer.toolsWire(principal);
}
const names = (wire: { name?: unknown }[]) => wire.map((t) => String(t.name));
const hidden = (profile: string, principal?: Principal) => {
  const shown = new Set(names(visible(profile, principal)));
  return [...catalogRegistry().tools.keys()].filter((n) => !shown.has(n)).sort();
};

const READ_ONLY_HIDDEN = [
  'collect_assets',
  'export_ontology',
  'export_report',
  'export_terraform',
  'map_inventory',
  'reveal_token',
  'run_pipeline',
  'run_scanners',
];

describe('visible tools for the local user, with the tool index as published', () => {
  it.each([
    ['open', 74, []],
    ['standard', 73, ['reveal_token']],
    ['airgapped', 69, ['collect_assets', 'map_inventory', 'reveal_token', 'run_pipeline', 'run_scanners']],
    ['read_only', 66, READ_ONLY_HIDDEN],
    ['audit', 66, READ_ONLY_HIDDEN],
  ])('%s lists %i tools', (profile, count, expected) => {
    expect(visible(profile)).toHaveLength(count);
    expect(hidden(profile)).toEqual(expected);
  });

  // The index marks sparql_query and subgraph_export restricted, so a confidential ceiling hides
  // them too: MCP_TOOLS.md counts 62 visible under soc-analyst (and 60 for the analyst).
  it.each(['strict', 'soc-analyst'])('%s hides the restricted tools as well (62)', (profile) => {
    expect(hidden(profile)).toEqual(
      [
        ...READ_ONLY_HIDDEN,
        'get_asset_metadata',
        'privacy_audit_log',
        'sparql_query',
        'subgraph_export',
      ].sort(),
    );
    expect(visible(profile)).toHaveLength(62);
  });

  it.each([
    ['analyst', 60],
    ['lead', 70],
    ['collector', 69],
  ])('soc-analyst %s sees %i tools', (role, count) => {
    expect(visible('soc-analyst', as(role))).toHaveLength(count);
  });

  it('publishes the 18 output schemas under open only', () => {
    expect(visible('open').filter((t) => 'outputSchema' in t)).toHaveLength(18);
    for (const profile of ['standard', 'strict', 'read_only', 'airgapped', 'audit', 'soc-analyst']) {
      expect(visible(profile).filter((t) => 'outputSchema' in t)).toHaveLength(0);
    }
  });
});

describe('visible tools as counted in MCP.md 5.4 and MCP_PRIVACY.md 4.1', () => {
  // Those tables were measured while sparql_query and subgraph_export were still confidential.
  const measured = () => catalogRegistry({ sparql_query: 'confidential', subgraph_export: 'confidential' });

  it.each([
    ['open', 74],
    ['standard', 73],
    ['airgapped', 69],
    ['read_only', 66],
    ['audit', 66],
    ['strict', 64],
    ['soc-analyst', 64],
  ])('%s lists %i tools for the local user', (profile, count) => {
    expect(visible(profile, local, measured())).toHaveLength(count);
  });

  it.each([
    ['analyst', 61],
    ['lead', 70],
    ['collector', 71],
  ])('soc-analyst %s sees %i tools', (role, count) => {
    expect(visible('soc-analyst', as(role), measured())).toHaveLength(count);
  });

  it('hides from the analyst exactly the tools section 8.3 names', () => {
    const shown = new Set(names(visible('soc-analyst', as('analyst'), measured())));
    const gone = [...measured().tools.keys()].filter((n) => !shown.has(n)).sort();
    expect(gone).toEqual(
      [
        'reveal_token',
        'get_asset_metadata',
        'privacy_audit_log',
        'map_inventory',
        'collect_assets',
        'run_scanners',
        'run_pipeline',
        'rate_limit_status',
        'terraform_preview',
        'export_terraform',
        'export_report',
        'export_ontology',
        'subgraph_export',
      ].sort(),
    );
  });
});

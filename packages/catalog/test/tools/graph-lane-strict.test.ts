import { describe, expect, it } from 'vitest';
import { profileLayer } from '../privacy-profiles/support.js';

/**
 * Under `strict` the dependency, cross-account, centrality and coverage results carry no real
 * name, id, ARN or account, keys of their aggregations included, and the restricted exports
 * (subgraph_export, cloudg://graph/{format}) are hidden while cloudg://graph/d3 stays readable.
 */
const REAL = [
  'kms-main',
  'prod-main-key',
  'api-handler',
  'deploy-role',
  '111111111111',
  '222222222222',
  '999999999999',
];

describe('the remaining graph tools under strict', () => {
  it('pseudonymise identifiers in values and in aggregation keys', async () => {
    const { layer } = await profileLayer('strict');
    for (const [tool, args] of [
      ['dependents', { ref: 'kms-main' }],
      ['dependency_tree', { ref: 'api-handler' }],
      ['shared_dependencies', {}],
      ['largest_blast_radius', {}],
      ['cross_account_edges', {}],
      ['centrality_top', { metric: 'betweenness' }],
      ['security_coverage', {}],
    ] as const) {
      const result = await layer.callTool(tool, args);
      expect(result.isError, tool).toBe(false);
      const text = JSON.stringify(result.structured);
      for (const real of REAL) expect(text, `${tool}: ${real}`).not.toContain(real);
    }
  });

  it('hide the restricted exports and pseudonymise the D3 graph', async () => {
    const { layer } = await profileLayer('strict');
    const tools = layer.listTools().map((t) => t.name);
    expect(tools).toContain('centrality_top');
    expect(tools).not.toContain('subgraph_export');
    const templates = layer.listResourceTemplates().map((t) => t.uriTemplate);
    expect(templates).toContain('cloudg://assets/{+ref}');
    expect(templates).not.toContain('cloudg://graph/{format}');
    const [content] = await layer.readResource('cloudg://graph/d3');
    const text = content && 'text' in content ? content.text : '';
    expect(JSON.parse(text).nodes).toHaveLength(45);
    for (const real of REAL) expect(text, real).not.toContain(real);
  });
});

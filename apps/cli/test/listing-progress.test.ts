import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/progress-registry.ts', import.meta.url));

describe('prompts (MCP.md 5.4)', () => {
  it('prints the table of the 11 prompts with required arguments starred', async () => {
    const run = await cli(['prompts', '--policy', 'open']);
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split('\n');
    expect(lines[0]!.trim()).toBe('cloudg MCP prompts (11)');
    expect(lines[1]!.trim().split(/\s{2,}/)).toEqual(['Prompt', 'Category', 'Arguments', 'Description']);
    const rows = lines.slice(2).map((l) =>
      l
        .trim()
        .split(/\s{2,}/)
        .slice(0, 3),
    );
    expect(rows).toEqual([
      ['security_posture_review', 'prompts', 'dataset'],
      ['executive_summary', 'prompts', 'dataset'],
      ['attack_surface_report', 'prompts', 'dataset'],
      ['investigate_asset', 'prompts', 'ref*, dataset'],
      ['blast_radius_assessment', 'prompts', 'ref*, dataset'],
      ['change_impact_analysis', 'prompts', 'ref*, change, dataset'],
      ['cross_account_trust_review', 'prompts', 'dataset'],
      ['compliance_gap_analysis', 'prompts', 'framework*, dataset'],
      ['remediation_plan', 'prompts', 'severity, dataset'],
      ['incident_triage', 'prompts', 'finding_id*, dataset'],
      ['drift_review', 'prompts', 'base*, target'],
    ]);
  });

  it('--json prints the prompts/list entries', async () => {
    const run = await cli(['prompts', '--json', '--policy', 'open']);
    const prompts = JSON.parse(run.stdout) as Array<{
      name: string;
      arguments: unknown[];
      _meta: Record<string, unknown>;
    }>;
    expect(prompts).toHaveLength(11);
    expect(prompts.find((p) => p.name === 'compliance_gap_analysis')?._meta['cloudg/category']).toBe(
      'prompts',
    );
  });
});

describe('tools (MCP.md 5.4)', () => {
  it('hides reveal_token under standard and the restricted tools under strict', async () => {
    const names = async (policy: string) =>
      (
        JSON.parse((await cli(['tools', '--json', '--policy', policy])).stdout) as Array<{ name: string }>
      ).map((t) => t.name);
    const open = await names('open');
    const standard = await names('standard');
    const strict = await names('strict');
    expect(open.filter((n) => !standard.includes(n))).toEqual(['reveal_token']);
    // The restricted tools, the live ones and those that write files, as far as the catalog has them.
    const strictHides = [
      'collect_assets',
      'map_inventory',
      'run_pipeline',
      'run_scanners',
      'export_ontology',
      'export_report',
      'export_terraform',
      'get_asset_metadata',
      'privacy_audit_log',
      'reveal_token',
      'sparql_query',
      'subgraph_export',
    ];
    expect(open.filter((n) => !strict.includes(n)).sort()).toEqual(
      strictHides.filter((n) => open.includes(n)).sort(),
    );
    // outputSchema only where the caller's output pipeline is empty (MCP.md 17.5).
    const withSchema = (await cli(['tools', '--json', '--policy', 'standard'])).stdout.includes(
      '"outputSchema"',
    );
    expect(withSchema).toBe(false);
  });

  it('every profile of the 5.4 table hides what it documents, and only open keeps outputSchema', async () => {
    // The "Hidden compared to open" column, as far as the catalog has those tools: the collecting,
    // scanning and export tools come with later categories, so they are filtered to what exists.
    const collecting = ['map_inventory', 'collect_assets', 'run_scanners', 'run_pipeline'];
    const exports = ['export_ontology', 'export_report', 'export_terraform'];
    const readOnly = ['reveal_token', ...collecting, ...exports];
    // The table leaves out two restricted tools strict hides as every restricted one (its
    // max_sensitivity is confidential): subgraph_export and sparql_query.
    const strict = [
      ...readOnly,
      'get_asset_metadata',
      'privacy_audit_log',
      'subgraph_export',
      'sparql_query',
    ];
    const documented: Record<string, string[]> = {
      standard: ['reveal_token'],
      airgapped: ['reveal_token', ...collecting],
      read_only: readOnly,
      audit: readOnly,
      strict,
      'soc-analyst': strict,
    };
    const listing = async (policy: string) =>
      JSON.parse((await cli(['tools', '--json', '--policy', policy])).stdout) as Array<{
        name: string;
        outputSchema?: unknown;
      }>;
    const open = await listing('open');
    const openNames = open.map((t) => t.name);
    expect(open.filter((t) => t.outputSchema).length).toBeGreaterThan(0);
    for (const [policy, hidden] of Object.entries(documented)) {
      const tools = await listing(policy);
      const names = tools.map((t) => t.name);
      expect(openNames.filter((n) => !names.includes(n)).sort(), policy).toEqual(
        hidden.filter((n) => openNames.includes(n)).sort(),
      );
      expect(
        tools.filter((t) => t.outputSchema),
        policy,
      ).toEqual([]);
      // rate_limit_status reads local state only: every profile keeps it once it exists.
      expect(names.includes('rate_limit_status'), policy).toBe(openNames.includes('rate_limit_status'));
    }
  });

  it('--category filters on cloudg/category', async () => {
    const run = await cli(['tools', '--json', '--policy', 'open', '--category', 'meta']);
    const tools = JSON.parse(run.stdout) as Array<{ name: string }>;
    expect(tools.map((t) => t.name)).toEqual([
      'list_capabilities',
      'describe_schema',
      'explain_asset_type',
      'explain_edge_type',
    ]);
  });
});

describe('progress on a terminal', () => {
  it('shows progress on stderr when stderr is a terminal, and nothing otherwise', async () => {
    const args = [
      'call',
      'steps',
      '--policy',
      'open',
      '--registry',
      `${FIXTURE}:defaultRegistry`,
      '--no-sample-estate',
    ];
    const tty = await cli(args, { tty: true });
    expect(tty.code).toBe(0);
    expect(JSON.parse(tty.stdout)).toEqual({ steps: 3 });
    expect(tty.stderr).toContain('1/3 step 1');
    expect(tty.stderr).toContain('3/3 step 3');
    const piped = await cli(args);
    expect(piped.stderr).toBe('');
  });

  it('refuses a --registry that is not a Registry', async () => {
    const run = await cli(['tools', '--registry', `${FIXTURE}:nothingHere`]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Invalid value for --registry: 'nothingHere' is not a Registry");
  });
});

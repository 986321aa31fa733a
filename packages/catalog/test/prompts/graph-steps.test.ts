import type { Layer } from '@cloudg/core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/index.js';
import { availableSteps, toolsNamed } from '../../src/prompts/available-steps.js';
import { promptLayer, textOf } from './support.js';

/**
 * Prompts send the model only to tools it can call: a step naming nothing but tools that are not
 * registered (or are hidden) is left out, and the steps are numbered again.
 */

let layer: Layer<Workspace>;
beforeAll(async () => {
  ({ layer } = await promptLayer());
});

const PROMPTS: [string, Record<string, string>][] = [
  ['security_posture_review', {}],
  ['executive_summary', {}],
  ['attack_surface_report', {}],
  ['investigate_asset', { ref: 'web-1' }],
  ['blast_radius_assessment', { ref: 'kms-main' }],
  ['change_impact_analysis', { ref: 'kms-main', change: 'delete it' }],
  ['cross_account_trust_review', {}],
  ['compliance_gap_analysis', { framework: 'CIS' }],
  ['remediation_plan', {}],
  ['incident_triage', { finding_id: 'f-ssh-open' }],
];

describe('prompt steps', () => {
  it('name only registered tools', async () => {
    const registered = new Set(layer.listTools().map((t) => t.name));
    for (const [name, args] of PROMPTS) {
      const task = textOf((await layer.getPrompt(name, args)).messages[0]?.content);
      for (const line of task.split('\n').filter((l) => /^\d+\. /.test(l) && toolsNamed(l).length > 0))
        expect(
          toolsNamed(line).some((t) => registered.has(t)),
          `${name}: ${line}`,
        ).toBe(true);
    }
  });

  it('keep the graph tools that exist', async () => {
    const task = textOf((await layer.getPrompt('investigate_asset', { ref: 'web-1' })).messages[0]?.content);
    expect(task).toContain('`neighbors(ref, depth=2)`');
    expect(task).toContain("`find_paths(source='internet', target=ref)`");
  });

  it('drop a step whose tools are all missing, with its continuation lines, and renumber', () => {
    const task = [
      'Do this:',
      '1. `get_asset(ref)`.',
      '2. `centrality_top()` and',
      '   `dependents(ref)`.',
      '3. `neighbors(ref)`.',
      '',
      'Report.',
    ].join('\n');
    expect(availableSteps(task, (t) => t === 'get_asset' || t === 'neighbors')).toBe(
      ['Do this:', '1. `get_asset(ref)`.', '2. `neighbors(ref)`.', '', 'Report.'].join('\n'),
    );
  });

  it('keep a step that names one callable tool, and lines without tools', () => {
    const task = '1. `get_asset` or `depends_on`.\n2. Think about it.';
    expect(availableSteps(task, (t) => t === 'get_asset')).toBe(task);
  });
});

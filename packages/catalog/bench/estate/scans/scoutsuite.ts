/**
 * ScoutSuite results, one run per account: `scoutsuite_results_<provider>-<account>.js`, the
 * JavaScript assignment ScoutSuite's report loads, around one JSON object whose services list
 * each rule once with the dotted paths of every item it flagged.
 */
import type { PlannedFinding } from '../findings.js';

const PROVIDER_NAME: Record<string, string> = {
  aws: 'Amazon Web Services',
  azure: 'Microsoft Azure',
  gcp: 'Google Cloud Platform',
};

const CIS_NAME: Record<string, [string, string]> = {
  aws: ['CIS Amazon Web Services Foundations', '1.2.0'],
  azure: ['CIS Microsoft Azure Foundations', '1.3.0'],
  gcp: ['CIS Google Cloud Platform Foundations', '1.1.0'],
};

interface Rule {
  description: string;
  rationale: string;
  remediation: string;
  service: string;
  dashboard_name: string;
  level: string;
  path: string;
  checked_items: number;
  flagged_items: number;
  items: string[];
  compliance: { name: string; version: string; reference: string }[] | null;
}

interface Run {
  provider: string;
  account: string;
  services: Map<string, Map<string, Rule>>;
}

export function* scoutsuiteFiles(findings: readonly PlannedFinding[]): Generator<[string, string]> {
  const runs = new Map<string, Run>();
  for (const p of findings) {
    if (p.scanner !== 'scoutsuite' || !p.check || !p.item) continue;
    const provider = p.asset.provider.toLowerCase();
    const account = p.asset.account_id ?? 'tenant';
    const key = `${provider}-${account}`;
    let run = runs.get(key);
    if (!run) {
      run = { provider, account, services: new Map() };
      runs.set(key, run);
    }
    const service = p.item.split('.')[0] ?? 'unknown';
    let rules = run.services.get(service);
    if (!rules) {
      rules = new Map();
      run.services.set(service, rules);
    }
    let rule = rules.get(p.check.id);
    if (!rule) {
      const [cisName, cisVersion] = CIS_NAME[provider] ?? ['CIS', '1.0.0'];
      rule = {
        description: p.finding.title,
        rationale: p.finding.description,
        remediation: p.finding.remediation ?? '',
        service,
        dashboard_name: service,
        level: p.check.severity === 'HIGH' || p.check.severity === 'CRITICAL' ? 'danger' : 'warning',
        // The rule's path pattern: the item path with each id replaced by `id`.
        path: (p.check.path ?? '').replace(/\{[a-z]\}/g, 'id'),
        checked_items: 0,
        flagged_items: 0,
        items: [],
        compliance: p.check.controls.cis
          ? [{ name: cisName, version: cisVersion, reference: p.check.controls.cis }]
          : null,
      };
      rules.set(p.check.id, rule);
    }
    rule.items.push(p.item);
    rule.flagged_items += 1;
    rule.checked_items += 2;
  }
  for (const [key, run] of runs) {
    const services: Record<string, { findings: Record<string, Rule> }> = {};
    for (const [name, rules] of run.services) services[name] = { findings: Object.fromEntries(rules) };
    const results = {
      provider_code: run.provider,
      provider_name: PROVIDER_NAME[run.provider] ?? run.provider,
      account_id: run.account,
      environment: 'default',
      result_format: 'json',
      last_run: {
        time: '2026-01-15 12:00:00+0000',
        run_parameters: { services: [], skipped_services: [], regions: [], excluded_regions: [] },
        version: '5.14.0',
        ruleset_name: 'default',
        ruleset_about: 'This ruleset consists of numerous rules that are considered standard by NCC Group.',
      },
      services,
    };
    yield [`scoutsuite/scoutsuite_results_${key}.js`, `scoutsuite_results =\n${JSON.stringify(results)}\n`];
  }
}

import { isPlainObject } from '@cloudg/core';
import { malformedJson } from './errors.js';
import { type ControlRef, makeScannerFinding, type ScannerFinding } from './finding-factory.js';
import { canonicalFramework } from './frameworks.js';
import { tryParseJson } from './read-file.js';

/**
 * ScoutSuite's `scoutsuite_results_<run>.js` and its predecessor Scout2's
 * `inc-awsconfig/aws_config*.js` (`aws_info = {...}`, with `aws_account_id`): a JavaScript
 * assignment around one JSON object. Each service's rules list the dotted paths of the items
 * they flagged; every flagged item is one finding on the resource the path names, in the
 * account (or Azure subscription, or GCP project) and region the path names. Several paths
 * inside one resource (a security group's ingress and egress rules) are merged by
 * deduplication, which says so.
 */

type Rec = Record<string, unknown>;

/** Path segments that scope a resource (`regions.us-east-1`) rather than name its collection. */
const SCOPE_KEYS = new Set([
  'regions',
  'subscriptions',
  'projects',
  'vpcs',
  'resource_groups',
  'zones',
  'locations',
]);

// One step below the reference's table (danger CRITICAL, warning HIGH, caution MEDIUM), as the
// catalog had it before: ScoutSuite has no level above danger, and calling every danger rule
// CRITICAL would put routine ones (CloudTrail not configured in a region) at the top of every
// triage. The sample estate's generator writes both its HIGH and CRITICAL findings as danger.
const LEVEL_SEVERITY: Record<string, string> = {
  danger: 'HIGH',
  warning: 'MEDIUM',
  caution: 'LOW',
  good: 'INFO',
};

/** Strip the `scoutsuite_results =` (or Scout2's `aws_info =`) assignment and parse the object. */
export function parseScoutsuiteText(text: string, path: string): Rec {
  const start = text.indexOf('{');
  if (start < 0) throw malformedJson(path, 'ScoutSuite results');
  let body = text.slice(start).trim();
  if (body.endsWith(';')) body = body.slice(0, -1);
  const parsed = tryParseJson(body);
  if (!parsed.ok || !isPlainObject(parsed.value)) throw malformedJson(path, 'ScoutSuite results');
  return parsed.value;
}

/** The resource a flagged item path names: the id after the first non-scope collection key. */
export function scoutsuiteResourceId(itemPath: string): string {
  const parts = itemPath.split('.');
  for (let i = 1; i + 1 < parts.length; i += 2) {
    const key = parts[i] ?? '';
    if (!SCOPE_KEYS.has(key)) return parts[i + 1] ?? itemPath;
  }
  return parts[parts.length - 1] ?? itemPath;
}

function segmentAfter(itemPath: string, key: string): string | undefined {
  const parts = itemPath.split('.');
  const at = parts.indexOf(key);
  return at >= 0 ? parts[at + 1] : undefined;
}

function regionOf(itemPath: string): string | undefined {
  return segmentAfter(itemPath, 'regions') ?? segmentAfter(itemPath, 'locations');
}

/** The scope a path names itself: an Azure subscription or a GCP project. */
function accountOf(itemPath: string): string | undefined {
  return segmentAfter(itemPath, 'subscriptions') ?? segmentAfter(itemPath, 'projects');
}

/** Whether a parsed `.js` results object is ScoutSuite's or Scout2's (it has services). */
export function isScoutsuiteDocument(document: unknown): boolean {
  return isPlainObject(document) && isPlainObject(document.services);
}

export function parseScoutsuite(results: Rec): ScannerFinding[] {
  const provider = typeof results.provider_code === 'string' ? results.provider_code : null;
  const account = results.account_id ?? results.aws_account_id;
  const services = isPlainObject(results.services) ? results.services : {};
  const out: ScannerFinding[] = [];
  for (const service of Object.values(services)) {
    if (!isPlainObject(service) || !isPlainObject(service.findings)) continue;
    for (const [rule, raw] of Object.entries(service.findings)) {
      if (!isPlainObject(raw)) continue;
      const items = Array.isArray(raw.items)
        ? raw.items.filter((i): i is string => typeof i === 'string')
        : [];
      // A rule that flagged nothing lists no items; `flagged_items: 0` with items is a stale list.
      if (items.length === 0 || raw.flagged_items === 0) continue;
      const level = typeof raw.level === 'string' ? raw.level.toLowerCase() : 'warning';
      const controls: ControlRef[] = [];
      if (Array.isArray(raw.compliance)) {
        for (const c of raw.compliance) {
          if (!isPlainObject(c) || typeof c.name !== 'string') continue;
          controls.push({
            framework: canonicalFramework(c.name, provider),
            control_id: String(c.reference ?? c.version ?? ''),
          });
        }
      }
      for (const item of items) {
        out.push(
          makeScannerFinding({
            tool: 'scoutsuite',
            check_id: rule,
            title: raw.description,
            description: raw.rationale ?? raw.description,
            severity: LEVEL_SEVERITY[level] ?? level,
            resource_id: scoutsuiteResourceId(item),
            region: regionOf(item),
            account_id: accountOf(item) ?? account,
            source_finding_id: `${rule}:${item}`,
            remediation: raw.remediation,
            evidence: item,
            controls,
          }),
        );
      }
    }
  }
  return out;
}

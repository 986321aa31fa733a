/**
 * `annotate`: classification, provenance and a summary of what the other transforms did,
 * plus MCP content hints (section 11.6). Runs last so it can summarise the report.
 */
import type {
  ContentAnnotations,
  Sensitivity,
  Transform,
  TransformContext,
  TransformReport,
} from '../types.js';
import { isRecord, OptionReader } from '../util/options.js';
import { UNTRUSTED_NOTICE } from './sanitize.js';

export const ANNOTATE_OPTIONS = [
  'inline',
  'key',
  'classification',
  'provenance',
  'summary',
  'label_findings',
  'content_annotations',
  'profile',
  'notice',
] as const;

const WITHHELD = ['redacted', 'masked', 'hashed', 'dropped'] as const;
const SEVERITIES = new Set(['critical', 'high', 'medium', 'low', 'info', 'informational']);
const PRIORITY: Record<Sensitivity, number> = {
  public: 0.3,
  internal: 0.45,
  confidential: 0.6,
  restricted: 0.75,
};
const PSEUDONYM_NOTE =
  'Identifiers are pseudonyms; pass them back unchanged and tools resolve the real resources.';

export interface AnnotateBuildContext {
  /** The policy name, shown in provenance unless the `profile` option is set. */
  profile?: string;
}

function isoSeconds(d: Date): string {
  return `${d.toISOString().slice(0, 19)}+00:00`;
}

function sortedEntities(report: TransformReport, kinds: readonly string[]): string[] {
  const set = new Set<string>();
  for (const k of kinds) {
    const bucket = report[k];
    if (isRecord(bucket)) for (const e of Object.keys(bucket)) set.add(e);
  }
  return [...set].sort();
}

function findingSeverity(obj: Record<string, unknown>): string | null {
  const sev = obj.severity;
  if (typeof sev !== 'string') return null;
  const lower = sev.toLowerCase();
  if (!SEVERITIES.has(lower)) return null;
  return 'title' in obj || 'resource_id' in obj ? lower : null;
}

export class Annotator implements Transform {
  readonly name = 'annotate';
  private readonly inline: boolean;
  private readonly key: string;
  private readonly classification: boolean;
  private readonly provenance: boolean;
  private readonly summary: boolean;
  private readonly labelFindings: boolean;
  private readonly contentAnnotations: boolean;
  private readonly profile: string | null;
  private readonly notice: string | null;

  constructor(
    options: Record<string, unknown> = {},
    build: AnnotateBuildContext = {},
    readonly id = 'annotate',
  ) {
    const o: OptionReader = new OptionReader('annotate', options, ANNOTATE_OPTIONS);
    this.inline = o.bool('inline', false);
    this.key = o.str('key', '_annotations');
    this.classification = o.bool('classification', true);
    this.provenance = o.bool('provenance', true);
    this.summary = o.bool('summary', true);
    this.labelFindings = o.bool('label_findings', false);
    this.contentAnnotations = o.bool('content_annotations', true);
    this.profile = o.optStr('profile') ?? build.profile ?? null;
    this.notice = o.optStr('notice');
  }

  apply(value: unknown, ctx: TransformContext): unknown {
    const findings: Record<string, number> = {};
    const out = this.scanFindings(value, findings);
    const report = ctx.report;
    const sensitivity: Sensitivity = ctx.sensitivity ?? 'confidential';
    const annotations: Record<string, unknown> = {};

    if (this.classification) {
      const c: Record<string, unknown> = { sensitivity };
      const withheld = sortedEntities(report, WITHHELD);
      const pseudonymized = sortedEntities(report, ['pseudonymized']);
      if (withheld.length) c.withheld_entities = withheld;
      if (pseudonymized.length) {
        c.pseudonymized_entities = pseudonymized;
        c.note = PSEUDONYM_NOTE;
      }
      annotations.classification = c;
    }
    if (this.provenance) {
      const p: Record<string, unknown> = {};
      if (ctx.kind) p.kind = ctx.kind;
      if (ctx.name) p.name = ctx.name;
      p.generated_at = isoSeconds(ctx.now ? ctx.now() : new Date());
      const policy = this.profile ?? ctx.policy;
      if (policy) p.policy = policy;
      if (ctx.category) p.category = ctx.category;
      if (isRecord(out)) {
        const ds = out.dataset ?? out.dataset_id ?? out.source;
        if (typeof ds === 'string') p.dataset = ds;
      }
      if (ctx.principal?.roles) p.principal_roles = [...ctx.principal.roles];
      annotations.provenance = p;
    }
    if (this.summary) {
      const totals: Record<string, number> = {};
      for (const kind of [
        'redacted',
        'masked',
        'hashed',
        'pseudonymized',
        'generalized',
        'dropped',
        'redacted_arguments',
      ]) {
        const bucket = report[kind];
        if (isRecord(bucket)) {
          const n = Object.values(bucket).reduce((a: number, b) => a + (typeof b === 'number' ? b : 0), 0);
          if (n) totals[kind] = n;
        }
      }
      for (const kind of ['aliased', 'regex_replaced', 'keys_renamed', 'templated']) {
        const n = report[kind];
        if (typeof n === 'number' && n) totals[kind] = n;
      }
      if (Object.keys(totals).length) annotations.transformed = totals;
      if ((report.untrusted?.suspicious ?? 0) > 0) annotations.untrusted_content = UNTRUSTED_NOTICE;
    }
    if (Object.keys(findings).length) annotations.findings_by_severity = findings;
    if (this.notice) annotations.notice = this.notice;

    report.annotations = annotations;
    if (this.contentAnnotations) {
      const hot = (findings.critical ?? 0) + (findings.high ?? 0) > 0;
      const hints: ContentAnnotations = {
        audience: sensitivity === 'restricted' ? ['user'] : ['user', 'assistant'],
        priority: hot ? 0.9 : PRIORITY[sensitivity],
      };
      report.content_annotations = hints;
    }
    if (this.inline && isRecord(out)) return { ...out, [this.key]: annotations };
    return out;
  }

  /** Counts findings by severity and, with `label_findings`, adds `_risk` labels (copy-on-write). */
  private scanFindings(v: unknown, counts: Record<string, number>): unknown {
    if (typeof v !== 'object' || v === null) return v;
    if (Array.isArray(v)) {
      let out: unknown[] | null = null;
      for (let i = 0; i < v.length; i++) {
        const r = this.scanFindings(v[i], counts);
        if (r !== v[i] && out === null) out = v.slice(0, i);
        if (out !== null) out.push(r);
      }
      return out ?? v;
    }
    const obj = v as Record<string, unknown>;
    let out: Record<string, unknown> | null = null;
    for (const k of Object.keys(obj)) {
      const item = obj[k];
      if (typeof item !== 'object' || item === null) continue;
      const r = this.scanFindings(item, counts);
      if (r !== item) {
        out ??= { ...obj };
        out[k] = r;
      }
    }
    const sev = 'severity' in obj ? findingSeverity(obj) : null;
    if (sev !== null) {
      counts[sev] = (counts[sev] ?? 0) + 1;
      if (this.labelFindings) {
        const score = obj.risk_score;
        const label = `${sev.toUpperCase()} risk${typeof score === 'number' ? ` (${score})` : ''}`;
        out ??= { ...obj };
        out._risk = label;
      }
    }
    return out ?? obj;
  }
}

/**
 * THE IDENTIFIER RULE of issue 10, in one place. The product implements the same rule; if one of
 * them changes, the other must change with it.
 *
 *   Real identifiers of a dataset = every asset's id, name, ARN and account id; every string tag
 *   value; the organization's account ids and management account id; the dataset's name; plus
 *   everything planted. Excluded: the catalog's vocabulary words (provider names, asset types,
 *   regions, severities, statuses), strings shorter than 3 characters, purely numeric strings of
 *   fewer than 6 digits, and `true`/`false`.
 *
 *   A string a client reads LEAKS an identifier when (a) the whole string (or object key) equals
 *   it, or (b) it contains it bounded by characters outside [A-Za-z0-9_-] on both sides, AND the
 *   identifier is distinctive: at least 4 characters and containing a character other than a
 *   letter (digit, '-', '_', '.', ':', '/', '@'), or letters only and at least 8 characters long.
 *   (So ordinary words such as `default`, `web` or `prod` inside free text are not counted as
 *   leaks, but `prod` as a whole value is.) Matching is case-sensitive.
 */
import {
  ASSET_TYPES,
  COMPLIANCE_STATUSES,
  type Dataset,
  PROVIDERS,
  SERVICE_STATUSES,
  SEVERITIES,
} from '@cloudg/catalog';

/** The catalog's vocabulary: words that name kinds of things, never a tenant's things. */
function vocabulary(datasets: readonly Dataset[]): Set<string> {
  const words = new Set<string>(['true', 'false', 'NONE', 'ACTIVE', 'SUSPENDED']);
  for (const p of PROVIDERS) {
    words.add(p);
    words.add(p.toLowerCase());
  }
  for (const t of ASSET_TYPES) words.add(t);
  for (const s of SEVERITIES) words.add(s);
  for (const s of COMPLIANCE_STATUSES) words.add(s);
  for (const s of SERVICE_STATUSES) words.add(s);
  for (const d of datasets) {
    for (const a of d.assets) {
      words.add(a.asset_type);
      words.add(a.region);
    }
    for (const regions of Object.values(d.regions)) for (const r of regions) words.add(r);
    for (const p of d.providers) words.add(p);
  }
  return words;
}

function excluded(value: string, vocab: ReadonlySet<string>): boolean {
  if (value.length < 3) return true;
  if (/^\d+$/.test(value) && value.length < 6) return true;
  return vocab.has(value);
}

/** The real identifiers of these datasets plus the planted ones, minus the exclusions. */
export function realIdentifiers(datasets: readonly Dataset[], planted: readonly string[]): Set<string> {
  const vocab = vocabulary(datasets);
  const out = new Set<string>();
  const add = (value: unknown) => {
    if (typeof value === 'string' && !excluded(value, vocab)) out.add(value);
  };
  for (const d of datasets) {
    add(d.name);
    for (const a of d.assets) {
      add(a.id);
      add(a.name);
      add(a.arn);
      add(a.account_id);
      for (const v of Object.values(a.tags)) add(v);
    }
    const org = d.organization;
    if (org) {
      add(org.management_account_id);
      for (const id of Object.keys(org.accounts ?? {})) add(id);
    }
  }
  for (const p of planted) add(p);
  return out;
}

/** At least 4 characters with a non-letter, or letters only and at least 8 long. */
export function isDistinctive(id: string): boolean {
  if (/[^A-Za-z]/.test(id)) return id.length >= 4;
  return id.length >= 8;
}

const WORD_CHAR = /[A-Za-z0-9_-]/;

/** Whether `text` contains `id` with a non-word character (or the string's edge) on both sides. */
function containsBounded(text: string, id: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(id, from);
    if (at < 0) return false;
    const before = at === 0 ? '' : text[at - 1]!;
    const after = at + id.length >= text.length ? '' : text[at + id.length]!;
    if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return true;
    from = at + 1;
  }
}

export interface IdentifierHit {
  id: string;
  how: 'whole' | 'inside';
}

/** The identifiers one string a client reads leaks, by the rule above. */
/**
 * Resource-type words of AWS ARNs (`…:log-group:…`, `…:instance/…`): facts of the ARN format that
 * a format-preserving ARN pseudonym keeps, like the service (`arn:aws:guardduty:…`).
 */
const ARN_RESOURCE_TYPES = new Set([
  'instance',
  'volume',
  'snapshot',
  'image',
  'vpc',
  'subnet',
  'security-group',
  'network-interface',
  'internet-gateway',
  'natgateway',
  'route-table',
  'vpc-peering-connection',
  'loadbalancer',
  'targetgroup',
  'listener',
  'log-group',
  'role',
  'user',
  'group',
  'policy',
  'instance-profile',
  'function',
  'layer',
  'db',
  'cluster',
  'table',
  'key',
  'alias',
  'secret',
  'detector',
  'hub',
  'trail',
  'repository',
  'restapis',
  'stage',
  'regional',
  'global',
  'webacl',
  'account',
  'organization',
  'ou',
  'root',
  'task',
  'task-definition',
  'service',
  'container-instance',
  'stream',
  'queue',
  'topic',
  'parameter',
  'certificate',
  'distribution',
]);

/**
 * The text with the two kept parts of every ARN masked: the service always, the resource type
 * when it is one of the format's words. An asset whose id equals one of them (the sample estate's
 * `guardduty`, `log-group`) does not leak through them; a bucket or topic name in the same place
 * (`arn:aws:s3:::prod-data/logs`) is still searched.
 */
function maskArnWords(text: string): string {
  return text
    .replace(
      /\barn:(aws[a-z-]*):([a-z0-9-]+):([a-z0-9-]*):([^:\s"]*):([a-z0-9-]+)(?=[:/])/g,
      (_m, partition: string, _service: string, region: string, account: string, type: string) =>
        `arn:${partition}:\u2026:${region}:${account}:${ARN_RESOURCE_TYPES.has(type) ? '\u2026' : type}`,
    )
    .replace(/\barn:(aws[a-z-]*):([a-z0-9-]+):/g, (_m, partition: string) => `arn:${partition}:\u2026:`);
}

export class IdentifierMatcher {
  private readonly ids: ReadonlySet<string>;
  private readonly distinctive: string[];

  constructor(ids: ReadonlySet<string>) {
    this.ids = ids;
    this.distinctive = [...ids].filter(isDistinctive).sort((a, b) => b.length - a.length);
  }

  get size(): number {
    return this.ids.size;
  }

  leaks(text: string): IdentifierHit[] {
    if (this.ids.has(text)) return [{ id: text, how: 'whole' }];
    const hits: IdentifierHit[] = [];
    const searched = text.includes('arn:') ? maskArnWords(text) : text;
    for (const id of this.distinctive) {
      if (id.length < text.length && searched.includes(id) && containsBounded(searched, id)) {
        hits.push({ id, how: 'inside' });
      }
    }
    return hits;
  }
}

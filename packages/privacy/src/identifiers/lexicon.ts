/**
 * Identifiers an application knows by value: the names, ids, ARNs and account ids of the assets
 * it serves, its tag values, its dataset names. A detector finds an identifier by its shape; a
 * lexicon finds one because the application says it is one, which is what lets a policy
 * pseudonymise `bastion` or `prod` wherever they stand, whatever key holds them.
 *
 * The rule (also stated in the package README):
 * - a string (or object key) that is exactly a known identifier is one, wherever it stands;
 * - inside longer text, a known identifier is found when it stands between characters outside
 *   `[A-Za-z0-9_-]` (or the ends of the text) and it is distinctive: at least 4 characters with
 *   one that is not a letter (a digit or one of `-_.:/@`), or letters only and at least 8 long.
 *   Short plain words (`default`, `web`, `prod`) are left alone in prose, where they are far
 *   more likely to be ordinary words than references.
 *
 * Lookups are linear in the text: the text is cut into word runs once, and only identifiers
 * whose first word equals a run are tried there, over a bounded number of following runs.
 */

/** One identifier found inside a text. */
export interface IdentifierMention {
  start: number;
  end: number;
  /** The identifier's entity (`resource_name`, `aws_account_id`, `tag_value`, …). */
  entity: string;
}

/** A place in a text where one of a finder's values stands. */
export interface FoundValue {
  start: number;
  end: number;
  value: string;
}

/**
 * What a redactor asks of the identifiers an application knows. `IdentifierLexicon` implements
 * it; any object with the same three methods works.
 */
export interface KnownIdentifiers {
  /** The entity of a value that is exactly a known identifier. */
  entityOf(value: string): string | undefined;
  /** The distinctive known identifiers inside `text`, in order and without overlaps. */
  mentionsIn(text: string): readonly IdentifierMention[];
  /** The entities the identifiers are listed under. */
  entities(): ReadonlySet<string>;
}

/** Fewer characters than this and a value is never treated as an identifier. */
const MIN_LENGTH = 3;
/** Longer identifiers are matched as whole values only. */
const MAX_MENTION_LENGTH = 512;

const NONE: readonly IdentifierMention[] = Object.freeze([]);

function isWordChar(code: number): boolean {
  return (
    (code >= 97 && code <= 122) || // a-z
    (code >= 65 && code <= 90) || // A-Z
    (code >= 48 && code <= 57) || // 0-9
    code === 95 || // _
    code === 45 // -
  );
}

function isLetter(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90);
}

/** Whether a known identifier is distinctive enough to be looked for inside longer text. */
export function isDistinctiveIdentifier(value: string): boolean {
  if (value.length > MAX_MENTION_LENGTH) return false;
  let lettersOnly = true;
  for (let i = 0; i < value.length; i++) {
    if (!isLetter(value.charCodeAt(i))) {
      lettersOnly = false;
      break;
    }
  }
  return lettersOnly ? value.length >= 8 : value.length >= 4;
}

/** Whether a value can be an identifier at all: long enough, and not a bare small number or boolean. */
export function isIdentifierCandidate(value: string): boolean {
  if (value.length < MIN_LENGTH) return false;
  if (value === 'true' || value === 'false' || value === 'null') return false;
  if (/^\d{1,5}$/.test(value)) return false;
  return value.trim() === value && value.length > 0;
}

/** Where a distinctive identifier can start relative to its first word run, and how long it is. */
interface Shape {
  /** Non-word characters before the first word run (the `/` of `/aws/lambda/x`). */
  prefix: number;
  length: number;
}

/** Distinct shapes tried per first word; identifiers past this are matched as whole values only. */
const MAX_SHAPES_PER_WORD = 32;

function firstWordRun(value: string): [number, number] | null {
  let i = 0;
  while (i < value.length && !isWordChar(value.charCodeAt(i))) i++;
  if (i >= value.length) return null;
  const start = i;
  while (i < value.length && isWordChar(value.charCodeAt(i))) i++;
  return [start, i];
}

/**
 * Finds the distinctive ones among a set of values inside texts (the mention half of the rule
 * above). Building is linear in the values; each search is linear in the text.
 */
export class MentionFinder {
  private readonly byFirstWord = new Map<string, Shape[]>();
  private readonly values = new Set<string>();
  /** Rolling hashes of the values (mixed with their length), to reject candidates in O(1). */
  private readonly hashes = new Set<number>();

  constructor(values: Iterable<string>) {
    const seen = new Set<string>();
    for (const value of values) {
      if (!isDistinctiveIdentifier(value)) continue;
      const run = firstWordRun(value);
      if (run === null) continue;
      this.values.add(value);
      this.hashes.add(mix(hashOf(value), value.length));
      const first = value.slice(run[0], run[1]);
      const key = `${first}\u0000${run[0]}\u0000${value.length}`;
      if (seen.has(key)) continue;
      seen.add(key);
      let shapes = this.byFirstWord.get(first);
      if (!shapes) {
        shapes = [];
        this.byFirstWord.set(first, shapes);
      }
      shapes.push({ prefix: run[0], length: value.length });
    }
    // Longest first, so the longest value starting at a place wins; past the cap the longest
    // are kept (a short one is the likelier to stand alone, where whole-value matching finds it).
    for (const [word, shapes] of this.byFirstWord) {
      shapes.sort((a, b) => b.length - a.length);
      if (shapes.length > MAX_SHAPES_PER_WORD)
        this.byFirstWord.set(word, shapes.slice(0, MAX_SHAPES_PER_WORD));
    }
  }

  get isEmpty(): boolean {
    return this.values.size === 0;
  }

  /**
   * The values found in `text`, in order and without overlaps. Each word run costs one map
   * lookup, and each candidate shape after it a constant-time hash comparison (the text's prefix
   * hashes are computed once, on the first candidate), so the search is linear in the text
   * whatever the values; only a hash hit is confirmed by comparing the characters.
   */
  find(text: string): FoundValue[] {
    const out: FoundValue[] = [];
    if (text.length < 4 || this.values.size === 0) return out;
    let prefix: Uint32Array | null = null;
    let covered = 0;
    let i = 0;
    const len = text.length;
    while (i < len) {
      while (i < len && !isWordChar(text.charCodeAt(i))) i++;
      if (i >= len) break;
      const start = i;
      while (i < len && isWordChar(text.charCodeAt(i))) i++;
      const shapes = this.byFirstWord.get(text.slice(start, i));
      if (shapes === undefined) continue;
      for (const shape of shapes) {
        const from = start - shape.prefix;
        const to = from + shape.length;
        if (from < covered || to > len) continue;
        if (from > 0 && isWordChar(text.charCodeAt(from - 1))) continue;
        if (to < len && isWordChar(text.charCodeAt(to))) continue;
        prefix ??= prefixHashes(text);
        if (!this.hashes.has(mix(rangeHash(prefix, from, to), shape.length))) continue;
        const value = text.slice(from, to);
        if (!this.values.has(value)) continue;
        out.push({ start: from, end: to, value });
        covered = to;
        if (to > i) i = to;
        break;
      }
    }
    return out;
  }
}

// ---- rolling hashes ------------------------------------------------------------------------

/** An odd multiplier chosen per process, so planted values cannot be built to collide. */
const BASE = (Math.floor(Math.random() * 0x3fffffff) * 2 + 0x10001) >>> 0;
/** BASE^k mod 2^32 for every length a mention can have. */
const POWERS = (() => {
  const p = new Uint32Array(MAX_MENTION_LENGTH + 1);
  p[0] = 1;
  for (let k = 1; k <= MAX_MENTION_LENGTH; k++) p[k] = Math.imul(p[k - 1]!, BASE) >>> 0;
  return p;
})();

function hashOf(value: string): number {
  let h = 0;
  for (let i = 0; i < value.length; i++) h = (Math.imul(h, BASE) + value.charCodeAt(i)) >>> 0;
  return h;
}

function prefixHashes(text: string): Uint32Array {
  const h = new Uint32Array(text.length + 1);
  for (let i = 0; i < text.length; i++) h[i + 1] = (Math.imul(h[i]!, BASE) + text.charCodeAt(i)) >>> 0;
  return h;
}

/** The hash of `text.slice(from, to)` from its prefix hashes (to - from <= MAX_MENTION_LENGTH). */
function rangeHash(prefix: Uint32Array, from: number, to: number): number {
  return (prefix[to]! - Math.imul(prefix[from]!, POWERS[to - from]!)) >>> 0;
}

function mix(hash: number, length: number): number {
  return (hash ^ Math.imul(length, 0x9e3779b1)) >>> 0;
}

/**
 * A fixed set of known identifiers with their entities. Build one per revision of the data it
 * describes (building is linear in the identifiers); lookups never change it.
 */
export class IdentifierLexicon implements KnownIdentifiers {
  private readonly exact = new Map<string, string>();
  private readonly kinds = new Set<string>();
  private finder: MentionFinder | null = null;

  /**
   * `entries` are `[value, entity]` pairs. When a value is listed under several entities, the
   * first listing wins, so callers list their most specific entities first.
   */
  constructor(entries: Iterable<readonly [string, string]>) {
    for (const [value, entity] of entries) {
      if (typeof value !== 'string' || !isIdentifierCandidate(value)) continue;
      if (this.exact.has(value)) continue;
      this.exact.set(value, entity);
      this.kinds.add(entity);
    }
  }

  get size(): number {
    return this.exact.size;
  }

  /** Every identifier with its entity. */
  entries(): IterableIterator<[string, string]> {
    return this.exact.entries();
  }

  entities(): ReadonlySet<string> {
    return this.kinds;
  }

  entityOf(value: string): string | undefined {
    return this.exact.get(value);
  }

  mentionsIn(text: string): readonly IdentifierMention[] {
    if (text.length < 4 || this.exact.size === 0) return NONE;
    // Built on first use: a policy that keeps identifiers never pays for it.
    this.finder ??= new MentionFinder(this.exact.keys());
    const found = this.finder.find(text);
    if (found.length === 0) return NONE;
    return found.map((f) => ({ start: f.start, end: f.end, entity: this.exact.get(f.value)! }));
  }
}

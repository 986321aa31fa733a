/**
 * The shared hint prefilter: one pass over a string finds which detectors' hints it contains.
 *
 * With a few hundred detectors, testing each detector's hints on its own (one regex per
 * detector, or one big alternation per string and then one per detector) costs more than the
 * scans it saves. This is an Aho–Corasick automaton over every hint of every detector: a
 * string is read once, character by character, whatever the number of hints, and each state
 * knows which detectors its hints belong to.
 *
 * Hints are lower case and matched without regard to ASCII case (`AKIA` finds `akia`). The
 * automaton reads ASCII only: a character outside it cannot be part of an ASCII hint, so it
 * sends the automaton back to its start. A hint with non-ASCII characters (a custom
 * detector's) is tested separately, with a case-insensitive regex.
 */

/** The immutable part: transitions and outputs, shared by every set built from the same hints. */
interface Automaton {
  /** ASCII code → character class (0: no hint contains it). */
  readonly classes: Uint8Array;
  readonly width: number;
  /**
   * `state * width + class` → the next state, times `width` (premultiplied, so that the scan
   * loop adds a class to it without a multiplication), bitwise negated (`~`) when some hint
   * ends in that state, so that one load tells both.
   */
  readonly next: Int32Array;
  /** Per state: the groups whose hints end here (`outStart[s]` to `outStart[s + 1]` in `outList`). */
  readonly outStart: Int32Array;
  readonly outList: Int32Array;
}

const automata = new Map<string, Automaton>();
const MAX_CACHED = 64;

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

/** Lower-cases ASCII letters only, as the automaton does. */
function asciiLower(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out += c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : s[i];
  }
  return out;
}

function build(groups: readonly (readonly string[])[]): Automaton {
  // Character classes: one per distinct (lower-cased) character in any hint.
  const classes = new Uint8Array(128);
  let width = 1;
  for (const hints of groups) {
    for (const h of hints) {
      for (let i = 0; i < h.length; i++) {
        const c = h.charCodeAt(i);
        if (classes[c] === 0) {
          classes[c] = width++;
          if (c >= 97 && c <= 122) classes[c - 32] = classes[c]!;
        }
      }
    }
  }
  // The trie.
  const trie: number[][] = [new Array(width).fill(-1)];
  const outs: Array<Set<number>> = [new Set()];
  groups.forEach((hints, g) => {
    for (const h of hints) {
      let s = 0;
      for (let i = 0; i < h.length; i++) {
        const k = classes[h.charCodeAt(i)]!;
        if (trie[s]![k] === -1) {
          trie[s]![k] = trie.length;
          trie.push(new Array(width).fill(-1));
          outs.push(new Set());
        }
        s = trie[s]![k]!;
      }
      outs[s]!.add(g);
    }
  });
  // Failure links, breadth first, folded into a complete transition table.
  const fail = new Array<number>(trie.length).fill(0);
  const queue: number[] = [];
  for (let k = 0; k < width; k++) {
    const t = trie[0]![k]!;
    if (t === -1) trie[0]![k] = 0;
    else queue.push(t);
  }
  for (let q = 0; q < queue.length; q++) {
    const s = queue[q]!;
    for (const g of outs[fail[s]!]!) outs[s]!.add(g);
    for (let k = 0; k < width; k++) {
      const t = trie[s]![k]!;
      if (t === -1) {
        trie[s]![k] = trie[fail[s]!]![k]!;
      } else {
        fail[t] = trie[fail[s]!]![k]!;
        queue.push(t);
      }
    }
  }
  const next = new Int32Array(trie.length * width);
  trie.forEach((row, s) => {
    for (let k = 0; k < width; k++) {
      const t = row[k]!;
      next[s * width + k] = outs[t]!.size > 0 ? ~(t * width) : t * width;
    }
  });
  const outStart = new Int32Array(trie.length + 1);
  const list: number[] = [];
  outs.forEach((set, s) => {
    outStart[s] = list.length;
    list.push(...[...set].sort((a, b) => a - b));
  });
  outStart[trie.length] = list.length;
  return { classes, width, next, outStart, outList: Int32Array.from(list) };
}

/**
 * Which of a fixed list of hint groups (one per detector) occur in a string. `mark(text)`
 * reads the string once; `has(group)` then answers for the text last marked.
 */
export class HintIndex {
  private readonly auto: Automaton;
  private readonly classes: Uint8Array;
  private readonly next: Int32Array;
  /** Per state and per group: the mark generation in which it was last seen. */
  private readonly stateSeen: Uint32Array;
  private readonly groupSeen: Uint32Array;
  private gen = 0;
  /** Groups with non-ASCII hints: tested with a regex after the pass. */
  private readonly extra: Array<[number, RegExp]> = [];
  /** The text of the last `mark`, so that a second call for the same string does nothing. */
  private marked: string | null = null;
  private found = 0;
  /** The groups found by the last mark, in the order found (`listed` of them). */
  private list = new Int32Array(16);
  private listed = 0;

  constructor(groups: readonly (readonly string[])[]) {
    const ascii = groups.map((hints) => hints.filter(isAscii).map(asciiLower));
    groups.forEach((hints, g) => {
      const other = hints.filter((h) => !isAscii(h));
      if (other.length) this.extra.push([g, new RegExp(other.map(escapeRegex).join('|'), 'i')]);
    });
    const key = JSON.stringify(ascii);
    let auto = automata.get(key);
    if (!auto) {
      auto = build(ascii);
      if (automata.size >= MAX_CACHED) automata.clear();
      automata.set(key, auto);
    }
    this.auto = auto;
    this.classes = auto.classes;
    this.next = auto.next;
    this.stateSeen = new Uint32Array(auto.outStart.length - 1);
    this.groupSeen = new Uint32Array(groups.length);
  }

  /** Reads `text` once and records which groups' hints occur in it; returns how many do. */
  mark(text: string): number {
    if (text === this.marked) return this.found;
    if (this.gen === 0xffffffff) {
      this.stateSeen.fill(0);
      this.groupSeen.fill(0);
      this.gen = 0;
    }
    const gen = ++this.gen;
    this.listed = 0;
    const classes = this.classes;
    const next = this.next;
    let found = 0;
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      s = next[s + (c < 128 ? classes[c]! : 0)]!;
      if (s < 0) {
        s = ~s;
        found += this.output(s, gen);
      }
    }
    if (this.extra.length > 0) found += this.markExtra(text, gen);
    this.marked = text;
    this.found = found;
    return found;
  }

  /** Tests the groups with non-ASCII hints; returns how many were found. */
  private markExtra(text: string, gen: number): number {
    let found = 0;
    const groupSeen = this.groupSeen;
    for (const [g, re] of this.extra) {
      if (groupSeen[g] !== gen && re.test(text)) {
        groupSeen[g] = gen;
        this.remember(g);
        found++;
      }
    }
    return found;
  }

  /** Records the groups of the (premultiplied) state `s`, once per mark; returns how many were new. */
  private output(s: number, gen: number): number {
    const state = s / this.auto.width;
    if (this.stateSeen[state] === gen) return 0;
    this.stateSeen[state] = gen;
    const { outStart, outList } = this.auto;
    let added = 0;
    for (let j = outStart[state]!; j < outStart[state + 1]!; j++) {
      const g = outList[j]!;
      if (this.groupSeen[g] !== gen) {
        this.groupSeen[g] = gen;
        this.remember(g);
        added++;
      }
    }
    return added;
  }

  /**
   * The groups whose hints occur in the text last marked, in ascending order: the first
   * `count()` entries of the array returned, which is reused by the next mark.
   */
  groups(): Int32Array {
    if (this.listed > 1) this.list.subarray(0, this.listed).sort();
    return this.list;
  }

  /** How many groups the last mark found. */
  count(): number {
    return this.listed;
  }

  private remember(g: number): void {
    if (this.listed === this.list.length) {
      const bigger = new Int32Array(this.list.length * 2);
      bigger.set(this.list);
      this.list = bigger;
    }
    this.list[this.listed++] = g;
  }

  /** Whether a hint of `group` occurs in the text last marked. */
  has(group: number): boolean {
    return this.groupSeen[group] === this.gen;
  }
}

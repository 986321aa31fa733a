/** The checks of the leak test over one run, each returning readable lines (empty = clean). */
import { IDENTIFYING_KINDS } from './arguments.js';
import { INJECTION_MARKER, PLANTED_IDENTIFIERS, SECRETS } from './estate.js';
import type { Op, PrimitiveKind, Run } from './harness.js';
import { IdentifierMatcher, realIdentifiers } from './identifiers.js';

/** The fence markers of packages/privacy/src/transforms/sanitize.ts (FENCE_OPEN, FENCE_CLOSE). */
export const FENCE_OPEN = '⟦untrusted⟧';
export const FENCE_CLOSE = '⟦/untrusted⟧';

function show(text: string, around?: string): string {
  let shown = text;
  if (around && text.length > 140) {
    const at = Math.max(0, text.indexOf(around) - 50);
    shown = `${at > 0 ? '…' : ''}${text.slice(at, at + 140)}…`;
  } else if (text.length > 140) shown = `${text.slice(0, 140)}…`;
  return JSON.stringify(shown);
}

/** `<request> :: <path> contains <secret name>` for every planted secret a client read. */
export function secretLeaks(run: Run): string[] {
  const out: string[] = [];
  for (const s of run.capture.seen) {
    for (const [name, secret] of Object.entries(SECRETS)) {
      if (s.text.includes(secret))
        out.push(`${s.where} :: ${s.path} contains secret ${name}: ${show(s.text, secret)}`);
    }
  }
  return out;
}

export interface IdentifierLeak {
  where: string;
  path: string;
  id: string;
  how: 'whole' | 'inside';
  text: string;
}

/** Every real identifier a client read in clear, by THE IDENTIFIER RULE (identifiers.ts). */
export function identifierLeaks(run: Run): IdentifierLeak[] {
  const ids = realIdentifiers(run.datasets, [...PLANTED_IDENTIFIERS, ...run.createdNames]);
  // An alias is the display name the operator chose to show for a value (soc-analyst shows account
  // 222222222222 as `shared-services`, which the sample estate also uses as that account's name):
  // showing it is the policy working as configured, not a leak.
  for (const alias of run.aliases) ids.delete(alias);
  const matcher = new IdentifierMatcher(ids);
  const cache = new Map<string, ReturnType<IdentifierMatcher['leaks']>>();
  const out: IdentifierLeak[] = [];
  for (const s of run.capture.seen) {
    let hits = cache.get(s.text);
    if (!hits) {
      hits = matcher.leaks(s.text);
      cache.set(s.text, hits);
    }
    for (const hit of hits)
      out.push({ where: s.where, path: s.path, id: hit.id, how: hit.how, text: s.text });
  }
  return out;
}

export function formatIdentifierLeak(l: IdentifierLeak): string {
  return `${l.where} :: ${l.path} ${l.how === 'whole' ? 'is' : 'contains'} ${JSON.stringify(l.id)}${
    l.how === 'inside' ? `: ${show(l.text, l.id)}` : ''
  }`;
}

/** Every place the planted injection appears outside ⟦untrusted⟧ … ⟦/untrusted⟧. */
export function unfencedInjections(run: Run): string[] {
  const out: string[] = [];
  for (const s of run.capture.seen) {
    let from = 0;
    for (;;) {
      const at = s.text.indexOf(INJECTION_MARKER, from);
      if (at < 0) break;
      const open = s.text.lastIndexOf(FENCE_OPEN, at);
      const closedBefore = s.text.lastIndexOf(FENCE_CLOSE, at);
      const close = s.text.indexOf(FENCE_CLOSE, at);
      if (open < 0 || closedBefore > open || close < 0) {
        out.push(
          `${s.where} :: ${s.path} has the injection outside a fence: ${show(s.text, INJECTION_MARKER)}`,
        );
        break;
      }
      from = at + 1;
    }
  }
  return out;
}

/** A visible primitive that answered no valid call without an error. */
export function unanswered(run: Run): { key: string; errors: string[] }[] {
  const out: { key: string; errors: string[] }[] = [];
  const kinds: [PrimitiveKind, string[]][] = [
    ['tool', run.visible.tool],
    ['resource', run.visible.resource],
    ['template', run.visible.template],
    ['prompt', run.visible.prompt],
  ];
  for (const [kind, names] of kinds) {
    for (const name of names) {
      const mine = run.ops.filter((o) => o.kind === kind && o.name === name && !o.invalid);
      if (mine.some((o) => o.ok)) continue;
      const errors = [...new Set(mine.map((o) => o.error ?? '(no call made)'))].slice(0, 3);
      out.push({ key: `${kind}:${name}`, errors: mine.length ? errors : ['(no call made)'] });
    }
  }
  return out;
}

/** Successful primitives, as `kind:name`. */
export function answered(run: Run): Set<string> {
  return new Set(run.ops.filter((o) => o.ok && !o.invalid).map((o) => `${o.kind}:${o.name}`));
}

/**
 * Calls that worked with a real value but failed with the pseudonym the layer handed out for it
 * (same primitive, same slot): the pseudonym was not resolved on the way in.
 */
export function unresolvedPseudonyms(run: Run): string[] {
  const key = (o: Op) => `${o.kind}:${o.name}|${o.slot}`;
  const realOk = new Map<string, Op>();
  for (const o of run.ops) if (o.phase === 'real' && o.ok && !o.invalid) realOk.set(key(o), o);
  const out: string[] = [];
  for (const o of run.ops) {
    if (o.phase !== 'pseudo' || o.ok || o.invalid || o.kind === 'completion') continue;
    const twin = realOk.get(key(o));
    if (!twin) continue;
    // The slot varies an identifying argument, or the base call already carries a pseudonym.
    const identifying = o.argKind ? IDENTIFYING_KINDS.has(o.argKind) : o.args !== twin.args;
    if (identifying) out.push(`${o.where} failed (${o.error ?? 'error'}) where ${twin.where} worked`);
  }
  return out;
}

/** Leaks grouped by request name and path pattern, for a developer's summary. */
export function groupLeaks(leaks: IdentifierLeak[]): string[] {
  const groups = new Map<string, { count: number; ids: Set<string>; example: string }>();
  for (const l of leaks) {
    const request = l.where.split(' #')[0]!;
    const phase = l.where.includes('(pseudonyms)') ? ' [pseudonym args]' : '';
    const path = l.path.replace(/\[\d+\]/g, '[*]');
    const k = `${request}${phase} :: ${path} (${l.how})`;
    const g = groups.get(k) ?? { count: 0, ids: new Set<string>(), example: l.where };
    g.count++;
    g.ids.add(l.id);
    groups.set(k, g);
  }
  return [...groups.entries()]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(
      ([k, g]) =>
        `${k}: ${g.count}× e.g. ${[...g.ids]
          .slice(0, 4)
          .map((i) => JSON.stringify(i))
          .join(', ')}`,
    );
}

/**
 * Issue 10: the generic leak test. Under standard, strict and soc-analyst's analyst, every tool,
 * resource, template, prompt and completion the layer lists is exercised over a copy of the sample
 * estate planted with secrets, realistic identifiers and a prompt injection, and everything a
 * client reads is searched, files a tool writes for the caller included:
 *
 * - no planted secret, anywhere, under any of the three;
 * - no real identifier (THE IDENTIFIER RULE, identifiers.ts) under strict and the analyst;
 * - the injection only ever between the fence markers;
 * - every visible primitive answers at least once (exemptions below, each with its reason), and
 *   every restricted one is exercised under standard;
 * - a pseudonym passed back works wherever the real value worked.
 *
 * On failure the full list is printed, grouped by request and path, and written as JSON to the
 * file named in the output.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answered,
  formatIdentifierLeak,
  groupLeaks,
  type IdentifierLeak,
  identifierLeaks,
  secretLeaks,
  unanswered,
  unfencedInjections,
  unresolvedPseudonyms,
} from './analyse.js';
import {
  AWS_ACCOUNT,
  AZURE_SUBSCRIPTION,
  EMAIL,
  GCP_PROJECT,
  MAIN_DATASET,
  ORG_MANAGEMENT_ACCOUNT,
  PLAIN_TEXT,
  PLANTED_ASSETS,
  PRIVATE_IP,
  PUBLIC_IP,
  SECRETS,
  TEAM_TAG,
} from './estate.js';
import { ADMIN, ANALYST, LOCAL, type PolicyCase, type Run, runCase } from './harness.js';

const CASES: PolicyCase[] = [
  // admin: standard hides the restricted reveal_token from everyone else, and restricted
  // primitives must be exercised under standard.
  { label: 'standard (admin)', profile: 'standard', principal: ADMIN, pseudonymises: false },
  { label: 'strict', profile: 'strict', principal: LOCAL, pseudonymises: true },
  { label: 'soc-analyst (analyst)', profile: 'soc-analyst', principal: ANALYST, pseudonymises: true },
  // strict hides every tool that writes files; with writes allowed again (MCP_PRIVACY.md 5.2's own
  // example of a child policy) the files they write are checked like results: pseudonyms only.
  {
    label: 'strict, file writes allowed',
    profile: 'strict',
    policy: { name: 'strict-writes', extends: 'strict', allow_capabilities: ['write_fs'] },
    principal: LOCAL,
    pseudonymises: true,
  },
];

/**
 * Visible primitives allowed to answer no call successfully, as `<case label>|<kind>:<name>`, each
 * with the reason. The test fails on an entry that no longer applies.
 */
const EXEMPTIONS: Readonly<Record<string, string>> = {};

/**
 * Tools whose written files do not yet go through the caller's output pipeline, each with the
 * reason: what their files hold is left out of the checks (results still count). The test fails
 * on an entry whose tool no longer writes anything the checks would catch.
 */
const FILE_EXEMPTIONS: Readonly<Record<string, string>> = {};

/** Whether a finding line or leak is about a file an exempted tool wrote. */
function exemptFile(where: string, path: string): boolean {
  return (
    path.startsWith('file ') &&
    Object.keys(FILE_EXEMPTIONS).some((tool) => where.startsWith(`tool ${tool} #`))
  );
}
const lineExempt = (line: string) => {
  const [where = '', rest = ''] = line.split(' :: ');
  return exemptFile(where, rest);
};
const secretsOf = (run: Run) => secretLeaks(run).filter((l) => !lineExempt(l));
const injectionsOf = (run: Run) => unfencedInjections(run).filter((l) => !lineExempt(l));

const runs = new Map<string, Run>();

function report(run: Run, sections: Record<string, string[]>): void {
  const file = join(tmpdir(), `cloudg-leak-${run.case.label.replace(/\W+/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(sections, null, 1));
  // Everything but the per-occurrence identifier list (that one is in the file and in the diff).
  const lines = Object.entries(sections)
    .filter(([, list]) => list.length > 0)
    .map(([name, list]) =>
      name === 'identifiers'
        ? `  ${name}: ${list.length} (see the file)`
        : `  ${name}: ${list.length}\n${list.map((l) => `    ${l}`).join('\n')}`,
    );
  console.log(
    `[leak test] ${run.case.label}: ${run.ops.length} requests, ${run.capture.seen.length} strings read${
      lines.length ? `\n${lines.join('\n')}` : ', nothing found'
    }\n  full report: ${file}`,
  );
}

describe.each(CASES)('$label', (c) => {
  let run: Run;
  let idLeaks: IdentifierLeak[] = [];
  beforeAll(async () => {
    run = await runCase(c);
    runs.set(c.label, run);
    idLeaks = c.pseudonymises ? identifierLeaks(run).filter((l) => !exemptFile(l.where, l.path)) : [];
    report(run, {
      harness_problems: run.problems,
      unanswered: unanswered(run).map((u) => `${u.key}: ${u.errors.join(' | ')}`),
      secrets: secretsOf(run),
      unfenced_injection: injectionsOf(run),
      identifiers_grouped: groupLeaks(idLeaks),
      identifiers: idLeaks.map(formatIdentifierLeak),
      unresolved_pseudonyms: c.pseudonymises ? unresolvedPseudonyms(run) : [],
    });
  }, 120_000);

  it('the harness obtained what it needs (pseudonyms of the planted assets)', () => {
    expect(run.problems).toEqual([]);
  });

  it('every visible tool, resource, template and prompt answers at least once', () => {
    const missing = unanswered(run)
      .filter((u) => !EXEMPTIONS[`${c.label}|${u.key}`])
      .map((u) => `${u.key}: ${u.errors.join(' | ')}`);
    expect(missing).toEqual([]);
  });

  it('never shows a planted secret', () => {
    expect(secretsOf(run)).toEqual([]);
  });

  it('shows the planted injection only inside ⟦untrusted⟧ … ⟦/untrusted⟧', () => {
    expect(injectionsOf(run)).toEqual([]);
  });

  it.runIf(c.pseudonymises)('never shows a real identifier (grouped by request and path)', () => {
    expect(groupLeaks(idLeaks)).toEqual([]);
  });

  it.runIf(c.pseudonymises)('never shows a real identifier (every occurrence)', () => {
    expect(idLeaks.map(formatIdentifierLeak)).toEqual([]);
  });

  it.runIf(c.pseudonymises)('accepts every pseudonym it handed out wherever the real value works', () => {
    expect(unresolvedPseudonyms(run)).toEqual([]);
  });

  it.runIf(c.pseudonymises)(
    'keeps ordinary words of free text readable (only whole values become pseudonyms)',
    () => {
      // PLAIN_TEXT sits on an asset whose env tag is `prod`: the tag value is an identifier, the
      // words of the sentence are not.
      const texts = run.capture.seen.filter((s) => !s.key && s.text.includes('tier for')).map((s) => s.text);
      expect(texts.length, `"${PLAIN_TEXT}" was not found in any output`).toBeGreaterThan(0);
      const garbled = texts.filter(
        (t) => !(/\bdefault\b/.test(t) && /\bweb\b/.test(t) && /\bprod\b/.test(t)),
      );
      expect(garbled).toEqual([]);
    },
  );
});

// The harness checks itself: under `open` nothing is transformed, so everything planted must be
// found. A capture that misses a path, or a planted value no tool reaches, fails here.
describe('the harness, under open', () => {
  let run: Run;
  beforeAll(async () => {
    run = await runCase({ label: 'open', profile: 'open', principal: LOCAL, pseudonymises: true });
  }, 120_000);

  it('reaches every planted secret', () => {
    const found = new Set(secretLeaks(run).map((line) => /contains secret (\w+)/.exec(line)?.[1]));
    expect([...found].sort()).toEqual(Object.keys(SECRETS).sort());
  });

  it('reaches the planted identifiers and the injection', () => {
    const found = new Set(identifierLeaks(run).map((l) => l.id));
    const planted = [
      AWS_ACCOUNT,
      ORG_MANAGEMENT_ACCOUNT,
      AZURE_SUBSCRIPTION,
      GCP_PROJECT,
      EMAIL,
      PRIVATE_IP,
      PUBLIC_IP,
      TEAM_TAG,
      MAIN_DATASET,
      ...Object.values(PLANTED_ASSETS).flatMap((a) => [a.id, a.name, a.arn]),
    ];
    expect(planted.filter((id) => !found.has(id))).toEqual([]);
    expect(unfencedInjections(run).length).toBeGreaterThan(0);
  });
});

describe('across the policies', () => {
  afterAll(() => runs.clear());

  it('exercised every restricted primitive under standard', () => {
    const run = runs.get(CASES[0]!.label);
    expect(run, 'the standard run did not complete').toBeDefined();
    const ok = answered(run!);
    expect(run!.restricted.filter((key) => !ok.has(key))).toEqual([]);
    expect(run!.restricted.length).toBeGreaterThan(0);
  });

  it('has no stale file exemptions', () => {
    const run = runs.get(CASES[0]!.label);
    expect(run, 'the standard run did not complete').toBeDefined();
    const caught = [...secretLeaks(run!), ...unfencedInjections(run!)].filter(lineExempt);
    const stale = Object.keys(FILE_EXEMPTIONS).filter(
      (tool) => !caught.some((line) => line.startsWith(`tool ${tool} #`)),
    );
    expect(stale).toEqual([]);
  });

  it('has no stale exemptions', () => {
    const stale = Object.keys(EXEMPTIONS).filter((entry) => {
      const [label, key] = entry.split('|') as [string, string];
      const run = runs.get(label);
      if (!run) return true;
      return !unanswered(run).some((u) => u.key === key);
    });
    expect(stale).toEqual([]);
  });
});

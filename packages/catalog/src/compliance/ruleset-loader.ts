import type { Dirent } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configProblems } from '@cloudg/core';
import { parseDocument } from 'yaml';
import type { z } from 'zod';
import {
  type EquivalenceMap,
  equivalenceKey,
  type LoadedRuleset,
  RulesetCatalog,
} from './ruleset-catalog.js';
import { RulesetError, type RulesetProblem } from './ruleset-errors.js';
import { EQUIVALENCE_FILE, EquivalenceFileSchema, RulesetFileSchema } from './ruleset-schema.js';

/**
 * Reading a rules directory: every `*.yaml` under it (top-level files first, then each
 * subdirectory, names sorted, so the order is the same on every machine) is a ruleset, except
 * `check_equivalence.yaml` at the top, which maps equivalent scanner checks. Every file is
 * validated and every problem reported together, with its file and path.
 */

/** The rulesets shipped with the package (two levels up from `src/compliance` and `dist/compliance`). */
export function bundledRulesDir(): string {
  return fileURLToPath(new URL('../../rulesets', import.meta.url));
}

async function yamlFiles(dir: string): Promise<string[]> {
  const entries: Dirent[] = (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
  const files = entries.filter((e) => e.isFile() && e.name.endsWith('.yaml')).map((e) => join(dir, e.name));
  for (const sub of entries.filter((e) => e.isDirectory()))
    files.push(...(await yamlFiles(join(dir, sub.name))));
  return files;
}

/** Parse one YAML file; syntax errors become problems with the line they are on. */
function parseYaml(text: string, file: string, problems: RulesetProblem[]): unknown {
  const doc = parseDocument(text, { prettyErrors: true });
  if (doc.errors.length) {
    for (const e of doc.errors) {
      const line = e.linePos?.[0]?.line;
      // The pretty message repeats the position and quotes the source; keep the first clause.
      const message = (e.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
      problems.push({ file, path: line ? `line ${line}` : '', message: message || 'invalid YAML' });
    }
    return undefined;
  }
  return doc.toJS();
}

function validate<S extends z.ZodType>(
  schema: S,
  value: unknown,
  file: string,
  problems: RulesetProblem[],
): z.output<S> | undefined {
  if (value === null || value === undefined) {
    problems.push({ file, path: '', message: 'the file is empty' });
    return undefined;
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  for (const p of configProblems(parsed.error)) problems.push({ file, ...p });
  return undefined;
}

function toRuleset(file: string, data: z.output<typeof RulesetFileSchema>): LoadedRuleset {
  const framework = data.framework ?? basename(file, '.yaml');
  const provider = data.provider ?? null;
  return {
    file,
    framework,
    version: data.version,
    provider,
    controls: (data.controls ?? []).map((c) => ({
      framework,
      control_id: c.id,
      title: c.title ?? null,
      severity: c.severity ?? null,
      checks: c.checks ?? [],
      patterns: (c.patterns ?? []).map((p) => new RegExp(p, 'i')),
      provider,
      file,
    })),
  };
}

/** Read and validate a rules directory; throws RulesetError listing every problem. */
export async function readRulesDir(dir: string): Promise<RulesetCatalog> {
  const root = resolve(dir);
  try {
    if (!(await stat(root)).isDirectory()) throw new Error('not a directory');
  } catch {
    // The reference treats a missing directory as "no rules" and maps almost nothing without a
    // word; a configured directory that is not there is a mistake worth saying out loud.
    throw new RulesetError(root, [{ file: '.', path: '', message: 'the directory does not exist' }]);
  }
  const problems: RulesetProblem[] = [];
  const rulesets: LoadedRuleset[] = [];
  const equivalences = new Map<string, string>();
  for (const path of await yamlFiles(root)) {
    const file = relative(root, path).split(sep).join('/');
    const value = parseYaml(await readFile(path, 'utf8'), file, problems);
    if (value === undefined && problems.some((p) => p.file === file)) continue;
    if (file === EQUIVALENCE_FILE) {
      const data = validate(EquivalenceFileSchema, value, file, problems);
      for (const eq of data?.equivalences ?? []) {
        for (const [scanner, checks] of Object.entries(eq.checks)) {
          for (const check of checks) equivalences.set(equivalenceKey(scanner, check), eq.id);
        }
      }
      continue;
    }
    const data = validate(RulesetFileSchema, value, file, problems);
    if (data) rulesets.push(toRuleset(file, data));
  }
  if (problems.length) throw new RulesetError(root, problems);
  return new RulesetCatalog(root, rulesets, equivalences as EquivalenceMap);
}

// One catalog per directory for the life of the process, as the reference caches it; a failed
// read is not cached, so fixing the files and calling again works without a restart.
const cache = new Map<string, Promise<RulesetCatalog>>();

/** The rulesets of `dir` (default: the bundled ones), read once per directory. */
export function loadRulesets(dir?: string | null): Promise<RulesetCatalog> {
  const key = resolve(dir ?? bundledRulesDir());
  let pending = cache.get(key);
  if (!pending) {
    pending = readRulesDir(key);
    cache.set(key, pending);
    pending.catch(() => cache.delete(key));
  }
  return pending;
}

/**
 * README code blocks are generated from example files that are type-checked (and, where they
 * can run, run) with their package. In a README, a TypeScript or JavaScript block is preceded by
 *
 *   <!-- example: examples/quickstart.examples.ts#quickstart -->
 *
 * and holds exactly the region `quickstart` of that file: the lines between `// #region
 * quickstart` and `// #endregion quickstart`, dedented (a region may be split into several
 * parts, joined by a blank line; without `#name` the whole file). A test per package fails when a
 * block differs from its region or a ts/js block has no marker.
 *
 *   pnpm readme-examples            check every package
 *   pnpm readme-examples --update   rewrite the README blocks from the example files
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const UPDATE_COMMAND = 'pnpm readme-examples --update';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The packages whose README is checked, relative to the repository root. */
export const CHECKED_PACKAGES = [
  'packages/core',
  'packages/privacy',
  'packages/policy',
  'packages/catalog',
  'packages/transports',
  'packages/adapters',
  'packages/collectors',
  'packages/redis',
  'apps/server',
  'apps/cli',
] as const;

const MARKER = /^<!-- example: ([^\s#]+)(?:#([\w-]+))? -->$/;
const FENCE_OPEN = /^```(\w*)\s*$/;
const CODE_LANGUAGES = new Set(['ts', 'typescript', 'js', 'javascript', 'mjs', 'tsx']);

export interface ReadmeCheck {
  ok: boolean;
  /** The README with every marked block regenerated from its example. */
  expected: string;
  /** What is wrong, one entry per problem. */
  problems: string[];
  message: string;
}

function dedent(lines: readonly string[]): string[] {
  const indents = lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)?.[0].length ?? 0);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(cut));
}

function trimBlankLines(lines: readonly string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && (lines[start] as string).trim() === '') start++;
  while (end > start && (lines[end - 1] as string).trim() === '') end--;
  return lines.slice(start, end);
}

function regionMarker(line: string): { end: boolean; name: string } | undefined {
  const m = /^\s*\/\/ #(region|endregion) ([\w-]+)\s*$/.exec(line);
  return m ? { end: m[1] === 'endregion', name: m[2] as string } : undefined;
}

/**
 * The text of `region` in an example file (every part of it, dedented, joined by a blank line),
 * without any region markers; the whole file, markers removed, when `region` is undefined.
 */
export function extractRegion(source: string, region?: string): string {
  const lines = source.replace(/\n$/, '').split('\n');
  if (region === undefined) return lines.filter((l) => !regionMarker(l)).join('\n');
  const parts: string[][] = [];
  let current: string[] | undefined;
  for (const line of lines) {
    const marker = regionMarker(line);
    if (marker?.name === region) {
      if (!marker.end) current = [];
      else if (current) {
        parts.push(current);
        current = undefined;
      }
      continue;
    }
    if (marker) continue;
    current?.push(line);
  }
  if (current) throw new Error(`region '${region}' is not closed`);
  if (parts.length === 0) throw new Error(`no region '${region}'`);
  return parts.map((part) => dedent(trimBlankLines(part)).join('\n')).join('\n\n');
}

/** Whether `path` lies in a directory the package's tsconfig.json type-checks. */
function typeChecked(packageDir: string, path: string): boolean {
  const config = JSON.parse(readFileSync(join(packageDir, 'tsconfig.json'), 'utf8')) as {
    include?: string[];
  };
  return (config.include ?? []).some((dir) => path === dir || path.startsWith(`${dir.replace(/\/$/, '')}/`));
}

/** Compare a package's README (or `readmePath`) with the example regions it quotes. */
export function checkReadme(packageDir: string, readmePath = join(packageDir, 'README.md')): ReadmeCheck {
  const readme = readFileSync(readmePath, 'utf8');
  const lines = readme.split('\n');
  const out: string[] = [];
  const problems: string[] = [];
  const where = relative(ROOT, readmePath) || readmePath;
  let pending: { file: string; region: string | undefined; line: number } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const marker = MARKER.exec(line);
    if (marker) {
      pending = { file: marker[1] as string, region: marker[2], line: i + 1 };
      out.push(line);
      continue;
    }
    const fence = FENCE_OPEN.exec(line);
    if (!fence) {
      if (pending && line.trim() !== '') {
        problems.push(`${where}:${pending.line}: the example marker is not followed by a code block`);
        pending = undefined;
      }
      out.push(line);
      continue;
    }
    // A fenced block: copy it, or its regenerated content when it is marked.
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end] as string)) end++;
    const body = lines.slice(i + 1, end);
    const language = (fence[1] ?? '').toLowerCase();
    let content = body.join('\n');
    if (pending) {
      const file = join(packageDir, pending.file);
      const label = `${pending.file}${pending.region ? `#${pending.region}` : ''}`;
      if (!existsSync(file)) {
        problems.push(`${where}:${pending.line}: ${pending.file} does not exist`);
      } else {
        if (!typeChecked(packageDir, pending.file)) {
          problems.push(
            `${where}:${pending.line}: ${pending.file} is outside the directories tsconfig.json checks`,
          );
        }
        try {
          const region = extractRegion(readFileSync(file, 'utf8'), pending.region);
          if (region !== content) problems.push(`${where}:${i + 1}: the block differs from ${label}`);
          content = region;
        } catch (error) {
          problems.push(`${where}:${pending.line}: ${label}: ${(error as Error).message}`);
        }
      }
    } else if (CODE_LANGUAGES.has(language)) {
      problems.push(`${where}:${i + 1}: a ${language} block without an <!-- example: FILE#REGION --> marker`);
    }
    out.push(line, ...(content === '' ? [] : content.split('\n')), lines[end] ?? '```');
    i = end;
    pending = undefined;
  }
  const expected = out.join('\n');
  const ok = problems.length === 0;
  const message = ok
    ? `${where}: every code block matches its example`
    : [
        `The code blocks of ${where} do not match their examples:`,
        ...problems.map((p) => `  ${p}`),
        '',
        'Edit the example file (it is type-checked and run by the tests), then run',
        `\`${UPDATE_COMMAND}\` to copy its regions into the README. A new ts/js block needs a`,
        'region in an example file and a marker line right above it.',
      ].join('\n');
  return { ok, expected, problems, message };
}

function main(argv: readonly string[]): number {
  const update = argv.includes('--update');
  const only = argv.filter((a) => !a.startsWith('--'));
  const dirs = (only.length > 0 ? only.map((d) => relative(ROOT, resolve(d))) : [...CHECKED_PACKAGES]).map(
    (d) => join(ROOT, d),
  );
  let failed = 0;
  for (const dir of dirs) {
    const check = checkReadme(dir);
    if (check.ok) {
      console.log(check.message);
      continue;
    }
    const unfixable = check.problems.filter((p) => !p.includes('the block differs from'));
    if (update && unfixable.length === 0) {
      writeFileSync(join(dir, 'README.md'), check.expected);
      console.log(`${relative(ROOT, join(dir, 'README.md'))}: blocks regenerated`);
    } else {
      console.error(check.message);
      failed += 1;
    }
  }
  return failed === 0 ? 0 : 1;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}

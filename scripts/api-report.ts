/**
 * The API report: every name a package's entry point exports, with its kind, as the TypeScript
 * compiler sees it. Each package checks a copy in (`api-report.md`) and a test regenerates it,
 * so a name that leaks into the public surface (or leaves it) fails the build until someone
 * updates the report on purpose.
 *
 *   pnpm api-report            check every package, print the differences
 *   pnpm api-report --update   rewrite the reports that differ
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const REPORT_FILE = 'api-report.md';
export const UPDATE_COMMAND = 'pnpm api-report --update';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The packages that publish an entry point, relative to the repository root. */
export const REPORTED_PACKAGES = [
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

export interface ApiEntry {
  name: string;
  /** `class`, `function`, `const`, `interface`, `type`, `enum`, `namespace`; `const+type` for a name that is both. */
  kind: string;
}

export interface ApiCheck {
  /** The package's name from its package.json. */
  packageName: string;
  /** The report as generated from the sources. */
  expected: string;
  /** The report on disk, or null when there is none. */
  actual: string | null;
  /** Names added to and removed from the surface since the report was written. */
  added: string[];
  removed: string[];
  ok: boolean;
  /** What a failing check prints: the differences and how to accept them. */
  message: string;
}

function kindsOf(symbol: ts.Symbol): string[] {
  const f = symbol.flags;
  const kinds: string[] = [];
  if (f & ts.SymbolFlags.Class) kinds.push('class');
  else if (f & ts.SymbolFlags.Function) kinds.push('function');
  else if (f & ts.SymbolFlags.Enum) kinds.push('enum');
  else if (f & ts.SymbolFlags.Variable) {
    const decl = symbol.valueDeclaration;
    const isConst = decl !== undefined && (ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const) !== 0;
    kinds.push(isConst ? 'const' : 'let');
  } else if (f & (ts.SymbolFlags.ValueModule | ts.SymbolFlags.NamespaceModule)) kinds.push('namespace');
  if (!(f & ts.SymbolFlags.Class) && !(f & ts.SymbolFlags.Enum)) {
    if (f & ts.SymbolFlags.Interface) kinds.push('interface');
    else if (f & ts.SymbolFlags.TypeAlias) kinds.push('type');
  }
  return kinds.length > 0 ? kinds : ['unknown'];
}

/** Whether a re-export along the alias chain is `export type`, so only the type is public. */
function isTypeOnlyExport(symbol: ts.Symbol, checker: ts.TypeChecker): boolean {
  let current: ts.Symbol | undefined = symbol;
  for (let depth = 0; current && depth < 32; depth++) {
    for (const decl of current.declarations ?? []) {
      if (ts.isExportSpecifier(decl) && (decl.isTypeOnly || decl.parent.parent.isTypeOnly)) return true;
      if (ts.isImportSpecifier(decl) && (decl.isTypeOnly || decl.parent.parent.isTypeOnly)) return true;
    }
    if (!(current.flags & ts.SymbolFlags.Alias)) break;
    const next = checker.getImmediateAliasedSymbol(current);
    if (next === current) break;
    current = next;
  }
  return false;
}

function compilerOptions(packageDir: string): ts.CompilerOptions {
  const configPath = join(packageDir, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, packageDir);
  // Only symbols and their kinds are needed, never a type check: no default libraries or @types.
  return { ...parsed.options, noEmit: true, skipLibCheck: true, noLib: true, types: [] };
}

/**
 * A compiler host that reads only the files beside the entry point (its directory and below):
 * anything else (other packages, node_modules) is an empty module. The report needs the
 * symbols the package declares and their kinds, not types from elsewhere, and this keeps the
 * check to a second or two however large the dependencies are.
 */
function localHost(options: ts.CompilerOptions, root: string): ts.CompilerHost {
  const host = ts.createCompilerHost(options, true);
  const read = host.getSourceFile.bind(host);
  const inside = `${resolve(root)}/`;
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) =>
    resolve(fileName).startsWith(inside)
      ? read(fileName, languageVersion, onError, shouldCreate)
      : ts.createSourceFile(fileName, 'export {};', languageVersion);
  return host;
}

/** The exported names of `entry` (default: the package's src/index.ts), sorted by name. */
export function collectApi(packageDir: string, entry = join(packageDir, 'src', 'index.ts')): ApiEntry[] {
  const options = compilerOptions(packageDir);
  const program = ts.createProgram({ rootNames: [entry], options, host: localHost(options, dirname(entry)) });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  if (!source) throw new Error(`Cannot read ${entry}`);
  const moduleSymbol = checker.getSymbolAtLocation(source);
  if (!moduleSymbol) return [];
  const entries: ApiEntry[] = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol)) {
    const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    let kinds = kindsOf(target);
    const typeOnly = isTypeOnlyExport(exported, checker);
    if (kinds[0] === 'unknown') {
      // Re-exported from another package, which the local host does not read.
      kinds = [typeOnly ? 'type' : 're-export'];
    } else if (typeOnly) {
      kinds = kinds.filter((k) => k === 'interface' || k === 'type');
      if (kinds.length === 0) kinds = [`type-only ${kindsOf(target)[0]}`];
    }
    entries.push({ name: exported.getName(), kind: kinds.join('+') });
  }
  return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The entry points a package publishes: its `exports`, each with its `@cloudg/source` file. A
 * package with sub-path entries (`@cloudg/adapters/sdk`) reports each of them, its names written
 * `sdk/registerInto`, since every one is a promise to users.
 */
function entryPoints(packageDir: string): { subpath: string; file: string }[] {
  const exportsField = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).exports as
    | Record<string, { '@cloudg/source'?: string } | string>
    | undefined;
  const found: { subpath: string; file: string }[] = [];
  for (const [key, value] of Object.entries(exportsField ?? {})) {
    const source = typeof value === 'object' ? value['@cloudg/source'] : undefined;
    if (source)
      found.push({ subpath: key === '.' ? '' : key.replace(/^\.\//, ''), file: join(packageDir, source) });
  }
  return found.length > 0 ? found : [{ subpath: '', file: join(packageDir, 'src', 'index.ts') }];
}

/** Every entry point's names, sub-path names prefixed with their sub-path. */
export function collectPackageApi(packageDir: string): { entries: ApiEntry[]; subpaths: string[] } {
  const points = entryPoints(packageDir);
  const entries = points.flatMap(({ subpath, file }) =>
    collectApi(packageDir, file).map((e) => (subpath ? { ...e, name: `${subpath}/${e.name}` } : e)),
  );
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { entries, subpaths: points.map((p) => p.subpath).filter(Boolean) };
}

function packageNameOf(packageDir: string): string {
  return JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).name as string;
}

function line(entry: ApiEntry): string {
  return `${entry.kind.padEnd(12)} ${entry.name}`;
}

/** The report text for a package. */
export function renderReport(
  packageName: string,
  entries: readonly ApiEntry[],
  subpaths: readonly string[] = [],
): string {
  const counts = new Map<string, number>();
  for (const e of entries) counts.set(e.kind, (counts.get(e.kind) ?? 0) + 1);
  const summary = [...counts]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');
  return [
    `# ${packageName}: public API`,
    '',
    `Generated from \`src/index.ts\` by \`${UPDATE_COMMAND}\`; a test fails when it differs from the`,
    'code. Change it on purpose only: a new name here is a promise to users, a removed one a',
    'breaking change (both need a changeset).',
    ...(subpaths.length > 0
      ? [
          '',
          `Sub-path entry points are listed too, their names prefixed: ${subpaths.map((p) => `\`${p}/\``).join(', ')}`,
          `(\`${packageName}/${subpaths[0]}\` and so on).`,
        ]
      : []),
    '',
    `${entries.length} names: ${summary || 'none'}.`,
    '',
    '```text',
    ...entries.map(line),
    '```',
    '',
  ].join('\n');
}

function listedLines(report: string | null): string[] {
  if (report === null) return [];
  const block = /```text\n([\s\S]*?)```/.exec(report)?.[1] ?? '';
  return block
    .split('\n')
    .map((l) => l.trim().replace(/\s+/, ' '))
    .filter(Boolean);
}

/**
 * Compare the package's report with its sources. `entry` and `reportPath` default to the
 * package's own; tests point them at fixtures.
 */
export function checkApiReport(
  packageDir: string,
  options: { entry?: string; reportPath?: string } = {},
): ApiCheck {
  const packageName = packageNameOf(packageDir);
  const reportPath = options.reportPath ?? join(packageDir, REPORT_FILE);
  const api = options.entry
    ? { entries: collectApi(packageDir, options.entry), subpaths: [] }
    : collectPackageApi(packageDir);
  const expected = renderReport(packageName, api.entries, api.subpaths);
  const actual = existsSync(reportPath) ? readFileSync(reportPath, 'utf8') : null;
  const want = listedLines(expected);
  const have = new Set(listedLines(actual));
  const wantSet = new Set(want);
  const added = want.filter((l) => !have.has(l));
  const removed = [...have].filter((l) => !wantSet.has(l));
  const ok = actual === expected;
  const where = relative(ROOT, reportPath) || reportPath;
  const message = ok
    ? `${packageName}: ${where} is up to date`
    : [
        actual === null
          ? `${packageName} has no API report (${where}).`
          : `The public API of ${packageName} differs from ${where}:`,
        ...added.map((l) => `  + ${l}`),
        ...removed.map((l) => `  - ${l}`),
        ...(added.length === 0 && removed.length === 0 && actual !== null
          ? ['  (only the layout differs)']
          : []),
        '',
        'Export only what another package or a user needs (see ../shared/ARCHITECTURE.md). If the change',
        `is intended, run \`${UPDATE_COMMAND}\`, commit ${where}, and add a changeset.`,
      ].join('\n');
  return { packageName, expected, actual, added, removed, ok, message };
}

function main(argv: readonly string[]): number {
  const update = argv.includes('--update');
  const only = argv.filter((a) => !a.startsWith('--'));
  const dirs = (only.length > 0 ? only.map((d) => relative(ROOT, resolve(d))) : [...REPORTED_PACKAGES]).map(
    (d) => join(ROOT, d),
  );
  let failed = 0;
  for (const dir of dirs) {
    const check = checkApiReport(dir);
    if (check.ok) {
      console.log(check.message);
    } else if (update) {
      writeFileSync(join(dir, REPORT_FILE), check.expected);
      console.log(`${check.packageName}: wrote ${relative(ROOT, join(dir, REPORT_FILE))}`);
      for (const l of check.added) console.log(`  + ${l}`);
      for (const l of check.removed) console.log(`  - ${l}`);
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

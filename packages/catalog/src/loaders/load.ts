import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, extname, join, relative } from 'node:path';
import { InvalidArgumentsError, isPlainObject } from '@cloudg/core';
import { LOADER_KINDS, type LoaderKind } from '../model/vocabulary.js';
import { isCheckovDocument, parseCheckov } from './checkov.js';
import {
  CHECKOV_RESULTS_FILE,
  detectDirectoryKind,
  detectDocumentKind,
  FINDINGS_REPORT_FILE,
  INVENTORY_MAP_FILE,
  isEmptyDocument,
  isScout2ConfigFile,
  isScoutsuiteFileName,
  isScoutsuiteResultsFile,
  kindFromFileName,
} from './detect.js';
import { malformedJson, notScannerOutput, pathMissing, unrecognisedContent } from './errors.js';
import { admitPath } from './file-access.js';
import type { ScannerFinding } from './finding-factory.js';
import type { LoadIssue } from './issues.js';
import { listTree } from './list-tree.js';
import {
  type DeduplicationReport,
  dedupeAssets,
  dedupeFindingsReport,
  emptyDeduplication,
  mergeControlResults,
  uniqueFindingIds,
} from './normalise.js';
import { parseProwler } from './prowler.js';
import { type ReadOptions, readTextFile, tryParseJson } from './read-file.js';
import { parseJsonLinesLenient, salvageJsonArray, salvageTruncatedObject } from './salvage.js';
import { isScoutsuiteDocument, parseScoutsuite, parseScoutsuiteText } from './scoutsuite.js';
import { genericFromDocument, type LoadedData, loadFindingsReport, loadInventoryMap } from './structured.js';
import { isTrivyDocument, parseTrivy } from './trivy.js';

export type LoadKind = 'auto' | LoaderKind;
export const LOAD_KINDS: readonly LoadKind[] = ['auto', ...LOADER_KINDS];

export interface LoadOptions extends ReadOptions {
  /** What the path holds; `auto` (the default) detects it. */
  kind?: LoadKind;
  /** Deduplicate and map to compliance frameworks (default true). */
  normalise?: boolean;
  /** Stops a long directory load between files. */
  signal?: AbortSignal;
}

export interface LoadOutcome {
  kind: LoaderKind;
  /** The file or directory that was read (absolute when the caller passed an absolute path). */
  source: string;
  /** A dataset name derived from the path (not yet made unique). */
  defaultName: string;
  data: LoadedData;
  /**
   * Problems that did not stop the load: a file of a directory that could not be read, lines of
   * JSON Lines that did not parse, a truncated file whose complete records were read.
   */
  issues: LoadIssue[];
  /** How many findings deduplication merged and why (nothing when `normalise` is false). */
  deduplication: DeduplicationReport;
}

type ScannerKind = 'prowler' | 'checkov' | 'trivy';

const SCANNER_PARSERS: Record<ScannerKind, (doc: unknown) => ScannerFinding[]> = {
  prowler: parseProwler,
  checkov: parseCheckov,
  trivy: parseTrivy,
};

/** Whether a non-empty document is output of the scanner the caller named. */
const SCANNER_SHAPES: Record<ScannerKind, (doc: unknown) => boolean> = {
  prowler: (doc) => detectDocumentKind(doc) === 'prowler',
  checkov: isCheckovDocument,
  trivy: isTrivyDocument,
};

/** Turn a path into a valid dataset name: the file stem, or the directory name for a map. */
export function nameFromPath(path: string, isDirectory: boolean): string {
  const base = basename(path);
  const raw = isDirectory
    ? base
    : base === INVENTORY_MAP_FILE
      ? basename(dirname(path))
      : base.slice(0, base.length - extname(base).length);
  const cleaned = raw
    .replace(/[^A-Za-z0-9_.-]+/g, '-')
    .replace(/^[-.]+|-+$/g, '')
    .slice(0, 64);
  return cleaned || 'dataset';
}

export function parseLoadKind(value: string | undefined): LoadKind {
  const kind = (value ?? 'auto').trim().toLowerCase() || 'auto';
  if ((LOAD_KINDS as readonly string[]).includes(kind)) return kind as LoadKind;
  throw new InvalidArgumentsError(`Unknown kind. Valid values: ${LOAD_KINDS.join(', ')}`, {
    data: { value, valid: [...LOAD_KINDS] },
  });
}

interface Context {
  options: LoadOptions;
  /** Issues with real file paths; loadPath rewrites them under the caller's path. */
  issues: LoadIssue[];
}

/**
 * Read a file or directory into dataset parts. Nothing outside the returned object is touched,
 * so a failure anywhere leaves the caller's state as it was. With `options.access`, the path
 * and every file read because of it (a directory's files, an inventory map's neighbours) are
 * judged by their real paths, so a symlink cannot lead a load outside what `access` allows.
 *
 * A single file that cannot be read at all throws; a directory's unreadable files, and the
 * damaged parts of a file whose other records were read, are listed in `issues` instead.
 */
export async function loadPath(path: string, options: LoadOptions = {}): Promise<LoadOutcome> {
  const requested = options.kind ?? 'auto';
  const real = await admitPath(path, options.access);
  let info: Stats;
  try {
    info = await stat(real);
  } catch {
    throw pathMissing(path);
  }
  const isDir = info.isDirectory();
  const defaultName = nameFromPath(path, isDir);
  const ctx: Context = { options, issues: [] };
  // A directory is listed by its real path; each file in it is judged again when it is opened.
  const { kind, data } = isDir
    ? await loadDirectory(real, requested, ctx)
    : await loadFile(real, requested, ctx);
  const normalised = normalise(kind, data, options.normalise ?? true);
  const issues = ctx.issues.map((i) => ({
    ...i,
    path: i.path === real ? path : join(path, relative(real, i.path)),
  }));
  return {
    kind,
    source: path,
    defaultName,
    data: normalised.data,
    issues,
    deduplication: normalised.deduplication,
  };
}

async function loadDirectory(
  dir: string,
  requested: LoadKind,
  ctx: Context,
): Promise<{ kind: LoaderKind; data: LoadedData }> {
  const { files } = await listTree(dir, ctx.options.signal);
  const kind = requested === 'auto' ? detectDirectoryKind(files) : requested;
  if (!kind) throw unrecognisedContent(dir);
  const top = files.filter((f) => !f.includes('/'));
  switch (kind) {
    case 'inventory':
      if (!top.includes(INVENTORY_MAP_FILE)) throw pathMissing(join(dir, INVENTORY_MAP_FILE));
      return { kind, data: await loadInventoryMap(join(dir, INVENTORY_MAP_FILE), ctx.options) };
    case 'report':
      if (!top.includes(FINDINGS_REPORT_FILE)) throw pathMissing(join(dir, FINDINGS_REPORT_FILE));
      return { kind, data: await loadFindingsReport(join(dir, FINDINGS_REPORT_FILE), ctx.options) };
    case 'scoutsuite':
      return loadEachFile(
        dir,
        files.filter((f) => isScoutsuiteResultsFile(basename(f)) || isScout2ConfigFile(f)),
        kind,
        ctx,
      );
    case 'checkov': {
      // Checkov's own file name wherever it is below; otherwise every JSON file.
      const results = files.filter((f) => basename(f) === CHECKOV_RESULTS_FILE);
      return loadEachFile(dir, results.length ? results : files.filter(isJsonFile), kind, ctx);
    }
    default:
      return loadEachFile(dir, files.filter(isJsonFile), kind, ctx);
  }
}

function isJsonFile(name: string): boolean {
  return /\.(json|jsonl|ndjson)$/i.test(name);
}

/** Several files of one directory, merged; a file that cannot be read is an issue, not a failure. */
async function loadEachFile(
  dir: string,
  files: readonly string[],
  kind: LoaderKind,
  ctx: Context,
): Promise<{ kind: LoaderKind; data: LoadedData }> {
  const findings: LoadedData['findings'] = [];
  if (files.length === 0) {
    // Likely the wrong directory (a parent of the output, or one holding only CSV or HTML).
    ctx.issues.push({
      path: dir,
      error: `The directory holds no ${kind} report files, so nothing was read.`,
    });
  }
  for (const name of files) {
    ctx.options.signal?.throwIfAborted();
    const path = join(dir, name);
    try {
      findings.push(...((await loadFile(path, kind, ctx)).data.findings ?? []));
    } catch (error) {
      if (!(error instanceof InvalidArgumentsError)) throw error;
      ctx.issues.push({ path, error: error.message });
    }
  }
  return { kind, data: { findings } };
}

/** Parse a file's text: JSON, else JSON Lines, else the complete records of a cut-off array. */
function parseDocument(text: string, path: string, ctx: Context): { document: unknown; jsonLines: boolean } {
  const whole = tryParseJson(text);
  if (whole.ok) return { document: whole.value, jsonLines: false };
  const lines = parseJsonLinesLenient(text);
  if (lines) {
    if (lines.badLines.length) {
      const shown = lines.badLines.slice(0, 5).join(', ');
      const more = lines.badLines.length > 5 ? '...' : '';
      ctx.issues.push({
        path,
        error: `${lines.badLines.length} line(s) are not valid JSON and were skipped (line ${shown}${more}); the other ${lines.records.length} record(s) were read.`,
      });
    }
    return { document: lines.records, jsonLines: true };
  }
  const salvaged = salvageJsonArray(text);
  if (salvaged) {
    ctx.issues.push({ path, error: salvaged.problem });
    return { document: salvaged.records, jsonLines: false };
  }
  const partial = salvageTruncatedObject(text);
  if (partial) {
    ctx.issues.push({ path, error: partial.problem });
    return { document: partial.document, jsonLines: false };
  }
  throw malformedJson(path);
}

async function loadFile(
  path: string,
  requested: LoadKind,
  ctx: Context,
): Promise<{ kind: LoaderKind; data: LoadedData }> {
  const name = basename(path);
  const { options } = ctx;
  if (requested === 'scoutsuite' || (requested === 'auto' && isScoutsuiteFileName(name))) {
    const text = await readTextFile(path, options);
    // An empty results file is a scan that found nothing, not a broken one.
    const results = text.trim() === '' ? {} : scoutsuiteResults(text, path, ctx);
    if (text.trim() !== '' && !isScoutsuiteDocument(results)) throw notScannerOutput(path, 'scoutsuite');
    return { kind: 'scoutsuite', data: { findings: parseScoutsuite(results) } };
  }
  const text = await readTextFile(path, options);
  const scannerOrAuto = requested === 'auto' || requested === 'generic' || requested in SCANNER_PARSERS;
  if (text.trim() === '' && scannerOrAuto) return emptyResult(requested, name);
  const { document, jsonLines } = parseDocument(text, path, ctx);
  if (isEmptyDocument(document) && scannerOrAuto) return emptyResult(requested, name);
  // JSON Lines is Prowler 2's format, but a line-per-finding export of another shape is read as
  // what its records are.
  const detected = jsonLines ? (detectDocumentKind(document) ?? 'prowler') : detectDocumentKind(document);
  const kind = requested === 'auto' ? detected : requested;
  if (!kind) throw unrecognisedContent(path);
  switch (kind) {
    case 'inventory':
      return { kind, data: await loadInventoryMap(path, options, document) };
    case 'report':
      return { kind, data: await loadFindingsReport(path, options, document) };
    case 'generic':
      return { kind, data: genericFromDocument(document, path) };
    case 'scoutsuite':
      if (!isScoutsuiteDocument(document)) throw notScannerOutput(path, kind);
      return { kind, data: { findings: parseScoutsuite(isPlainObject(document) ? document : {}) } };
    default:
      // A report of another tool would parse to nothing: say so instead of loading zero findings.
      if (!SCANNER_SHAPES[kind](document)) throw notScannerOutput(path, kind);
      return { kind, data: { findings: SCANNER_PARSERS[kind](document) } };
  }
}

/** ScoutSuite's results object, or what a truncated one still holds (reported as an issue). */
function scoutsuiteResults(text: string, path: string, ctx: Context): Record<string, unknown> {
  try {
    return parseScoutsuiteText(text, path);
  } catch (error) {
    const partial = salvageTruncatedObject(text.slice(Math.max(0, text.indexOf('{'))));
    if (!partial) throw error;
    ctx.issues.push({ path, error: partial.problem });
    return partial.document;
  }
}

/** A report with nothing in it (empty file, `[]`, `null`, `{}`): an empty result, not an error. */
function emptyResult(requested: LoadKind, name: string): { kind: LoaderKind; data: LoadedData } {
  const kind = requested === 'auto' ? (kindFromFileName(name) ?? 'generic') : requested;
  return { kind, data: { findings: [] } };
}

const SCANNER_KINDS: ReadonlySet<LoaderKind> = new Set(['prowler', 'scoutsuite', 'checkov', 'trivy']);

function normalise(
  kind: LoaderKind,
  data: LoadedData,
  enabled: boolean,
): { data: LoadedData; deduplication: DeduplicationReport } {
  const findings = data.findings ?? [];
  if (!enabled)
    return {
      data: { ...data, findings: uniqueFindingIds([...findings]) },
      deduplication: emptyDeduplication(),
    };
  const out: LoadedData = { ...data };
  let deduplication = emptyDeduplication();
  if (SCANNER_KINDS.has(kind) || kind === 'generic') {
    const deduped = dedupeFindingsReport(findings);
    out.findings = deduped.findings;
    deduplication = deduped.deduplication;
    out.compliance = mergeControlResults(data.compliance ?? [], out.findings);
  }
  if (kind === 'generic' && (data.assets?.length || data.edges?.length)) {
    const deduped = dedupeAssets(data.assets ?? [], data.edges ?? []);
    out.assets = deduped.assets;
    out.edges = deduped.edges;
  }
  return { data: out, deduplication };
}

import type { Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { InvalidArgumentsError, isPlainObject } from '@cloudg/core';
import { LOADER_KINDS, type LoaderKind } from '../model/vocabulary.js';
import { parseCheckov } from './checkov.js';
import {
  CHECKOV_RESULTS_FILE,
  detectDirectoryKind,
  detectDocumentKind,
  FINDINGS_REPORT_FILE,
  INVENTORY_MAP_FILE,
  isScoutsuiteFileName,
  isScoutsuiteResultsFile,
} from './detect.js';
import { malformedJson, pathMissing, unrecognisedContent } from './errors.js';
import { admitPath } from './file-access.js';
import type { ScannerFinding } from './finding-factory.js';
import { dedupeAssets, dedupeFindings, mergeControlResults, uniqueFindingIds } from './normalise.js';
import { parseProwler } from './prowler.js';
import { parseJsonLines, type ReadOptions, readTextFile, tryParseJson } from './read-file.js';
import { parseScoutsuite, parseScoutsuiteText } from './scoutsuite.js';
import { genericFromDocument, type LoadedData, loadFindingsReport, loadInventoryMap } from './structured.js';
import { parseTrivy } from './trivy.js';

export type LoadKind = 'auto' | LoaderKind;
export const LOAD_KINDS: readonly LoadKind[] = ['auto', ...LOADER_KINDS];

export interface LoadOptions extends ReadOptions {
  /** What the path holds; `auto` (the default) detects it. */
  kind?: LoadKind;
  /** Deduplicate and map to compliance frameworks (default true). */
  normalise?: boolean;
}

export interface LoadOutcome {
  kind: LoaderKind;
  /** The file or directory that was read (absolute when the caller passed an absolute path). */
  source: string;
  /** A dataset name derived from the path (not yet made unique). */
  defaultName: string;
  data: LoadedData;
}

const SCANNER_PARSERS: Record<'prowler' | 'checkov' | 'trivy', (doc: unknown) => ScannerFinding[]> = {
  prowler: parseProwler,
  checkov: parseCheckov,
  trivy: (doc) => (isPlainObject(doc) ? parseTrivy(doc) : []),
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

/**
 * Read a file or directory into dataset parts. Nothing outside the returned object is touched,
 * so a failure anywhere leaves the caller's state as it was. With `options.access`, the path
 * and every file read because of it (a directory's files, an inventory map's neighbours) are
 * judged by their real paths, so a symlink cannot lead a load outside what `access` allows.
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
  // A directory is listed by its real path; each file in it is judged again when it is opened.
  const { kind, data } = isDir
    ? await loadDirectory(real, requested, options)
    : await loadFile(real, requested, options);
  return { kind, source: path, defaultName, data: normalise(kind, data, options.normalise ?? true) };
}

async function loadDirectory(
  dir: string,
  requested: LoadKind,
  options: ReadOptions,
): Promise<{ kind: LoaderKind; data: LoadedData }> {
  const entries = (await readdir(dir)).sort();
  const kind = requested === 'auto' ? detectDirectoryKind(entries) : requested;
  if (!kind) throw unrecognisedContent(dir);
  switch (kind) {
    case 'inventory':
      if (!entries.includes(INVENTORY_MAP_FILE)) throw pathMissing(join(dir, INVENTORY_MAP_FILE));
      return { kind, data: await loadInventoryMap(join(dir, INVENTORY_MAP_FILE), options) };
    case 'report':
      if (!entries.includes(FINDINGS_REPORT_FILE)) throw pathMissing(join(dir, FINDINGS_REPORT_FILE));
      return { kind, data: await loadFindingsReport(join(dir, FINDINGS_REPORT_FILE), options) };
    case 'scoutsuite': {
      const files = entries.filter(isScoutsuiteResultsFile);
      const findings: ScannerFinding[] = [];
      for (const f of files) {
        const p = join(dir, f);
        findings.push(...parseScoutsuite(parseScoutsuiteText(await readTextFile(p, options), p)));
      }
      return { kind, data: { findings } };
    }
    case 'checkov':
      if (entries.includes(CHECKOV_RESULTS_FILE))
        return loadFile(join(dir, CHECKOV_RESULTS_FILE), kind, options);
      return loadEachFile(dir, entries, kind, options);
    default:
      return loadEachFile(dir, entries, kind, options);
  }
}

/** A scanner directory: every `.json` / `.jsonl` file in it, merged. */
async function loadEachFile(
  dir: string,
  entries: readonly string[],
  kind: LoaderKind,
  options: ReadOptions,
): Promise<{ kind: LoaderKind; data: LoadedData }> {
  const merged: LoadedData = { findings: [] };
  for (const name of entries.filter((n) => /\.(json|jsonl|ndjson)$/i.test(n))) {
    const part = (await loadFile(join(dir, name), kind, options)).data;
    merged.findings?.push(...(part.findings ?? []));
  }
  return { kind, data: merged };
}

async function loadFile(
  path: string,
  requested: LoadKind,
  options: ReadOptions,
): Promise<{ kind: LoaderKind; data: LoadedData }> {
  const name = basename(path);
  if (requested === 'scoutsuite' || (requested === 'auto' && isScoutsuiteFileName(name))) {
    return {
      kind: 'scoutsuite',
      data: { findings: parseScoutsuite(parseScoutsuiteText(await readTextFile(path, options), path)) },
    };
  }
  const text = await readTextFile(path, options);
  const whole = tryParseJson(text);
  let document: unknown;
  let jsonLines = false;
  if (whole.ok) document = whole.value;
  else {
    const lines = parseJsonLines(text, path);
    if (!lines) throw malformedJson(path);
    document = lines;
    jsonLines = true;
  }
  const kind = requested === 'auto' ? (jsonLines ? 'prowler' : detectDocumentKind(document)) : requested;
  if (!kind) throw unrecognisedContent(path);
  switch (kind) {
    case 'inventory':
      return { kind, data: await loadInventoryMap(path, options, document) };
    case 'report':
      return { kind, data: await loadFindingsReport(path, options, document) };
    case 'generic':
      return { kind, data: genericFromDocument(document, path) };
    case 'scoutsuite':
      return { kind, data: { findings: parseScoutsuite(isPlainObject(document) ? document : {}) } };
    default:
      return { kind, data: { findings: SCANNER_PARSERS[kind](document) } };
  }
}

const SCANNER_KINDS: ReadonlySet<LoaderKind> = new Set(['prowler', 'scoutsuite', 'checkov', 'trivy']);

function normalise(kind: LoaderKind, data: LoadedData, enabled: boolean): LoadedData {
  const findings = data.findings ?? [];
  if (!enabled) return { ...data, findings: uniqueFindingIds([...findings]) };
  const out: LoadedData = { ...data };
  if (SCANNER_KINDS.has(kind) || kind === 'generic') {
    out.findings = dedupeFindings(findings);
    out.compliance = mergeControlResults(data.compliance ?? [], out.findings);
  }
  if (kind === 'generic' && (data.assets?.length || data.edges?.length)) {
    const deduped = dedupeAssets(data.assets ?? [], data.edges ?? []);
    out.assets = deduped.assets;
    out.edges = deduped.edges;
  }
  return out;
}

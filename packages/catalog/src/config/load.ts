/** Reading a cloudg config: from a YAML file, from a plain value, or the defaults. */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { configProblems } from '@cloudg/core';
import { parseDocument } from 'yaml';
import { CloudgConfigError } from './errors.js';
import { resolveConfigPaths } from './paths.js';
import { CloudgConfig } from './schema.js';

export interface ParseCloudgConfigOptions {
  /** Directory relative paths in the config resolve against (default: the working directory). */
  baseDir?: string;
  /** The file the value came from, reported in `data.source` of errors. */
  source?: string;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/**
 * Validate a config document (the parsed YAML, or an object built in code), fill the defaults
 * and make its paths absolute. The result is frozen: live tools that override settings for one
 * call work on a copy. Throws CloudgConfigError listing every problem with its path.
 */
export function parseCloudgConfig(value: unknown, options: ParseCloudgConfigOptions = {}): CloudgConfig {
  // An empty file is an empty mapping: every default applies.
  const doc = value === null || value === undefined ? {} : value;
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    throw CloudgConfigError.invalid([{ path: '', message: 'the config must be a mapping' }], options.source);
  }
  const result = CloudgConfig.safeParse(doc);
  if (!result.success) throw CloudgConfigError.invalid(configProblems(result.error), options.source);
  return deepFreeze(resolveConfigPaths(result.data, options.baseDir ?? process.cwd()));
}

/** The config that applies when no file is given: AWS, default rate limits, reports under `<cwd>/reports`. */
export function defaultCloudgConfig(): CloudgConfig {
  return parseCloudgConfig({});
}

function readProblem(error: unknown): { code: 'config_not_found' | 'config_unreadable'; problem: string } {
  const errno = (error as NodeJS.ErrnoException).code;
  if (errno === 'ENOENT' || errno === 'ENOTDIR')
    return { code: 'config_not_found', problem: 'the file does not exist' };
  if (errno === 'EISDIR')
    return { code: 'config_unreadable', problem: 'the path is a directory, not a file' };
  if (errno === 'EACCES' || errno === 'EPERM')
    return { code: 'config_unreadable', problem: 'the file cannot be read (permission denied)' };
  return { code: 'config_unreadable', problem: 'the file cannot be read' };
}

/**
 * Read a cloudg `config.yaml`. Relative paths inside it resolve against the file's directory.
 * A missing, unreadable, non-YAML or invalid file throws CloudgConfigError.
 */
export function loadCloudgConfig(path: string): CloudgConfig {
  const file = resolve(path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const { code, problem } = readProblem(error);
    throw CloudgConfigError.unloadable(code, problem, file, error);
  }
  // The parser's own messages quote the offending line, which may hold a credential: report the
  // position only, and do not chain the parser's error.
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  const [first] = doc.errors;
  if (first) {
    const at = first.linePos?.[0];
    const where = at ? ` (line ${at.line}, column ${at.col})` : '';
    throw CloudgConfigError.unloadable('config_parse_error', `the file is not valid YAML${where}`, file);
  }
  let value: unknown;
  try {
    value = doc.toJS();
  } catch {
    // Too many alias expansions (a "billion laughs" document), for example.
    throw CloudgConfigError.unloadable('config_parse_error', 'the file is not valid YAML', file);
  }
  return parseCloudgConfig(value, { baseDir: dirname(file), source: file });
}

/**
 * Every way to name a policy (section 5.1): nothing (the `CLOUDG_MCP_POLICY` variable, else
 * `standard`), a profile name, a file path or URL, inline JSON, or a plain object.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PolicyNotFoundError } from '../errors.js';
import type { PolicyDict } from './merge.js';
import { parsePolicyText, unwrapPolicy } from './parse.js';
import { listProfiles } from './profiles.js';
import {
  type ResolvedDocument,
  readPolicyFile,
  readProfile,
  resolveExtends,
  type SourceDocument,
} from './resolve.js';

export const POLICY_ENV = 'CLOUDG_MCP_POLICY';
export const DEFAULT_PROFILE = 'standard';

export type PolicySourceValue = string | URL | PolicyDict | null | undefined;

export interface SourceOptions {
  env?: Readonly<Record<string, string | undefined>>;
  /** Directory relative paths start from. Default `process.cwd()`. */
  cwd?: string;
}

export interface LoadedPolicyDocument extends ResolvedDocument {
  loadedFrom: string;
}

const FILE_SUFFIX = /\.(ya?ml|json)$/i;

function fromString(value: string, cwd: string): SourceDocument {
  const text = value.trim();
  if (text.startsWith('{')) {
    return { doc: parsePolicyText(text, 'json', 'json'), dir: cwd, identity: 'json', loadedFrom: 'json' };
  }
  const profile = readProfile(text);
  if (profile) return profile;
  const path = resolve(cwd, text);
  if (existsSync(path) || FILE_SUFFIX.test(text)) return readPolicyFile(path);
  throw new PolicyNotFoundError('Unknown policy: not a profile name, an existing file or inline JSON', {
    policy: value,
    profiles: listProfiles(),
  });
}

/** Read a policy source and resolve its `extends` chain. */
export function loadPolicyDocument(
  value: PolicySourceValue,
  options: SourceOptions = {},
): LoadedPolicyDocument {
  const cwd = options.cwd ?? process.cwd();
  let source: SourceDocument;
  if (value === null || value === undefined) {
    const env = (options.env ?? process.env)[POLICY_ENV];
    source = env?.trim() ? fromString(env, cwd) : (readProfile(DEFAULT_PROFILE) as SourceDocument);
  } else if (value instanceof URL) {
    source = readPolicyFile(fileURLToPath(value));
  } else if (typeof value === 'string') {
    source = fromString(value, cwd);
  } else {
    source = { doc: unwrapPolicy(value, 'dict'), dir: cwd, identity: 'dict', loadedFrom: 'dict' };
  }
  return { ...resolveExtends(source), loadedFrom: source.loadedFrom };
}

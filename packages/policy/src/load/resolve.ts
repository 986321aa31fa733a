/**
 * Reading policy documents from profiles and files, and resolving `extends` chains. Relative
 * `extends` paths are resolved against the directory of the document that names them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PolicyExtendsCycleError, PolicyNotFoundError } from '../errors.js';
import { validatePolicy } from '../schema/validate.js';
import { mergePolicyDicts, type PolicyDict } from './merge.js';
import { parsePolicyText } from './parse.js';
import { findProfile, listProfiles } from './profiles.js';

/** One document as read, before `extends` is resolved. */
export interface SourceDocument {
  doc: PolicyDict;
  /** Directory relative `extends` paths start from. */
  dir: string;
  /** Identifies the document in a cycle report: `profile:<name>`, a file path or a label. */
  identity: string;
  /** What `describe()` reports under `loaded_from`. */
  loadedFrom: string;
}

export interface ResolvedDocument {
  doc: PolicyDict;
  /** Names of the ancestors, root first. */
  chain: string[];
}

export function readPolicyFile(path: string): SourceDocument {
  const absolute = resolve(path);
  if (!existsSync(absolute)) throw new PolicyNotFoundError('Policy file not found', { path: absolute });
  const text = readFileSync(absolute, 'utf8');
  const format = absolute.toLowerCase().endsWith('.json') ? 'json' : 'yaml';
  return {
    doc: parsePolicyText(text, format, absolute),
    dir: dirname(absolute),
    identity: absolute,
    loadedFrom: absolute,
  };
}

export function readProfile(name: string): SourceDocument | undefined {
  const found = findProfile(name);
  if (!found) return undefined;
  const file = readPolicyFile(found.path);
  return { ...file, identity: `profile:${found.name}`, loadedFrom: `profile:${found.name}` };
}

/** The parent an `extends` value names: a profile first, otherwise a file beside the child. */
function locateParent(target: string, dir: string): SourceDocument {
  const profile = readProfile(target);
  if (profile) return profile;
  const path = resolve(dir, target);
  if (!existsSync(path)) {
    throw new PolicyNotFoundError("Policy 'extends' names no profile and no existing file", {
      extends: target,
      path,
      profiles: listProfiles(),
    });
  }
  return readPolicyFile(path);
}

/** Validate a document, then merge it over its resolved ancestors. */
export function resolveExtends(source: SourceDocument, stack: string[] = []): ResolvedDocument {
  if (stack.includes(source.identity)) throw new PolicyExtendsCycleError([...stack, source.identity]);
  validatePolicy(source.doc, source.loadedFrom);
  const target = source.doc.extends;
  if (typeof target !== 'string' || target === '') return { doc: source.doc, chain: [] };
  const parent = resolveExtends(locateParent(target, source.dir), [...stack, source.identity]);
  const parentName = typeof parent.doc.name === 'string' ? parent.doc.name : 'custom';
  const doc = mergePolicyDicts(parent.doc, source.doc);
  if (source.doc.name === undefined) doc.name = `custom(${parentName})`;
  return { doc, chain: [...parent.chain, parentName] };
}

/** Turning policy text (YAML or JSON) into a plain document. */
import { parse as parseYaml } from 'yaml';
import { PolicyParseError, PolicyValidationError } from '../errors.js';
import { isDict, type PolicyDict } from './merge.js';

/** A document whose only top-level key is `policy` is unwrapped. */
export function unwrapPolicy(doc: unknown, source: string): PolicyDict {
  if (doc === null || doc === undefined) return {};
  if (!isDict(doc)) {
    throw new PolicyValidationError([{ path: '', message: 'a policy must be a mapping' }], source);
  }
  const keys = Object.keys(doc);
  if (keys.length === 1 && keys[0] === 'policy') {
    const inner = doc.policy;
    if (inner === null || inner === undefined) return {};
    if (!isDict(inner)) {
      throw new PolicyValidationError([{ path: 'policy', message: 'a policy must be a mapping' }], source);
    }
    return inner;
  }
  return doc;
}

/** Parse JSON (files ending in `.json`, inline strings) or YAML (everything else). */
export function parsePolicyText(text: string, format: 'json' | 'yaml', source: string): PolicyDict {
  let doc: unknown;
  try {
    doc = format === 'json' ? JSON.parse(text) : parseYaml(text);
  } catch (error) {
    throw new PolicyParseError(
      format === 'json' ? 'Policy is not valid JSON' : 'Policy is not valid YAML',
      { source, detail: error instanceof Error ? error.message : String(error) },
      error,
    );
  }
  return unwrapPolicy(doc, source);
}

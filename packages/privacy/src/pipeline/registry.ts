/**
 * The transform registry: type names, their aliases and the factories that build them.
 */
import { StrategyError, TransformOptionsError, UnknownTransformError } from '../errors.js';
import { AliasMap } from '../transforms/alias.js';
import { Annotator } from '../transforms/annotate.js';
import { Depseudonymizer } from '../transforms/depseudonymize.js';
import { SecretArgumentGuard } from '../transforms/guard-secrets.js';
import { Projection } from '../transforms/project.js';
import { Redactor } from '../transforms/redact/index.js';
import { RegexReplace } from '../transforms/regex-replace.js';
import { KeyRename } from '../transforms/rename-keys.js';
import { UntrustedTextGuard } from '../transforms/sanitize.js';
import { Substitution } from '../transforms/substitute.js';
import { TemplateField } from '../transforms/template.js';
import type { PseudonymVault, Transform } from '../types.js';

/** What the code building a pipeline (usually a policy) hands every transform. */
export interface TransformBuildContext {
  /** Used by `redact` (pseudonymize, hash), `alias`/`substitute` (pseudonym-aware) and `depseudonymize`. */
  vault?: PseudonymVault;
  /** Custom detectors (configuration mappings or compiled), added to `redact` and `guard_secrets`. */
  detectors?: readonly unknown[];
  /** Detector names switched off for `redact` and `guard_secrets`. */
  disabledDetectors?: readonly string[];
  /** Policy name, shown by `annotate` as `profile`. */
  profile?: string;
  /** Reads alias files; defaults to JSON or a small YAML subset from disk. */
  readFile?: (path: string) => unknown;
}

export type TransformFactory = (
  options: Record<string, unknown>,
  build: TransformBuildContext,
  id: string,
) => Transform;

interface Registration {
  type: string;
  factory: TransformFactory;
}

const registry = new Map<string, Registration>();
const aliases = new Map<string, string>();

/** Lower-cases a type name and turns hyphens into underscores. */
export function canonicalName(name: string): string {
  return name.trim().toLowerCase().replace(/-/g, '_');
}

/**
 * Registers a transform type (replacing any earlier one of the same name). Policies and specs
 * can then name it. The factory receives the spec's options, the build context and the id.
 */
export function registerTransform(
  type: string,
  factory: TransformFactory,
  options: { aliases?: readonly string[] } = {},
): void {
  const name = canonicalName(type);
  registry.set(name, { type: name, factory });
  aliases.set(name, name);
  for (const a of options.aliases ?? []) aliases.set(canonicalName(a), name);
}

/** The canonical type for a name or alias, or undefined. */
export function resolveTransformType(name: string): string | undefined {
  return aliases.get(canonicalName(name));
}

/** Registered canonical type names. */
export function transformTypes(): string[] {
  return [...registry.keys()].sort();
}

export function buildRegistered(
  type: string,
  options: Record<string, unknown>,
  build: TransformBuildContext,
  id: string,
): Transform {
  const canonical = resolveTransformType(type);
  const reg = canonical === undefined ? undefined : registry.get(canonical);
  if (!reg) throw new UnknownTransformError(type, transformTypes());
  try {
    return reg.factory(options, build, id);
  } catch (err) {
    if (err instanceof StrategyError) {
      throw new TransformOptionsError(reg.type, err.message, { ...err.data });
    }
    throw err;
  }
}

const vaultOnly = (b: TransformBuildContext) => (b.vault ? { vault: b.vault } : {});
const detectorContext = (b: TransformBuildContext) => ({
  ...vaultOnly(b),
  ...(b.detectors ? { detectors: b.detectors } : {}),
  ...(b.disabledDetectors ? { disabledDetectors: b.disabledDetectors } : {}),
});
const aliasContext = (b: TransformBuildContext) => ({
  ...vaultOnly(b),
  ...(b.readFile ? { readFile: b.readFile } : {}),
});

registerTransform('sanitize', (o, _b, id) => new UntrustedTextGuard(o, id), {
  aliases: ['sanitise', 'untrusted', 'untrusted_text'],
});
registerTransform('redact', (o, b, id) => new Redactor(o, detectorContext(b), id), {
  aliases: ['redaction', 'redactor', 'dlp'],
});
registerTransform('project', (o, _b, id) => new Projection(o, id), { aliases: ['projection', 'shape'] });
registerTransform('annotate', (o, b, id) => new Annotator(o, b.profile ? { profile: b.profile } : {}, id), {
  aliases: ['annotation', 'annotations', 'annotator'],
});
registerTransform('substitute', (o, b, id) => new Substitution(o, aliasContext(b), id), {
  aliases: ['substitution'],
});
registerTransform('alias', (o, b, id) => new AliasMap(o, aliasContext(b), id), { aliases: ['aliases'] });
registerTransform('regex_replace', (o, _b, id) => new RegexReplace(o, id));
registerTransform('rename_keys', (o, _b, id) => new KeyRename(o, id), { aliases: ['rename'] });
registerTransform('template', (o, _b, id) => new TemplateField(o, id), { aliases: ['templates'] });
registerTransform('depseudonymize', (o, b, id) => new Depseudonymizer(o, vaultOnly(b), id), {
  aliases: ['depseudonymise', 'depseudonymizer'],
});
registerTransform('guard_secrets', (o, b, id) => new SecretArgumentGuard(o, detectorContext(b), id), {
  aliases: ['secret_guard', 'reject_secrets'],
});

/**
 * Building running pipelines with @cloudg/privacy and adapting them to core's
 * `TransformPipeline`: one context per run (direction, principal, vault, primitive) and one report.
 */
import {
  type IdentifierSource,
  InvalidArgumentsError,
  type PipelineContext,
  type PipelineRun,
  type TransformPipeline,
  type TransformReport,
} from '@cloudg/core';
import {
  buildTransform,
  type HeldShare,
  IDENTITY,
  IdentifierLexicon,
  type KnownIdentifiers,
  Pipeline,
  PrivacyError,
  type TransformReport as PrivacyReport,
  type PseudonymVault,
  type SharedVaultStore,
  type Transform,
  type TransformBuildContext,
  type TransformContext,
} from '@cloudg/privacy';
import { primitiveOf } from '../decide/primitive.js';
import { InvalidTransformError } from '../errors.js';
import type { NormalizedSpec } from './specs.js';

/** A vault that may rewrite its file after a pass that issued pseudonyms. */
interface AutosavingVault {
  autosaveIfNeeded?(): boolean;
}

/** A vault whose mappings are settled with a store shared by several processes (TokenVault). */
export interface SharingVault {
  /** Given the store, the vault may claim parts of a pass's new mappings while the pass goes on. */
  shareWith(store?: SharedVaultStore): void;
  syncShared(store: SharedVaultStore): Promise<boolean>;
  /** A mark of what was issued so far; a vault without it discards every unsettled mapping. */
  passMark?(): number;
  /** Drop the unsettled mappings issued since `mark` (a failed pass's own). */
  discardUnclaimed(mark?: number): void;
  /** Claim the mappings it holds from its file (TokenVault); a vault without one has none. */
  shareHeld?(store: SharedVaultStore): Promise<HeldShare>;
}

/** The vault and the store it settles with after every pass. */
export interface SharedVaultBinding {
  vault: SharingVault;
  store: SharedVaultStore;
  /**
   * Settles once the mappings the vault held when it was bound (its file's) are claimed in the
   * store, which every pass waits for: none of them is used unshared. A failure is the caller's,
   * and the next caller tries again.
   */
  held(): Promise<HeldShare | undefined>;
}

/**
 * Passes run again after a sync changed the local mappings. One rerun settles the usual case
 * (another replica issued or holds the value); more only on a collision met by a second replica
 * at the same moment.
 */
const MAX_SHARED_PASSES = 4;

/**
 * The application's identifiers as the redactor reads them, built on first use (a policy that
 * keeps identifiers never builds it) and again only when the source's revision changes.
 */
class SourceLexicon implements KnownIdentifiers {
  private built: IdentifierLexicon | null = null;
  constructor(private readonly source: IdentifierSource) {}
  private get lexicon(): IdentifierLexicon {
    this.built ??= new IdentifierLexicon(this.source.knownIdentifiers());
    return this.built;
  }
  entityOf(value: string) {
    return this.lexicon.entityOf(value);
  }
  mentionsIn(text: string) {
    return this.lexicon.mentionsIn(text);
  }
  entities() {
    return this.lexicon.entities();
  }
}

const lexicons = new WeakMap<IdentifierSource, { revision: number; lexicon: SourceLexicon }>();

function lexiconOf(source: IdentifierSource): SourceLexicon {
  const cached = lexicons.get(source);
  if (cached && cached.revision === source.identifierRevision) return cached.lexicon;
  const lexicon = new SourceLexicon(source);
  lexicons.set(source, { revision: source.identifierRevision, lexicon });
  return lexicon;
}

/** Per request: the real values its input run restored from pseudonyms, for its output runs. */
const restoredByRequest = new WeakMap<object, Map<string, string>>();

function restoredOf(request: object): Map<string, string> {
  let map = restoredByRequest.get(request);
  if (!map) {
    map = new Map();
    restoredByRequest.set(request, map);
  }
  return map;
}

/** Core's view of a privacy pipeline. `isEmpty` is the privacy pipeline's own. */
export class PolicyPipeline implements TransformPipeline {
  constructor(
    readonly pipeline: Pipeline,
    private readonly policyName: string,
    private readonly vault: (PseudonymVault & AutosavingVault) | undefined,
    private readonly shared?: SharedVaultBinding,
  ) {}

  get isEmpty(): boolean {
    return this.pipeline.isEmpty;
  }

  run(value: unknown, context: PipelineContext): PipelineRun | Promise<PipelineRun> {
    return this.shared ? this.runShared(value, context, this.shared) : this.runOnce(value, context);
  }

  /**
   * Run, then settle with the shared store in one batch (pseudonyms this pass could not reveal,
   * mappings it issued); run again when that changed what the pass would produce.
   */
  private async runShared(
    value: unknown,
    context: PipelineContext,
    shared: SharedVaultBinding,
  ): Promise<PipelineRun> {
    await shared.held();
    for (let pass = 1; ; pass++) {
      let run: PipelineRun;
      // Other requests' passes share the vault and may be settling: a failed pass drops only
      // the mappings it issued (runOnce is synchronous, so those issued after the mark are its own).
      const mark = shared.vault.passMark?.();
      try {
        run = this.runOnce(value, context, false);
      } catch (error) {
        shared.vault.discardUnclaimed(mark);
        throw error;
      }
      const changed = await shared.vault.syncShared(shared.store);
      if (!changed || pass >= MAX_SHARED_PASSES) {
        // After the sync: the file then holds what the store settled, not claims that lost.
        this.vault?.autosaveIfNeeded?.();
        return run;
      }
    }
  }

  private runOnce(value: unknown, context: PipelineContext, autosave = true): PipelineRun {
    const { principal } = context;
    // The kind and identity the decision already worked out for this spec (cached per spec).
    const primitive = primitiveOf(context.spec);
    const report: PrivacyReport = {};
    const ctx: TransformContext = {
      direction: context.direction,
      report,
      principal: { id: principal.id, roles: principal.sortedRoles() },
      kind: context.kind === 'completion' ? 'completion' : primitive.kind,
      name: primitive.identity,
      category: primitive.category,
      sensitivity: primitive.sensitivity,
      policy: this.policyName,
    };
    if (this.vault) ctx.vault = this.vault;
    if (context.identifiers) ctx.identifiers = lexiconOf(context.identifiers);
    ctx.restored = restoredOf(context.request);
    let out: unknown;
    try {
      out = this.pipeline.apply(value, ctx);
    } catch (error) {
      // The secret guard refuses arguments with code -32602; core knows that as invalid arguments
      // (and then records the call as rejected).
      if (error instanceof PrivacyError && error.code === -32602) {
        throw new InvalidArgumentsError(error.message, { data: error.data, cause: error });
      }
      throw error;
    }
    if (autosave) this.vault?.autosaveIfNeeded?.();
    // Reports hold counts and labels only, which are JSON values.
    return { value: out, report: report as TransformReport };
  }
}

/**
 * Builds specs into privacy pipelines, reusing each built transform for every pipeline with the
 * same spec (transforms keep no state between calls beyond caches). Failures (an unknown type, a
 * bad option) become a InvalidTransformError naming where the specs came from.
 */
export class TransformCache {
  private readonly built = new Map<string, Transform>();

  constructor(private readonly context: TransformBuildContext) {}

  pipeline(specs: readonly NormalizedSpec[], where: string): Pipeline {
    if (specs.length === 0) return IDENTITY;
    return new Pipeline(specs.map((spec) => this.transform(spec, where)));
  }

  private transform(spec: NormalizedSpec, where: string): Transform {
    let key: string | undefined;
    try {
      key = JSON.stringify(spec);
    } catch {
      key = undefined;
    }
    // Options holding live objects (alias maps handed to the depseudonymiser) are not cached.
    const cacheable =
      key !== undefined && !(spec.type === 'depseudonymize' && spec.options.aliases !== undefined);
    const hit = cacheable ? this.built.get(key as string) : undefined;
    if (hit) return hit;
    let transform: Transform;
    try {
      transform = buildTransform({ type: spec.type, id: spec.id, options: spec.options }, this.context);
    } catch (error) {
      if (error instanceof PrivacyError) {
        throw new InvalidTransformError(
          `Invalid transform in ${where}: ${error.message}`,
          { where, code: error.code, ...error.data },
          error,
        );
      }
      throw error;
    }
    if (cacheable) this.built.set(key as string, transform);
    return transform;
  }
}

/**
 * `Policy`: @cloudg/core's policy port, implemented with profiles, rules, rate limits, the
 * decision log and transform pipelines.
 */
import {
  AccessDeniedError,
  type AnySpec,
  type AuditHasher,
  type CallCheck,
  type CallKind,
  type Capability,
  createLogger,
  type Logger,
  type McpLayerError,
  type PolicyPort,
  Principal,
  RateLimitedError,
  type Sensitivity,
  type TransformPipeline,
  UNMATCHED_URI,
} from '@cloudg/core';
import {
  type AliasMap,
  compileCustomDetector,
  type HeldShare,
  type Pipeline,
  PrivacyError,
  type SharedVaultStore,
  type TransformBuildContext,
} from '@cloudg/privacy';
import { type DecisionCounters, type DecisionEntry, DecisionLog } from './audit/decision-log.js';
import { type ArgumentHasher, createArgumentHasher, createPolicyAuditHasher } from './audit/hash.js';
import { Confirmations } from './confirm/confirmations.js';
import { compileAccessLists } from './decide/access-lists.js';
import { type Decision, decide, effectiveCeiling, type PolicyAccess } from './decide/decide.js';
import { type Primitive, primitiveOf } from './decide/primitive.js';
import { type CompiledRule, compileRules, matchingRules } from './decide/rules.js';
import { describePolicy, type PolicyDescription } from './describe.js';
import { type PolicyIssue, PolicyValidationError } from './errors.js';
import type { IntrospectedVault, IntrospectionHost } from './introspection/host.js';
import { PolicyIntrospector } from './introspection/introspection.js';
import { mergePolicyDicts, type PolicyDict } from './load/merge.js';
import { loadPolicyDocument, type PolicySourceValue, type SourceOptions } from './load/source.js';
import {
  assembleGeneric,
  assembleInput,
  assembleOutput,
  type PolicyTransforms,
} from './pipeline/assemble.js';
import { NO_HINTS, readHints } from './pipeline/hints.js';
import { EMPTY_PIPELINE } from './pipeline/pipeline.js';
import { PolicyPipeline, type SharedVaultBinding, TransformCache } from './pipeline/privacy.js';
import { bindSharedVault } from './pipeline/shared-vault.js';
import { type NormalizedSpec, normalizePolicySpec } from './pipeline/specs.js';
import { type CallPlan, PlanCache } from './plan.js';
import type { RateBucketStore } from './rate/bucket-store.js';
import { type Clock, RateLimiter } from './rate/limiter.js';
import { type CompiledLimit, compileLimit } from './rate/limits.js';
import type { PolicyCallKind, PolicyConfig } from './schema/config.js';
import { validatePolicy } from './schema/validate.js';
import { createVault } from './vault.js';

/**
 * The vault a policy's transforms use: @cloudg/privacy's `TokenVault`, or anything with the same
 * pseudonym methods. `save` and `autosaveIfNeeded` are used when present, and `entry` and `stats`
 * by the privacy tools (entity types of revealed values, vault statistics).
 */
export interface PolicyVault extends IntrospectedVault {
  save?(path?: string): string | null;
  autosaveIfNeeded?(): boolean;
}

export interface PolicyOptions extends SourceOptions {
  /** Share a vault (several layers, `derive()`); otherwise the policy builds its own. */
  vault?: PolicyVault;
  /** Parent of the audit logger. Default: core's stderr logger. */
  logger?: Logger;
  /** Monotonic seconds for the rate limiter (tests inject a fake clock). With a shared `rateStore`, pass wall-clock seconds. */
  clock?: Clock;
  /**
   * A vault store shared by several processes: the policy's vault settles every pipeline pass
   * with it, so a pseudonym issued by one replica reveals on another. The vault must be a
   * TokenVault (or anything with its sharing methods).
   */
  vaultStore?: SharedVaultStore;
  /** Where rate-limit buckets live. Default: this process's memory. A shared store makes replicas enforce one limit. */
  rateStore?: RateBucketStore;
  /** Unix seconds for decision log timestamps. */
  now?: () => number;
  /** Environment the vault reads its key from, and the audit salt (`CLOUDG_MCP_AUDIT_SALT`). Default `process.env`. */
  vaultEnv?: Readonly<Record<string, string | undefined>>;
}

const LABEL: Record<PolicyCallKind, string> = {
  tool: 'tool',
  resource: 'resource',
  resource_template: 'resource',
  prompt: 'prompt',
  completion: 'completion',
};

export class Policy implements PolicyPort {
  readonly name: string;
  readonly description: string;
  readonly config: PolicyConfig;
  readonly loadedFrom: string;
  /** Ancestors resolved through `extends`, root first. */
  readonly extendsChain: readonly string[];
  readonly vault: PolicyVault;
  private readonly sharedVault: SharedVaultBinding | undefined;
  /**
   * The keyed hash behind both audit trails: the decision log keeps 12 hex characters of it.
   * Give it to `AuditLogMiddleware` (`hasher`), whose 16 then start with those 12. Keyed by
   * `$CLOUDG_MCP_AUDIT_SALT` when set, else by a key derived from the vault's hash key.
   */
  readonly auditHasher: AuditHasher;
  /** What the catalog's privacy tools show: status, previews, detectors, the decision log, reveal. */
  readonly introspection: PolicyIntrospector;
  /** The merged document as written (before defaults), the base of `derive()`. */
  private readonly document: PolicyDict;
  private readonly options: PolicyOptions;
  private readonly rules: CompiledRule[];
  /** The `confirm` entries: calls asked about before they run. */
  private readonly confirmations: Confirmations;
  private readonly access: PolicyAccess;
  private readonly policyLimits: CompiledLimit[];
  private readonly ruleLimits: Map<CompiledRule, CompiledLimit[]>;
  private readonly transforms: PolicyTransforms;
  private readonly plans: PlanCache;
  private readonly limiter: RateLimiter;
  private readonly log: DecisionLog;
  private readonly hashArguments: ArgumentHasher;
  private readonly built: TransformCache;
  private readonly buildContext: TransformBuildContext;
  private readonly auditLogger: Logger;
  /** Arguments of each caller's latest allowed call, hashed only if the input pipeline refuses it. */
  private readonly lastAllowed = new WeakMap<Principal, { spec: AnySpec; args: Record<string, unknown> }>();

  /** Load a policy from anything section 5.1 accepts; a Policy is returned as is. */
  static load(source?: Policy | PolicySourceValue, options: PolicyOptions = {}): Policy {
    if (source instanceof Policy) return source;
    const loaded = loadPolicyDocument(source, options);
    return new Policy(loaded.doc, { loadedFrom: loaded.loadedFrom, extendsChain: loaded.chain }, options);
  }

  /** A built-in profile by name (hyphens and underscores alike). */
  static fromProfile(name: string, options: PolicyOptions = {}): Policy {
    return Policy.load(name, options);
  }

  private constructor(
    document: PolicyDict,
    origin: { loadedFrom: string; extendsChain: readonly string[] },
    options: PolicyOptions,
  ) {
    const config = validatePolicy(document, origin.loadedFrom);
    this.document = document;
    this.config = config;
    this.options = options;
    this.name = config.name;
    this.description = config.description;
    this.loadedFrom = origin.loadedFrom;
    this.extendsChain = [...origin.extendsChain];
    this.rules = compileRules(config);
    this.confirmations = new Confirmations(config.confirm);
    const lists = compileAccessLists(config);
    const allowed = new Set(config.allow_capabilities);
    this.access = {
      name: config.name,
      lists,
      deniedCapabilities: new Set(config.deny_capabilities.filter((c) => !allowed.has(c))),
    };
    this.policyLimits = config.rate_limits.map((limit, i) => compileLimit(limit, `policy[${i}]`));
    this.ruleLimits = new Map(
      this.rules.map((rule, r) => [
        rule,
        rule.config.rate_limits.map((limit, i) => compileLimit(limit, `rule[${r}][${i}]`)),
      ]),
    );
    this.transforms = {
      transforms: config.transforms.map(normalizePolicySpec),
      inputTransforms: config.input_transforms.map(normalizePolicySpec),
      transformOptions: config.transform_options,
      honorHints: config.honor_hints,
    };
    this.plans = new PlanCache(this.rules.some((rule) => rule.usesPrincipalId));
    this.limiter = new RateLimiter(options.clock, options.rateStore);
    this.vault = options.vault ?? createVault(config.vault, options.vaultEnv);
    this.sharedVault = bindSharedVault(this.vault, options.vaultStore);
    const logger = (options.logger ?? createLogger()).child({ logger: 'cloudg.audit' });
    this.auditLogger = logger;
    this.log = new DecisionLog({
      size: config.audit_size,
      audit: config.audit,
      logger,
      policyName: config.name,
      ...(options.now ? { now: options.now } : {}),
    });
    this.auditHasher = createPolicyAuditHasher(this.vault, options.vaultEnv ?? process.env);
    this.hashArguments = createArgumentHasher(this.auditHasher);
    const context: TransformBuildContext = {
      vault: this.vault,
      detectors: config.detectors,
      disabledDetectors: config.disabled_detectors,
      profile: config.name,
    };
    this.buildContext = context;
    this.built = new TransformCache(context);
    this.checkTransforms();
    this.introspection = new PolicyIntrospector(this.introspectionHost());
  }

  /** The introspection modules' view of this policy (section 14 of the privacy reference). */
  private introspectionHost(): IntrospectionHost {
    const policy = this;
    return {
      name: this.name,
      description: this.description,
      loadedFrom: this.loadedFrom,
      extendsChain: this.extendsChain,
      config: this.config,
      vault: this.vault,
      auditLogger: this.auditLogger,
      get counters() {
        return policy.counters;
      },
      get auditLog() {
        return policy.auditLog;
      },
      maxSensitivityFor: (principal) => this.maxSensitivityFor(principal),
      deniedCapabilitiesFor: (principal) => this.deniedCapabilitiesFor(principal),
      genericPipeline: (principal) => {
        const specs = this.genericSpecs(principal);
        return { specs, pipeline: this.build(specs, 'the generic pipeline') };
      },
      outputSpecs: (spec, principal) => this.transformPlan(spec, principal).output,
      buildWith: (vault, specs) =>
        new TransformCache({ ...this.buildContext, vault }).pipeline(specs, 'a preview pipeline'),
      callerAliases: (principal) => this.callerAliases(principal),
      hashArgument: (name, value) => this.hashArguments({ [name]: value })[name] ?? '',
      describe: () => this.describe(),
    };
  }

  /**
   * Alias tables of every output pipeline the caller can get: the policy's transforms plus those
   * of every rule that matches the caller, whatever primitive the rule is about, with the
   * caller's options. Revealing reverses them, since any of them may have shaped what was shown.
   */
  private callerAliases(principal: Principal): AliasMap[] {
    const rules = this.rules.filter((rule) => rule.matchesCaller(principal)).map((rule) => rule.config);
    const transforms = [
      ...this.transforms.transforms,
      ...rules.flatMap((r) => r.transforms.map(normalizePolicySpec)),
    ];
    const specs = assembleGeneric({ ...this.transforms, transforms }, rules).filter(
      (s) => s.type === 'alias' || s.type === 'substitute',
    );
    return this.build(specs, 'the alias tables').aliasMaps();
  }

  /**
   * Compile the custom detectors and build every transform the policy names once, so a bad
   * detector, an unknown transform type or a bad option fails at load time: the policy's own
   * lists and those of each role and rule. (`transform_options` are merged per call and checked
   * when a pipeline is first assembled.)
   */
  private checkTransforms(): void {
    const issues: PolicyIssue[] = [];
    const names = new Set<string>();
    this.config.detectors.forEach((detector, i) => {
      try {
        const { name } = compileCustomDetector(detector);
        if (names.has(name))
          issues.push({
            path: `detectors[${i}].name`,
            message: 'a detector with this name is defined twice',
          });
        names.add(name);
      } catch (error) {
        if (!(error instanceof PrivacyError)) throw error;
        issues.push({ path: `detectors[${i}]`, message: error.message });
      }
    });
    if (issues.length > 0) throw new PolicyValidationError(issues, this.loadedFrom);
    this.build(this.transforms.transforms, 'transforms');
    this.build(this.transforms.inputTransforms, 'input_transforms');
    for (const rule of this.rules) {
      this.build(rule.config.transforms.map(normalizePolicySpec), `the transforms of '${rule.name}'`);
      this.build(
        rule.config.input_transforms.map(normalizePolicySpec),
        `the input_transforms of '${rule.name}'`,
      );
    }
  }

  private build(specs: readonly NormalizedSpec[], where: string): Pipeline {
    return this.built.pipeline(specs, where);
  }

  private wrap(pipeline: Pipeline): TransformPipeline {
    return pipeline.isEmpty
      ? EMPTY_PIPELINE
      : new PolicyPipeline(pipeline, this.name, this.vault, this.sharedVault);
  }

  // ---- decisions ---------------------------------------------------------------------------

  private plan(spec: AnySpec, principal: Principal): CallPlan {
    return this.plans.get(spec, principal, () => {
      const primitive = primitiveOf(spec);
      const rules = matchingRules(this.rules, principal, primitive);
      const limits = [...this.policyLimits, ...rules.flatMap((rule) => this.ruleLimits.get(rule) ?? [])];
      return { primitive, rules, limits, decision: decide(this.access, rules, primitive) };
    });
  }

  /** Whether the principal may use the primitive, and why not. Cached per primitive and role set. */
  decide(spec: AnySpec, principal: Principal = Principal.local()): Decision {
    return this.plan(spec, principal).decision;
  }

  isAllowed(spec: AnySpec, principal: Principal): boolean {
    return !this.config.hide_denied || this.plan(spec, principal).decision.allowed;
  }

  /** The question the policy's `confirm` entries ask before this call, if any. */
  confirmation(spec: AnySpec, _principal: Principal, call: CallCheck): string | undefined {
    return this.confirmations.question(spec, call);
  }

  checkCall(spec: AnySpec, principal: Principal, call: CallCheck): void | Promise<void> {
    const plan = this.plan(spec, principal);
    const { primitive } = plan;
    const kind: PolicyCallKind = call.kind === 'completion' ? 'completion' : primitive.kind;
    if (!plan.decision.allowed) {
      const reason = plan.decision.reason;
      this.log.record('denied', this.entryFields(kind, primitive, principal, call.arguments, reason));
      throw new AccessDeniedError(`Access to ${primitive.family} '${primitive.identity}' denied: ${reason}`, {
        data: { policy: this.name, reason },
      });
    }
    const refused = (error: unknown): never => {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.record('rate_limited', this.entryFields(kind, primitive, principal, call.arguments, reason));
      throw error;
    };
    let pending: Promise<void> | undefined;
    try {
      const taken = this.limiter.acquire(plan.limits, {
        principalId: principal.id,
        identity: primitive.identity,
        kind,
        label: LABEL[kind],
      });
      if (taken instanceof Promise) pending = taken;
    } catch (error) {
      refused(error);
    }
    // A shared bucket store answers later; the in-process one keeps the whole check synchronous.
    if (pending) {
      return pending.then(
        () => this.recordAllowed(spec, kind, primitive, principal, call),
        (error: unknown) => {
          // Only a refusal is a rate_limited decision; a store that could not answer is not one.
          if (error instanceof RateLimitedError) refused(error);
          throw error;
        },
      );
    }
    this.recordAllowed(spec, kind, primitive, principal, call);
  }

  private recordAllowed(
    spec: AnySpec,
    kind: PolicyCallKind,
    primitive: Primitive,
    principal: Principal,
    call: CallCheck,
  ): void {
    const reveal = primitive.capabilities.has('reveal');
    if (this.config.audit || reveal) {
      // A reveal is always on the record, and says so (the reason the decision log shows).
      const fields = this.entryFields(
        kind,
        primitive,
        principal,
        call.arguments,
        reveal ? 'reveal' : undefined,
      );
      const entry = this.log.record('allowed', fields);
      if (reveal) this.log.warnReveal(entry);
    } else {
      this.log.counters.allowed++;
    }
    this.lastAllowed.set(principal, { spec, args: call.arguments });
  }

  recordHidden(kind: CallKind, name: string, principal: Principal): void {
    // A resource URI is the caller's text and may carry asset references: it is hashed like an
    // argument, under `uri`, and the entry is named by a fixed marker instead.
    const uri = kind === 'resource';
    this.log.record('not_found', {
      kind,
      name: uri ? UNMATCHED_URI : name,
      principal: principal.id,
      roles: principal.sortedRoles(),
      arguments: uri ? this.hashArguments({ uri: name }) : {},
      reason: 'unknown or hidden by policy',
    });
  }

  recordRejection(spec: AnySpec, principal: Principal, error: McpLayerError): void {
    const primitive = primitiveOf(spec);
    const last = this.lastAllowed.get(principal);
    const args = last?.spec === spec ? last.args : {};
    this.log.reject(this.entryFields(primitive.kind, primitive, principal, args, error.message));
  }

  private entryFields(
    kind: PolicyCallKind,
    primitive: Primitive,
    principal: Principal,
    args: Record<string, unknown>,
    reason?: string,
  ): Omit<DecisionEntry, 'ts' | 'decision'> {
    const fields: Omit<DecisionEntry, 'ts' | 'decision'> = {
      kind,
      name: primitive.identity,
      principal: principal.id,
      roles: principal.sortedRoles(),
      arguments: this.hashArguments(args),
    };
    if (reason !== undefined) fields.reason = reason;
    return fields;
  }

  /** The decision log, oldest first. */
  get auditLog(): DecisionEntry[] {
    return this.log.entries();
  }

  get counters(): Readonly<DecisionCounters> {
    return { ...this.log.counters };
  }

  /** Empty every rate-limit bucket. */
  resetRateLimits(): void | Promise<void> {
    return this.limiter.reset();
  }

  /** The ceiling that applies to a caller with no primitive in view (caller-only rules). */
  maxSensitivityFor(principal: Principal = Principal.local()): Sensitivity | null {
    return effectiveCeiling(this.access, matchingRules(this.rules, principal, undefined));
  }

  /** Capabilities denied to a caller once the grants of its caller-only rules are applied. */
  deniedCapabilitiesFor(principal: Principal = Principal.local()): Capability[] {
    const rules = matchingRules(this.rules, principal, undefined);
    const denied = new Set<Capability>(this.access.deniedCapabilities);
    for (const rule of rules) for (const c of rule.access.allowCapabilities) denied.delete(c);
    for (const rule of rules) for (const c of rule.access.denyCapabilities) denied.add(c);
    return [...denied].sort();
  }

  // ---- pipelines ---------------------------------------------------------------------------

  /** Assemble and build the output side of a plan, and the input specs that depend on it. */
  private outputOf(plan: CallPlan, spec: AnySpec): Pipeline {
    if (!plan.outputBuilt) {
      const hints = spec.kind === 'tool' ? readHints(spec.transformHints) : NO_HINTS;
      const rules = plan.rules.map((r) => r.config);
      const output = assembleOutput(this.transforms, rules, hints);
      const built = this.build(output.specs, `the output pipeline of '${plan.primitive.identity}'`);
      plan.outputSpecs = output.specs;
      plan.inputSpecs = assembleInput(this.transforms, rules, hints, {
        honorHints: output.honorHints,
        needsDepseudonymizer: built.needsDepseudonymizer(),
      });
      plan.outputBuilt = built;
    }
    return plan.outputBuilt;
  }

  /** The transform specs a caller's calls of a primitive go through, for inspection and previews. */
  transformPlan(
    spec: AnySpec,
    principal: Principal = Principal.local(),
  ): { output: NormalizedSpec[]; input: NormalizedSpec[] } {
    const plan = this.plan(spec, principal);
    this.outputOf(plan, spec);
    return { output: plan.outputSpecs ?? [], input: plan.inputSpecs ?? [] };
  }

  outputPipeline(spec: AnySpec, principal: Principal): TransformPipeline {
    const plan = this.plan(spec, principal);
    if (!plan.output) plan.output = this.wrap(this.outputOf(plan, spec));
    return plan.output;
  }

  inputPipeline(spec: AnySpec, principal: Principal): TransformPipeline {
    const plan = this.plan(spec, principal);
    if (!plan.input) {
      const output = this.outputOf(plan, spec);
      // The depseudonymiser also reverses the aliases the output side shows.
      const aliases = output.aliasMaps();
      const specs = (plan.inputSpecs ?? []).map((s) =>
        s.type === 'depseudonymize' && s.options.aliases === undefined && aliases.length > 0
          ? { ...s, options: { ...s.options, aliases } }
          : s,
      );
      plan.input = this.wrap(this.build(specs, `the input pipeline of '${plan.primitive.identity}'`));
    }
    return plan.input;
  }

  /** Specs of the generic pipeline (no primitive): the policy's transforms with caller-level options. */
  genericSpecs(principal: Principal = Principal.local()): NormalizedSpec[] {
    const rules = matchingRules(this.rules, principal, undefined).map((r) => r.config);
    return assembleGeneric(this.transforms, rules);
  }

  /**
   * The generic pipeline, for work with no primitive (previews, status). Runs need a spec in
   * their context; pass the tool doing the preview.
   */
  genericPipeline(principal: Principal = Principal.local()): TransformPipeline {
    return this.wrap(this.build(this.genericSpecs(principal), 'the generic pipeline'));
  }

  // ---- vault, derive, describe -------------------------------------------------------------

  /**
   * With a shared `vaultStore`: claim there the mappings the vault loaded from its file, where the
   * store's own win (counts of what was kept, replaced and dropped; never values). Made once per
   * vault; every pipeline waits for it, so a server awaits it at start to fail there rather than
   * on its first call. Undefined without a shared store.
   */
  shareVaultFile(): Promise<HeldShare | undefined> {
    return this.sharedVault ? this.sharedVault.held() : Promise.resolve(undefined);
  }

  /** Persist the vault; the written path, or null when the vault has no path (or there is none). */
  saveVault(path?: string): string | null {
    return this.vault.save ? this.vault.save(path) : null;
  }

  /** A new policy with `overrides` merged on top by the `extends` rules; it shares this vault. */
  derive(overrides: PolicyDict = {}): Policy {
    const document = mergePolicyDicts(this.document, overrides);
    const name = typeof document.name === 'string' ? document.name : this.name;
    const options: PolicyOptions = { ...this.options, vault: this.vault };
    return new Policy(
      document,
      { loadedFrom: `derived:${name}`, extendsChain: [...this.extendsChain, this.name] },
      options,
    );
  }

  /** What the policy is and where it came from; the vault key is never shown. */
  describe(): PolicyDescription {
    return describePolicy(this.config, {
      loadedFrom: this.loadedFrom,
      extendsChain: this.extendsChain,
      effectiveDenied: this.access.deniedCapabilities,
      ruleNames: this.rules.slice(Object.keys(this.config.roles).length).map((r) => r.name),
      transforms: this.transforms,
    });
  }

  /** The merged document as written, before defaults (what `derive()` starts from). */
  toDocument(): PolicyDict {
    return structuredClone(this.document);
  }
}

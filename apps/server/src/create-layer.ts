/**
 * Building a layer the way `cloudg-mcp` does: the policy, the catalog over a workspace with the
 * operator's datasets preloaded, the filters, and the middleware stack of MCP.md 14.1.
 */

import { resolve } from 'node:path';
import {
  type CloudgConfig,
  type CloudgEngine,
  configureLive,
  createCatalogLayer,
  defaultRegistry,
  loadCloudgConfig,
  restoreLiveDatasets,
  type SharedWorkspace,
  Workspace,
} from '@cloudg/catalog';
import {
  AuditLogMiddleware,
  CachingMiddleware,
  ConcurrencyLimitMiddleware,
  type Layer,
  type Logger,
  MetricsMiddleware,
  type Middleware,
  type Registry,
  registerMetricsResource,
} from '@cloudg/core';
import { Policy, type PolicySourceValue } from '@cloudg/policy';
import type { RedisSharedState } from '@cloudg/redis';
import type { Registry as PrometheusRegistry } from 'prom-client';
import { DatasetSpecError, parseDatasetSpec } from './dataset-spec.js';
import { createPrometheusRegistry } from './prometheus.js';
import { readOnlyRegistry } from './read-only.js';
import { sharedWorkspace, shareLiveGuard, vaultSealer } from './shared-workspace.js';
import { SERVER_VERSION } from './version.js';

export interface ServerLayerOptions {
  /**
   * The cloudg config: a `config.yaml` path (relative to `cwd`, loaded with `loadCloudgConfig`)
   * or a parsed `CloudgConfig`. Default `defaultCloudgConfig()`. Used only to build the
   * workspace, so it is ignored when `workspace` is given.
   */
  config?: string | CloudgConfig;
  /** A Policy, a profile name, a policy file, inline JSON or a plain object. Default: `CLOUDG_MCP_POLICY`, else `standard`. */
  policy?: Policy | PolicySourceValue;
  /**
   * Datasets to preload, as `[NAME=]PATH`. The operator chose them, so they are loaded even
   * outside the allowed roots; the roots only restrict what tools may open.
   */
  datasets?: readonly string[];
  prefix?: string;
  includeCategories?: readonly string[];
  excludeCategories?: readonly string[];
  includeTools?: readonly string[];
  excludeTools?: readonly string[];
  /** Drop tools that write files, reach cloud APIs, run programs or are destructive. */
  readOnly?: boolean;
  /** JSONL audit trail (mode 0600). */
  auditLog?: string;
  /** Seconds; caches read-only idempotent tools. Off by default. */
  cacheTtl?: number;
  /**
   * State shared with other replicas (`--redis-url`): rate-limit buckets, the vault's mappings,
   * the response cache and the workspace's operations live there (the vault key must be set and
   * the same on every replica). Needs `policy` as a source, not a built Policy, since
   * the policy is built around the shared stores. Closed by `closeShared()`.
   */
  sharedState?: RedisSharedState;
  /** Seconds every replica agrees on, for shared rate limits. Default wall-clock seconds; tests inject one. */
  sharedClock?: () => number;
  /** Cap on concurrent tool calls. Off by default. */
  maxConcurrency?: number;
  /** A custom registry instead of the built-in catalog. */
  registry?: Registry<Workspace>;
  /**
   * The live collection engine (a cloud collectors package, or an embedder's own). With one, the
   * built-in registry serves map_inventory, collect_assets and run_pipeline; without one, those
   * tools are not registered. Ignored with a custom `registry`.
   */
  engine?: CloudgEngine;
  /** Register run_scanners (local scanner programs). Default true; ignored with a custom `registry`. */
  scanners?: boolean;
  /**
   * Keep live datasets across restarts: save each collection under `<output_dir>/live/` and load
   * the saved ones now. Off by default (the files hold the estate as collected).
   */
  restoreLive?: boolean;
  /** Added innermost, after the built-in stack. */
  middleware?: Middleware<Workspace>[];
  /** Seconds; 0 disables. Default 300. */
  defaultTimeout?: number;
  /** Indent the JSON of tool result text (and other JSON rendered as text). Default compact. */
  prettyJson?: boolean;
  workspace?: Workspace;
  allowedRoots?: readonly string[];
  /** Where export tools write; wins over the config's `report.output_dir`. */
  outputDir?: string;
  /** Where finding suppressions are kept across restarts; wins over the config's `state.dir`. */
  stateDir?: string;
  cwd?: string;
  logger?: Logger;
  name?: string;
  instructions?: string;
}

export interface ServerLayer {
  layer: Layer<Workspace>;
  workspace: Workspace;
  policy: Policy;
  metrics: MetricsMiddleware;
  cache: CachingMiddleware | undefined;
  audit: AuditLogMiddleware | undefined;
  /**
   * The Prometheus registry of this server (default process metrics, and the layer's calls from
   * `metrics`), made on first use: `serve` hands it to the HTTP server's `/metrics`.
   */
  prometheus(): PrometheusRegistry;
  /** Save the vault (when the policy has a path) and close the audit log. Returns the vault path written, if any. */
  close(): string | null;
  /** The shared state this layer was built on, if any. */
  sharedState: RedisSharedState | undefined;
  /** This replica's side of the workspace shared through `sharedState`, if any. */
  sharedWorkspace: SharedWorkspace | undefined;
  /** Close the connection to the shared state (after `close()`); nothing without one. */
  closeShared(): Promise<void>;
}

/** A path is read now, so a bad file stops start-up with CloudgConfigError before anything runs. */
function configFrom(config: string | CloudgConfig, cwd: string | undefined): CloudgConfig {
  return typeof config === 'string' ? loadCloudgConfig(resolve(cwd ?? process.cwd(), config)) : config;
}

/**
 * The files this server writes: the audit log and the policy's vault file. Both are opened
 * relative to the process's working directory, so they are resolved against it here.
 */
function ownFiles(policy: Policy, auditLog: string | undefined): string[] {
  const vault = policy.vault as { readonly path?: unknown };
  const paths = [auditLog, policy.config.vault.path, typeof vault.path === 'string' ? vault.path : undefined];
  return paths.filter((p): p is string => typeof p === 'string' && p !== '').map((p) => resolve(p));
}

/**
 * Before anything is served: the mappings the vault loaded from its file (`vault.path`) are
 * claimed in Redis, so they reveal on every replica and their values keep one pseudonym. Where
 * another replica filed the values first, this one takes the shared mappings and says so, in
 * counts (a warning is all the operator needs: the file is rewritten at the next save).
 */
async function shareVaultFile(policy: Policy, logger: Logger | undefined): Promise<void> {
  const held = await policy.shareVaultFile();
  if (!held || held.held === 0) return;
  if (held.replaced === 0 && held.dropped === 0) {
    logger?.info({ held: held.held }, "the vault file's mappings are in the shared vault in Redis");
    return;
  }
  logger?.warn(
    { held: held.held, kept: held.kept, replaced: held.replaced, dropped: held.dropped },
    'the vault file disagrees with the shared vault in Redis: this replica took the shared pseudonyms (replaced), and forgot the mappings it would no longer issue as they were (dropped, derived again on use)',
  );
}

/** Preload one `[NAME=]PATH`; a file that does not load is reported with the value that named it. */
async function preloadDataset(workspace: Workspace, value: string, cwd: string | undefined): Promise<void> {
  const spec = parseDatasetSpec(value, cwd);
  try {
    await workspace.preload(spec.path, spec.name ? { name: spec.name } : {});
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatasetSpecError(`Cannot load dataset ${value}: ${reason}`, { value, reason, cause: error });
  }
}

export async function createLayerFromOptions(options: ServerLayerOptions = {}): Promise<ServerLayer> {
  // The policy's decision log writes through the same logger as the layer, at the same level.
  const shared = options.sharedState;
  if (shared && options.policy instanceof Policy) {
    throw new TypeError(
      'sharedState needs the policy as a source (a profile, file or object), not a built Policy',
    );
  }
  const policy =
    options.policy instanceof Policy
      ? options.policy
      : Policy.load(options.policy, {
          ...(options.cwd ? { cwd: options.cwd } : {}),
          ...(options.logger ? { logger: options.logger } : {}),
          // Shared buckets need one clock for every replica: wall-clock seconds, not a monotonic one.
          ...(shared
            ? {
                rateStore: shared.rateStore,
                vaultStore: shared.vaultStore,
                clock: options.sharedClock ?? (() => Date.now() / 1000),
              }
            : {}),
        });
  const workspace =
    options.workspace ??
    new Workspace({
      ...(options.config !== undefined ? { config: configFrom(options.config, options.cwd) } : {}),
      ...(options.allowedRoots ? { allowedRoots: options.allowedRoots } : {}),
      ...(options.outputDir ? { outputDir: options.outputDir } : {}),
      ...(options.stateDir ? { stateDir: options.stateDir } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
    });
  // The server's own files are never read back as datasets, by a tool or by --dataset.
  for (const path of ownFiles(policy, options.auditLog)) workspace.protect(path);
  for (const value of options.datasets ?? []) await preloadDataset(workspace, value, options.cwd);
  // Every replica preloads its own --dataset values, then applies what the others did since.
  const sealer = shared ? vaultSealer(policy) : undefined;
  if (shared) await shareVaultFile(policy, options.logger);
  const follower = shared && sealer ? sharedWorkspace(workspace, sealer, shared, options.logger) : undefined;
  await follower?.start();
  if (shared && sealer) {
    shareLiveGuard(workspace, sealer, shared);
    // Cached results, sessions and changes name real assets: sealed in Redis like everything
    // else about the estate.
    shared.sealWith(sealer);
  }

  if (options.restoreLive) {
    configureLive(workspace, { persist: true });
    // After the shared workspace started: it then leaves the log's own files alone (the log
    // already brought back the collections still in effect) and restores only this replica's.
    const restored = await restoreLiveDatasets(workspace);
    for (const skipped of restored.skipped)
      options.logger?.warn({ file: skipped.file, reason: skipped.reason }, 'saved live dataset not restored');
  }

  let registry =
    options.registry ??
    defaultRegistry({
      live: { ...(options.engine ? { engine: options.engine } : {}), scanners: options.scanners ?? true },
    });
  if (options.readOnly) registry = readOnlyRegistry(registry);

  const stack: Middleware<Workspace>[] = [];
  // The policy's hasher: the decision log's 12-hex hashes are then prefixes of the audit log's 16.
  const audit = options.auditLog
    ? new AuditLogMiddleware({ path: options.auditLog, hasher: policy.auditHasher })
    : undefined;
  if (audit) stack.push(audit.middleware);
  const metrics = new MetricsMiddleware();
  stack.push(metrics.middleware);
  if (options.maxConcurrency)
    stack.push(new ConcurrencyLimitMiddleware({ limit: options.maxConcurrency }).middleware);
  const cache = options.cacheTtl
    ? new CachingMiddleware({ ttl: options.cacheTtl, ...(shared ? { store: shared.cacheStore } : {}) })
    : undefined;
  // Before the cache: a call catches up with the shared workspace before any answer is chosen.
  if (follower) stack.push(follower.middleware);
  if (cache) stack.push(cache.middleware);
  stack.push(...(options.middleware ?? []));

  // The catalog's own composition: the workspace as `ctx.app`, its changes forwarded to the layer.
  const layer = createCatalogLayer({
    workspace,
    policy,
    registry,
    middleware: stack,
    version: SERVER_VERSION,
    ...(options.includeCategories ? { includeCategories: options.includeCategories } : {}),
    ...(options.excludeCategories ? { excludeCategories: options.excludeCategories } : {}),
    ...(options.includeTools ? { includeTools: options.includeTools } : {}),
    ...(options.excludeTools ? { excludeTools: options.excludeTools } : {}),
    ...(options.prefix !== undefined ? { prefix: options.prefix } : {}),
    ...(options.defaultTimeout !== undefined ? { defaultTimeout: options.defaultTimeout } : {}),
    ...(options.prettyJson ? { prettyJson: true } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.name ? { name: options.name } : {}),
    ...(options.instructions ? { instructions: options.instructions } : {}),
  });
  // Metrics are always on, and so is their resource.
  registerMetricsResource(layer, metrics);
  cache?.attach(layer);

  let closed = false;
  let prometheus: PrometheusRegistry | undefined;
  return {
    layer,
    workspace,
    policy,
    metrics,
    cache,
    audit,
    prometheus() {
      prometheus ??= createPrometheusRegistry(metrics);
      return prometheus;
    },
    sharedState: shared,
    sharedWorkspace: follower,
    async closeShared() {
      follower?.stop();
      await shared?.close();
    },
    close() {
      if (closed) return null;
      closed = true;
      audit?.close();
      return policy.saveVault();
    },
  };
}

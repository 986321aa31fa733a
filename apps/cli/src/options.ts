/**
 * From the flags of the layer commands (layer-flags.ts) to server options: paths checked, policy,
 * config, registry and engine loaded, so that a bad value stops the command with status 2.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type CloudgConfig,
  CloudgConfigError,
  type CloudgEngine,
  loadCloudgConfig,
  sampleEstateDir,
  type Workspace,
} from '@cloudg/catalog';
import { type Logger, Principal, Registry } from '@cloudg/core';
import { Policy, PolicyError } from '@cloudg/policy';
import { DatasetSpecError, parseDatasetSpec, type ServerLayerOptions } from '@cloudg/server';
import { CliError } from './cli-error.js';
import type { CliIo } from './io.js';
import { type LayerFlags, SAMPLE_DATASET_NAME } from './layer-flags.js';
import { cliLogger } from './logging.js';

/** `NAME=PATH` of the bundled sample estate's inventory map. */
export function sampleEstateSpec(): string {
  return `${SAMPLE_DATASET_NAME}=${join(sampleEstateDir(), 'inventory', 'inventory-map.json')}`;
}

/** Without --role and --principal-id: the local user. With either: `cli` / `default` filled in. */
export function principalFrom(flags: Pick<LayerFlags, 'role' | 'principalId'>): Principal {
  if (!flags.role?.length && !flags.principalId) return Principal.local();
  return new Principal({
    id: flags.principalId ?? 'cli',
    roles: flags.role?.length ? flags.role : ['default'],
  });
}

/** `MODULE:ATTR`: a module path (relative to the working directory) or package, and an export. */
export async function loadRegistry(spec: string, cwd: string): Promise<Registry<Workspace>> {
  const colon = spec.lastIndexOf(':');
  const hasAttr = colon > 0 && !/^[A-Za-z]:[\\/]/.test(spec.slice(colon - 1));
  const modulePart = hasAttr ? spec.slice(0, colon) : spec;
  const attr = hasAttr ? spec.slice(colon + 1) : 'defaultRegistry';
  const target =
    modulePart.startsWith('.') || isAbsolute(modulePart)
      ? pathToFileURL(resolve(cwd, modulePart)).href
      : modulePart;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(target)) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(
      `Invalid value for --registry: cannot import the module (${(error as Error).message})`,
      2,
    );
  }
  let value = mod[attr];
  if (typeof value === 'function' && !(value instanceof Registry)) value = await (value as () => unknown)();
  if (!(value instanceof Registry)) {
    throw new CliError(
      `Invalid value for --registry: '${attr}' is not a Registry or a function returning one`,
      2,
    );
  }
  return value as Registry<Workspace>;
}

/**
 * `--engine MODULE:ATTR`: import a live collection engine (an object with `mapInventory` and
 * `collect`, or a function returning one), as `--registry` imports a registry.
 */
export async function loadEngine(spec: string, cwd: string): Promise<CloudgEngine> {
  const colon = spec.lastIndexOf(':');
  const hasAttr = colon > 0 && !/^[A-Za-z]:[\\/]/.test(spec.slice(colon - 1));
  const modulePart = hasAttr ? spec.slice(0, colon) : spec;
  const attr = hasAttr ? spec.slice(colon + 1) : 'engine';
  const target =
    modulePart.startsWith('.') || isAbsolute(modulePart)
      ? pathToFileURL(resolve(cwd, modulePart)).href
      : modulePart;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(target)) as Record<string, unknown>;
  } catch (error) {
    throw new CliError(
      `Invalid value for --engine: cannot import the module (${(error as Error).message})`,
      2,
    );
  }
  let value = mod[attr];
  if (typeof value === 'function') value = await (value as () => unknown)();
  const engine = value as Partial<CloudgEngine> | null | undefined;
  if (typeof engine?.mapInventory !== 'function' || typeof engine.collect !== 'function') {
    throw new CliError(
      `Invalid value for --engine: '${attr}' is not an engine (mapInventory and collect) or a function returning one`,
      2,
    );
  }
  return engine as CloudgEngine;
}

/**
 * `-c/--config`: read and validate the file now, so a bad one stops the command with status 2
 * before a layer is built or a port is bound. Every problem is named by its path in the file.
 */
export function loadConfigOption(path: string, cwd: string): CloudgConfig {
  try {
    return loadCloudgConfig(resolve(cwd, path));
  } catch (error) {
    if (!(error instanceof CloudgConfigError)) throw error;
    const problems = error.data.problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message));
    throw new CliError(`Invalid value for --config: ${problems.join('; ')}`, 2);
  }
}

/**
 * Check a `--dataset` value before anything loads: a usable `[NAME=]PATH` whose path exists. The
 * message names the option, the value as typed and the path it resolved to.
 */
export function checkDatasetOption(value: string, cwd: string): string {
  let path: string;
  try {
    path = parseDatasetSpec(value, cwd).path;
  } catch (error) {
    if (error instanceof DatasetSpecError)
      throw new CliError(`Invalid value for --dataset ${value}: ${error.message}`, 2);
    throw error;
  }
  if (!existsSync(path))
    throw new CliError(`Invalid value for --dataset ${value}: ${path} does not exist`, 2);
  return path;
}

/**
 * `--policy` (or CLOUDG_MCP_POLICY): loaded now, so a bad one stops the command with status 2
 * and a message that says what would have worked.
 */
export function loadPolicyOption(flag: string | undefined, io: CliIo, logger: Logger): Policy {
  const fromEnv = flag === undefined ? io.env.CLOUDG_MCP_POLICY?.trim() || undefined : undefined;
  const source = flag ?? fromEnv ?? 'standard';
  const option = flag === undefined && fromEnv !== undefined ? 'CLOUDG_MCP_POLICY' : '--policy';
  try {
    return Policy.load(source, { cwd: io.cwd, logger });
  } catch (error) {
    if (!(error instanceof PolicyError)) throw error;
    const data = error.data as { profiles?: unknown; path?: unknown; extends?: unknown };
    const profiles = Array.isArray(data.profiles) ? data.profiles.join(', ') : '';
    let reason = error.message;
    if (error.code === 'policy_not_found' && data.extends === undefined && profiles) {
      reason = `'${source}' is not a built-in profile (${profiles}), an existing .yaml/.yml/.json file or inline JSON`;
    } else if (
      error.code === 'policy_not_found' &&
      typeof data.path === 'string' &&
      data.extends === undefined
    ) {
      reason = `${data.path} does not exist`;
    } else if (profiles) {
      reason = `${error.message} (built-in profiles: ${profiles})`;
    }
    throw new CliError(`Invalid value for ${option}: ${reason}`, 2);
  }
}

export interface LayerOptionsContext {
  /**
   * Load the bundled sample estate when no --dataset is given (unless --no-sample-estate). True for
   * the in-process commands, which a person runs to try things; `serve` starts empty, so an agent
   * never mistakes the fictitious estate for real data.
   */
  sampleByDefault?: boolean;
  /** The logger for the layer and the policy; `cliLogger(flags.logLevel)` by default. */
  logger?: Logger;
}

export async function layerOptionsFrom(
  flags: LayerFlags,
  io: CliIo,
  context: LayerOptionsContext = {},
): Promise<ServerLayerOptions> {
  const logger = context.logger ?? cliLogger(flags.logLevel, io);
  for (const value of flags.dataset) checkDatasetOption(value, io.cwd);
  const sampleByDefault =
    (context.sampleByDefault ?? true) && flags.dataset.length === 0 && flags.sampleEstate !== false;
  const datasets = flags.sample || sampleByDefault ? [sampleEstateSpec(), ...flags.dataset] : flags.dataset;
  const options: ServerLayerOptions = {
    datasets,
    prefix: flags.prefix,
    cwd: io.cwd,
    defaultTimeout: flags.timeout,
    logger,
  };
  if (flags.config !== undefined) options.config = loadConfigOption(flags.config, io.cwd);
  options.policy = loadPolicyOption(flags.policy, io, logger);
  if (flags.includeCategory) options.includeCategories = flags.includeCategory;
  if (flags.excludeCategory) options.excludeCategories = flags.excludeCategory;
  if (flags.includeTool) options.includeTools = flags.includeTool;
  if (flags.excludeTool) options.excludeTools = flags.excludeTool;
  if (flags.readOnly) options.readOnly = true;
  if (flags.prettyJson) options.prettyJson = true;
  const audit = flags.auditLog ?? io.env.CLOUDG_MCP_AUDIT_LOG;
  if (audit) options.auditLog = resolve(io.cwd, audit);
  if (flags.registry) options.registry = await loadRegistry(flags.registry, io.cwd);
  if (flags.engine) options.engine = await loadEngine(flags.engine, io.cwd);
  if (flags.restoreLive) options.restoreLive = true;
  return options;
}

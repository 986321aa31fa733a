/** The options shared by serve, tools, resources, prompts, call and read (MCP.md 5.1 and 5.2). */
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type CloudgConfig,
  CloudgConfigError,
  loadCloudgConfig,
  sampleEstateDir,
  type Workspace,
} from '@cloudg/catalog';
import { Principal, Registry } from '@cloudg/core';
import type { ServerLayerOptions } from '@cloudg/server';
import type { Command } from 'commander';
import { CliError, type CliIo } from './io.js';

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** A parser for a number of seconds (0 or more) that names its own option in the error. */
export function parseSecondsFor(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < 0)
      throw new CliError(`Invalid value for ${flag}: '${value}' is not a number of seconds`, 2);
    return n;
  };
}

export const parseSeconds = parseSecondsFor('--timeout');

/** A parser for a whole number in `[min, max]` that names its own option in the error. */
export function parseCount(flag: string, min = 0, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isInteger(n) || n < 0)
      throw new CliError(`Invalid value for ${flag}: '${value}' is not a whole number`, 2);
    if (n < min || n > max) {
      const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `between ${min} and ${max}`;
      throw new CliError(`Invalid value for ${flag}: '${value}' is not ${range}`, 2);
    }
    return n;
  };
}

/** Options for every command that builds a layer. */
export function addLayerOptions(command: Command): Command {
  return command
    .option('-c, --config <PATH>', 'cloudg config.yaml: providers, credentials and the report directory')
    .option(
      '--policy <NAME_OR_FILE>',
      'profile name, .yaml/.yml/.json file or inline JSON (env CLOUDG_MCP_POLICY; default standard)',
    )
    .option('--dataset <[NAME=]PATH>', 'preload a dataset; repeatable', collect, [])
    .option('--prefix <TEXT>', 'prepended to every tool and prompt name', '')
    .option('--include-category <CAT>', 'only expose these categories; repeatable', collect)
    .option('--exclude-category <CAT>', 'hide these categories; repeatable', collect)
    .option('--include-tool <NAME>', 'only expose these tools; repeatable', collect)
    .option('--exclude-tool <NAME>', 'hide these tools; repeatable', collect)
    .option('--read-only', 'drop tools that write files, reach cloud APIs, run programs or are destructive')
    .option('--audit-log <FILE>', 'append a JSONL audit trail (env CLOUDG_MCP_AUDIT_LOG)')
    .option('--timeout <SECONDS>', 'default per-call tool timeout; 0 disables', parseSeconds, 300)
    .option('--registry <MODULE:ATTR>', 'serve a custom Registry (ATTR defaults to defaultRegistry)')
    .option(
      '--no-sample-estate',
      'without --dataset, start with an empty workspace instead of the bundled sample estate',
    );
}

/** The dataset name the bundled sample estate gets when no --dataset is given. */
export const SAMPLE_DATASET_NAME = 'sample';

/** `NAME=PATH` of the bundled sample estate's inventory map. */
export function sampleEstateSpec(): string {
  return `${SAMPLE_DATASET_NAME}=${join(sampleEstateDir(), 'inventory', 'inventory-map.json')}`;
}

export function addPrincipalOptions(command: Command): Command {
  return command
    .option('--role <ROLE>', 'act as a principal with this role; repeatable', collect)
    .option('--principal-id <ID>', 'principal id to act as');
}

export interface LayerFlags {
  config?: string;
  policy?: string;
  dataset: string[];
  prefix: string;
  includeCategory?: string[];
  excludeCategory?: string[];
  includeTool?: string[];
  excludeTool?: string[];
  readOnly?: boolean;
  auditLog?: string;
  timeout: number;
  registry?: string;
  /** Commander's spelling of `--no-sample-estate`: false when the flag is given. */
  sampleEstate?: boolean;
  role?: string[];
  principalId?: string;
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

export async function layerOptionsFrom(flags: LayerFlags, io: CliIo): Promise<ServerLayerOptions> {
  // Without --dataset the bundled sample estate is loaded, so a fresh install has data to show.
  const datasets =
    flags.dataset.length > 0 || flags.sampleEstate === false ? flags.dataset : [sampleEstateSpec()];
  const options: ServerLayerOptions = {
    datasets,
    prefix: flags.prefix,
    cwd: io.cwd,
    defaultTimeout: flags.timeout,
  };
  if (flags.config !== undefined) options.config = loadConfigOption(flags.config, io.cwd);
  const policy = flags.policy ?? io.env.CLOUDG_MCP_POLICY;
  if (policy) options.policy = policy;
  if (flags.includeCategory) options.includeCategories = flags.includeCategory;
  if (flags.excludeCategory) options.excludeCategories = flags.excludeCategory;
  if (flags.includeTool) options.includeTools = flags.includeTool;
  if (flags.excludeTool) options.excludeTools = flags.excludeTool;
  if (flags.readOnly) options.readOnly = true;
  const audit = flags.auditLog ?? io.env.CLOUDG_MCP_AUDIT_LOG;
  if (audit) options.auditLog = resolve(io.cwd, audit);
  if (flags.registry) options.registry = await loadRegistry(flags.registry, io.cwd);
  return options;
}

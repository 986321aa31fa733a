import { AccessDeniedError, InvalidArgumentsError, type Principal } from '@cloudg/core';
import { z } from 'zod';
import type { CloudgConfig } from '../../config/schema.js';
import { LIVE_PROVIDERS, type LiveProvider } from '../../live/engine.js';
import type { Workspace } from '../../workspace/workspace.js';

/** The arguments every collecting tool shares, in the reference's order and words. */
export const providersArg = () =>
  z
    .array(z.string())
    .nullable()
    .default(null)
    .describe('Subset of aws, azure, gcp; empty = the configured providers.');
export const regionsArg = () =>
  z
    .array(z.string().min(1))
    .nullable()
    .default(null)
    .describe('Regions to collect for every selected provider; empty = configured regions.');
export const nameArg = () =>
  z.string().default('').describe("Dataset name for the result; default '<tool>-<timestamp>'.");
export const replaceArg = () =>
  z
    .boolean()
    .default(false)
    .describe(
      'Overwrite an existing dataset with the same name (otherwise a name clash is an error, reported before any cloud call).',
    );
export const preflightArg = () =>
  z
    .boolean()
    .default(true)
    .describe(
      'Check the configured credentials before calling any cloud API, so a missing profile fails in seconds instead of after every collector has retried.',
    );
export const forceArg = () =>
  z
    .boolean()
    .default(false)
    .describe(
      'Skip the live cooldown for this call. Only honoured for callers with the admin or operator role; others get an access error.',
    );

/**
 * The call's providers: empty means the configured ones. Unknown names are refused; the message
 * lists the valid ones and `data.unknown` the caller's (the reference echoed them in the text).
 */
export function parseProviders(given: readonly string[] | null, config: CloudgConfig): LiveProvider[] {
  if (!given || given.length === 0) return [...config.providers];
  const wanted = given.map((p) => p.trim().toLowerCase());
  const unknown = given.filter(
    (_, i) => !(LIVE_PROVIDERS as readonly string[]).includes(wanted[i] as string),
  );
  if (unknown.length > 0) {
    throw new InvalidArgumentsError(`Unknown provider(s). Use ${LIVE_PROVIDERS.join(', ')}.`, {
      data: { unknown, supported: [...LIVE_PROVIDERS] },
    });
  }
  return [...new Set(wanted)] as LiveProvider[];
}

function stamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${date.getUTCFullYear()}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}-${p(date.getUTCHours())}${p(date.getUTCMinutes())}${p(date.getUTCSeconds())}`;
}

/** The result dataset's name, checked (format, clash) before anything else runs. */
export function resultName(ws: Workspace, name: string, replace: boolean, prefix: string): string {
  if (name !== '') {
    ws.checkName(name, { replace });
    return name;
  }
  return ws.uniqueName(`${prefix}-${stamp(new Date())}`);
}

/** `force` needs the admin or operator role; checked before the preflight. */
export function checkForce(principal: Principal, force: boolean): void {
  if (!force || principal.hasRole('admin') || principal.hasRole('operator')) return;
  throw new AccessDeniedError(
    'force=true (skip the live cooldown) needs the admin or operator role. Use the dataset from the last collection, or wait for the cooldown to end.',
    { data: { required_roles: ['admin', 'operator'] } },
  );
}

/**
 * The config one call works on: a copy with the call's providers and, when given, its regions
 * replacing every selected provider's list, so no call changes the server's config.
 */
export function callConfig(
  config: CloudgConfig,
  providers: readonly LiveProvider[],
  regions: readonly string[] | null,
): CloudgConfig {
  const r = regions && regions.length > 0 ? [...regions] : null;
  return {
    ...config,
    providers: [...providers],
    aws: { ...config.aws, accounts: [...config.aws.accounts], regions: r ?? [...config.aws.regions] },
    azure: { ...config.azure, subscriptions: [...config.azure.subscriptions] },
    gcp: { ...config.gcp, projects: [...config.gcp.projects], regions: r ?? [...config.gcp.regions] },
    ratelimit: { ...config.ratelimit },
    report: { ...config.report },
    rulesets: { ...config.rulesets },
    state: { ...config.state },
  };
}

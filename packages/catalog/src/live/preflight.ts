import { McpLayerError } from '@cloudg/core';
import type { CloudgConfig } from '../config/schema.js';
import { sleep } from './clock.js';
import type { LiveProvider } from './engine.js';
import { checkAws } from './preflight-aws.js';
import { checkAzure } from './preflight-azure.js';
import type { PreflightEnvironment } from './preflight-env.js';
import { checkGcp } from './preflight-gcp.js';

/** The preflight found a provider without credentials (-32603, reasons in `data.providers`). */
export class CredentialPreflightError extends McpLayerError {
  declare readonly data: { providers: Partial<Record<LiveProvider, string>> } | { timeout_seconds: number };
}

const CHECKS = { aws: checkAws, azure: checkAzure, gcp: checkGcp } as const;

/**
 * Check the configured credentials of every provider locally, before any cloud API call, within
 * `env.timeoutMs` (25 s). Throws CredentialPreflightError naming each provider that failed.
 */
export async function credentialPreflight(
  config: CloudgConfig,
  providers: readonly LiveProvider[],
  env: PreflightEnvironment,
  signal: AbortSignal,
): Promise<void> {
  const controller = new AbortController();
  const stop = () => controller.abort(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  try {
    const checks = Promise.all(
      providers.map(async (p) => {
        const check = CHECKS[p] as (
          c: unknown,
          e: PreflightEnvironment,
          s: AbortSignal,
        ) => Promise<string | null>;
        return [p, await check(config[p], env, controller.signal)] as const;
      }),
    );
    const bound = sleep(env.clock, env.timeoutMs, controller.signal).then(() => 'timeout' as const);
    bound.catch(() => {});
    const outcome = await Promise.race([checks, bound]);
    signal.throwIfAborted();
    if (outcome === 'timeout') {
      const s = Math.round(env.timeoutMs / 1000);
      throw new CredentialPreflightError(
        `Credential check did not finish within ${s}s; the cloud identity endpoints look unreachable. Pass preflight=false to try anyway.`,
        { data: { timeout_seconds: s } },
      );
    }
    const failed: Partial<Record<LiveProvider, string>> = {};
    for (const [p, reason] of outcome) if (reason !== null) failed[p] = reason;
    const names = Object.keys(failed) as LiveProvider[];
    if (names.length === 0) return;
    const reasons = names.map((p) => `${p}: ${failed[p]}`).join('; ');
    throw new CredentialPreflightError(
      `Cannot collect live data. ${reasons}. Fix the server's credentials, choose other providers, or work offline with load_dataset. Pass preflight=false to skip this check.`,
      { data: { providers: failed } },
    );
  } finally {
    signal.removeEventListener('abort', stop);
    // Outstanding probes and the bound's timer end with the check.
    controller.abort();
  }
}

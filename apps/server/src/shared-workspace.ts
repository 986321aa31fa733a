/**
 * With `--redis-url`, the workspace and the live operation guard are shared too (issue 20): each
 * replica applies the log of workspace operations in Redis (SharedWorkspace in @cloudg/catalog),
 * and the guard decides admissions in a ledger there. Both are sealed or keyed with the policy
 * vault's key, which every replica must therefore share: a server whose vault key is random
 * (none configured) could not read what the others write, so it does not start.
 */
import { configureLive, SharedWorkspace, type Workspace, type WorkspaceOperation } from '@cloudg/catalog';
import type { Logger } from '@cloudg/core';
import type { Policy } from '@cloudg/policy';
import type { RedisSharedState } from '@cloudg/redis';
import { ServeOptionsError } from './flavors.js';

type Sealer = Parameters<RedisSharedState['operationLog']>[1];

export function vaultSealer(policy: Policy): Sealer {
  const vault = policy.vault as { readonly sealer?: Sealer };
  const keySource = policy.vault.stats?.().key_source;
  if (!vault.sealer || keySource === 'random') {
    throw new ServeOptionsError(
      `--redis-url needs the vault key every replica shares (set ${policy.config.vault.key_env}): the shared state is sealed with it`,
      { key_env: policy.config.vault.key_env },
    );
  }
  return vault.sealer;
}

/** The live guard of `workspace` decides in the shared ledger from now on. */
export function shareLiveGuard(workspace: Workspace, sealer: Sealer, state: RedisSharedState): void {
  configureLive(workspace, { shared: { ledger: state.liveGuardLedger(sealer) } });
}

export function sharedWorkspace(
  workspace: Workspace,
  sealer: Sealer,
  state: RedisSharedState,
  logger: Logger | undefined,
): SharedWorkspace {
  const log = state.operationLog<WorkspaceOperation>('workspace', sealer);
  return new SharedWorkspace(workspace, log, {
    onSkipped: (entry, error) =>
      logger?.warn(
        {
          seq: entry.seq,
          op: entry.operation.op,
          reason: error instanceof Error ? error.message : String(error),
        },
        'shared workspace operation not applied on this replica',
      ),
    onLogReset: () =>
      logger?.warn(
        'the shared workspace log was lost (Redis restarted without its data): this replica keeps its datasets and follows the new log',
      ),
  });
}

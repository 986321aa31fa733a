/**
 * With `--redis-url`, the workspace is shared too (issue 20): each replica applies the log of
 * workspace operations in Redis (see SharedWorkspace in @cloudg/catalog). The log is sealed with
 * the policy vault's key, which every replica must therefore share: a server whose vault key is
 * random (none configured) could not read what the others write, so it does not start.
 */
import { SharedWorkspace, type Workspace, type WorkspaceOperation } from '@cloudg/catalog';
import type { Logger } from '@cloudg/core';
import type { Policy } from '@cloudg/policy';
import type { RedisSharedState } from '@cloudg/redis';
import { ServeOptionsError } from './flavors.js';

type Sealer = Parameters<RedisSharedState['operationLog']>[1];

function vaultSealer(policy: Policy): Sealer {
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

export function sharedWorkspace(
  workspace: Workspace,
  policy: Policy,
  state: RedisSharedState,
  logger: Logger | undefined,
): SharedWorkspace {
  const log = state.operationLog<WorkspaceOperation>('workspace', vaultSealer(policy));
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
  });
}

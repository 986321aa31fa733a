/**
 * Two layers (two replicas) sharing one Redis: the policy's rate limits and vault, and the
 * response cache, each from the same connection's stores. Runs against REDIS_URL when set.
 */
import {
  configureLive,
  createCatalogLayer,
  SharedWorkspace,
  Workspace,
  type WorkspaceOperation,
} from '@cloudg/catalog';
import { CachingMiddleware, Layer, Registry } from '@cloudg/core';
import { Policy } from '@cloudg/policy';
import { TokenVault } from '@cloudg/privacy';
import { createRedisSharedState } from '@cloudg/redis';
import { serveHttp } from '@cloudg/transports';

export async function replicaExample(url: string): Promise<void> {
  // #region replica
  const shared = await createRedisSharedState(url); // RedisStartError if Redis does not answer
  const policy = Policy.load(
    { rate_limits: [{ rate: 60, per: 'minute', burst: 10 }] },
    {
      rateStore: shared.rateStore, // one bucket for every replica
      vaultStore: shared.vaultStore, // pseudonyms reveal on any replica
      clock: () => Date.now() / 1000, // wall-clock seconds: every replica agrees on them
    },
  );
  const cache = new CachingMiddleware({ ttl: 30, store: shared.cacheStore });
  const registry = new Registry();
  registry.tool({ name: 'hello', readOnly: true, idempotent: true, handler: () => ({ hi: true }) });
  const layer = new Layer({ registry, policy, middleware: [cache.middleware] });
  const result = await layer.callTool('hello', {});
  // With Redis down: result.meta['cloudg/error_code'] === 'shared_state_unavailable' (retryable)
  console.log(result.structured, await shared.health());
  await shared.close();
  // #endregion replica
}

/** One replica's HTTP server sharing its 2025-era sessions and its changes with the others. */
export async function sessionsExample(url: string, layer: Layer): Promise<void> {
  // #region sessions
  const shared = await createRedisSharedState(url);
  // Sessions, their stream log and the signals between replicas are sealed with the vault key
  // every replica shares; until sealWith they refuse to work.
  shared.sealWith(new TokenVault({ key: process.env.CLOUDG_MCP_VAULT_KEY }).sealer);
  const server = await serveHttp(layer, {
    port: 0,
    sessions: shared.sessions, // an Mcp-Session-Id works on every replica; its stream resumes on any
    changes: shared.changes, // a change announced on one replica reaches listeners on all
  });
  layer.notifyChange('resources'); // told by every replica to its listeners and sessions
  await server.close();
  await shared.close();
  // #endregion sessions
}

/** A catalog replica whose workspace and live guard are shared, sealed with the vault key. */
export async function workspaceExample(url: string): Promise<void> {
  // #region workspace
  const shared = await createRedisSharedState(url);
  const sealer = new TokenVault({ key: process.env.CLOUDG_MCP_VAULT_KEY }).sealer; // the same key on every replica
  const workspace = new Workspace();
  const follower = new SharedWorkspace(
    workspace,
    shared.operationLog<WorkspaceOperation>('workspace', sealer),
  );
  await follower.start(); // applies what the other replicas did, then follows them
  configureLive(workspace, { shared: { ledger: shared.liveGuardLedger(sealer) } });
  const layer = createCatalogLayer({ workspace, middleware: [follower.middleware] });
  const status = await layer.callTool('list_datasets', {}); // every replica's loads are listed
  console.log(status.structured);
  follower.stop();
  await shared.close();
  // #endregion workspace
}

if (process.env.REDIS_URL) {
  await replicaExample(process.env.REDIS_URL);
  await sessionsExample(process.env.REDIS_URL, new Layer({ registry: new Registry() }));
  await workspaceExample(process.env.REDIS_URL);
}

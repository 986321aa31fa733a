/**
 * Change fan-out across three replicas through one real redis-server: a change announced on A
 * reaches 2026-era listeners on B and C and 2025-era sessions whose stream another replica
 * holds, each filtered as it asked, and subscriptions made under a pseudonym are matched by the
 * real URI and told under the pseudonym.
 */
import { describe, expect, it } from 'vitest';
import { Stream } from './support/http-client.js';
import { type HttpReplica, LIVE_HEARTBEAT_MS, startReplicas } from './support/http-replicas.js';
import { listenRequest, on, openSession, rpc, sleep } from './support/mcp.js';
import { sharedRedis } from './support/shared-redis.js';

const env = sharedRedis<HttpReplica>();
let prefixes = 0;

async function three(pseudonymise = false) {
  prefixes += 1;
  // No replica dies here: production heartbeats, so a stalled event loop under a loaded suite
  // does not lapse a live replica's stream claim (its messages would then stay in the log only).
  const heartbeats = { A: LIVE_HEARTBEAT_MS, B: LIVE_HEARTBEAT_MS, C: LIVE_HEARTBEAT_MS };
  env.replicas = await startReplicas(env.redis.url, ['A', 'B', 'C'], `changes${prefixes}:`, {
    pseudonymise,
    heartbeats,
  });
  return env.replicas as [HttpReplica, HttpReplica, HttpReplica];
}

async function listen(replica: HttpReplica, id: string, notifications: Record<string, unknown>) {
  const { headers, body } = listenRequest(id, notifications);
  const stream = await Stream.open(replica.port, headers, body);
  await stream.until((f) => f.length >= 1);
  return stream;
}

const told = (stream: Stream) =>
  stream.messages.slice(1).map((m) => [m.method, (m.params as { uri?: string }).uri]);

describe('a change on one replica, heard on all', { timeout: 60_000 }, () => {
  it('reaches the listeners on B and C, each filtered as it asked', async () => {
    const [a, b, c] = await three();
    const onC = await listen(c, 'l-c', { toolsListChanged: true, resourceSubscriptions: ['memo://status'] });
    const onB = await listen(b, 'l-b', { promptsListChanged: true });
    expect(onC.messages[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
    a.layer.notifyChange('tools');
    a.layer.notifyChange('resource', 'memo://other');
    a.layer.notifyChange('resource', 'memo://status');
    a.layer.notifyChange('prompts');
    await onC.until((f) => f.length >= 3);
    await onB.until((f) => f.length >= 2);
    await sleep(100);
    expect(told(onC)).toEqual([
      ['notifications/tools/list_changed', undefined],
      ['notifications/resources/updated', 'memo://status'],
    ]);
    expect(onC.messages[2]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'memo://status', _meta: { 'io.modelcontextprotocol/subscriptionId': 'l-c' } },
    });
    expect(told(onB)).toEqual([['notifications/prompts/list_changed', undefined]]);
    onB.close();
    onC.close();
  });

  it('reaches a 2025 session whose stream C holds, once, with only the resources it subscribed to', async () => {
    const [a, b, c] = await three();
    const session = await openSession(b);
    expect(
      (await rpc(b, session, { id: 2, method: 'resources/subscribe', params: { uri: 'memo://status' } }))
        .status,
    ).toBe(200);
    const stream = await Stream.open(c.port, on(session));
    a.layer.notifyChange('resources', 'memo://status');
    a.layer.notifyChange('resource', 'memo://other');
    await stream.until((f) => f.length >= 2);
    await sleep(150);
    expect(stream.messages).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'memo://status' } },
    ]);
    stream.close();
  });

  it('under a pseudonymising policy: matched by the real URI, told under the pseudonym, in both eras', async () => {
    const [a, b, c] = await three(true);
    const onC = await listen(c, 'l-p', { resourceSubscriptions: ['memo://items/p-1'] });
    const session = await openSession(a);
    expect(
      (await rpc(b, session, { id: 2, method: 'resources/subscribe', params: { uri: 'memo://items/p-1' } }))
        .status,
    ).toBe(200);
    const stream = await Stream.open(b.port, on(session));
    a.layer.notifyChange('resource', 'memo://items/alpha');
    a.layer.notifyChange('resource', 'memo://items/beta');
    await onC.until((f) => f.length >= 2);
    await stream.until((f) => f.length >= 1);
    await sleep(100);
    expect(told(onC)).toEqual([['notifications/resources/updated', 'memo://items/p-1']]);
    expect(stream.messages).toEqual([
      { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'memo://items/p-1' } },
    ]);
    onC.close();
    stream.close();
  });

  it('announce() is the hook for code without a layer: every replica tells its listeners', async () => {
    const [a, b, c] = await three();
    const onA = await listen(a, 'l-a', { toolsListChanged: true });
    const onC = await listen(c, 'l-c', { toolsListChanged: true });
    b.state.changes.announce('tools');
    await onA.until((f) => f.length >= 2);
    await onC.until((f) => f.length >= 2);
    expect(told(onA)).toEqual([['notifications/tools/list_changed', undefined]]);
    expect(told(onC)).toEqual([['notifications/tools/list_changed', undefined]]);
    onA.close();
    onC.close();
  });
});

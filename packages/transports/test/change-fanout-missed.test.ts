/**
 * A change fan-out that reports changes it missed and cannot replay (a replica whose connection
 * to the others broke for longer than they keep changes): every 2026 listen stream is told each
 * notification its filter follows, once, and nothing it did not ask for; a handshake-era session
 * gets every list change and an update of each resource it subscribed to.
 */
import { type ChangeListener, Principal } from '@cloudg/core';
import { afterEach, expect, it } from 'vitest';
import { type ChangeFanout, type JsonRpcMessage, McpProtocolServer, MetaKeys } from '../src/index.js';
import { initialize, initialized, modern, req } from './support/rpc.js';
import { buildLayer } from './support/test-layer.js';

let server: McpProtocolServer;
afterEach(() => server?.close());

/** A fan-out that hears only this server and reports a miss when the test says so. */
function missingFanout() {
  const listeners = new Set<ChangeListener>();
  const missed = new Set<() => void>();
  const fanout: ChangeFanout = {
    announce: (kind, uri) => {
      for (const listener of listeners) listener(kind, uri);
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onMissed: (listener) => {
      missed.add(listener);
      return () => missed.delete(listener);
    },
  };
  const miss = () => {
    for (const listener of missed) listener();
  };
  return { fanout, miss };
}

function open(fanout: ChangeFanout) {
  server = new McpProtocolServer(buildLayer(), { changes: fanout });
  const sent: JsonRpcMessage[] = [];
  const session = server.createSession({
    transport: 'memory',
    principal: Principal.local(),
    send: (m) => sent.push(m),
  });
  return { session, sent };
}

const settle = async () => {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
};

it('a listen stream is told everything its filter follows, once, and nothing else', async () => {
  const { fanout, miss } = missingFanout();
  const { session, sent } = open(fanout);
  const listening = session.handle(
    modern('l-1', 'subscriptions/listen', {
      notifications: {
        toolsListChanged: true,
        resourcesListChanged: true,
        resourceSubscriptions: ['test://status'],
      },
    }),
  );
  await settle();
  miss();
  server.endListens();
  await listening;
  const sub = { [MetaKeys.subscriptionId]: 'l-1' };
  expect(sent.slice(1)).toEqual([
    { jsonrpc: '2.0', method: 'notifications/tools/list_changed', params: { _meta: sub } },
    { jsonrpc: '2.0', method: 'notifications/resources/list_changed', params: { _meta: sub } },
    {
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: { uri: 'test://status', _meta: sub },
    },
  ]);
});

it('a handshake-era session gets every list change and its subscribed resources', async () => {
  const { fanout, miss } = missingFanout();
  const { session, sent } = open(fanout);
  await session.handle(initialize(1, '2025-11-25'));
  await session.handle(initialized);
  await session.handle(req(2, 'resources/subscribe', { uri: 'test://status' }));
  sent.length = 0;
  miss();
  expect(sent).toEqual([
    { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
    { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' },
    { jsonrpc: '2.0', method: 'notifications/resources/list_changed' },
    { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'test://status' } },
  ]);
});

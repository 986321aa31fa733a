/** The requests the replica tests send, in both protocol eras. */
import { expect } from 'vitest';
import { call } from './http-client.js';
import type { HttpReplica } from './http-replicas.js';

export const VERSION = '2025-11-25';

/** `initialize` as `token`'s principal; the session id, or the refusal. */
export async function initialize(
  replica: Pick<HttpReplica, 'port'>,
  token = 'atok',
  capabilities: Record<string, unknown> = {},
): Promise<{ status: number; session: string; body: unknown }> {
  const answer = await call(replica.port, {
    headers: { authorization: `Bearer ${token}` },
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: VERSION, capabilities, clientInfo: { name: 'test', version: '1' } },
    },
  });
  return { status: answer.status, session: String(answer.headers['mcp-session-id']), body: answer.body };
}

/** A session opened and initialized, ready for notifications. */
export async function openSession(replica: Pick<HttpReplica, 'port'>, token = 'atok'): Promise<string> {
  const { status, session } = await initialize(replica, token);
  expect(status).toBe(200);
  const done = await rpc(replica, session, { method: 'notifications/initialized' }, token);
  expect(done.status).toBe(202);
  return session;
}

export function on(session: string, token = 'atok'): Record<string, string> {
  return { authorization: `Bearer ${token}`, 'mcp-session-id': session, 'mcp-protocol-version': VERSION };
}

export function rpc(
  replica: Pick<HttpReplica, 'port'>,
  session: string,
  message: Record<string, unknown>,
  token = 'atok',
) {
  return call(replica.port, { headers: on(session, token), body: { jsonrpc: '2.0', ...message } });
}

/** A 2026-07-28 `subscriptions/listen` request and its headers. */
export function listenRequest(id: string, notifications: Record<string, unknown>) {
  return {
    headers: {
      authorization: 'Bearer atok',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'subscriptions/listen',
    },
    body: {
      jsonrpc: '2.0',
      id,
      method: 'subscriptions/listen',
      params: {
        notifications,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'test', version: '1' },
        },
      },
    },
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

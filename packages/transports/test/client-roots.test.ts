/** stdio's `clientRoots` option: a handshake-era client's roots asked once initialized and on change. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serveStdio } from '../src/index.js';
import { buildAskingLayer } from './support/asking-layer.js';

function harness(capabilities: Record<string, unknown>) {
  const stdin = new PassThrough();
  const written: Record<string, unknown>[] = [];
  const stdout = {
    write(chunk: string | Uint8Array, cb?: (error?: Error | null) => void): boolean {
      for (const line of String(chunk).split('\n')) if (line.trim()) written.push(JSON.parse(line));
      cb?.();
      return true;
    },
  };
  const delivered: string[][] = [];
  const served = serveStdio(buildAskingLayer() as never, {
    stdin,
    stdout: stdout as never,
    clientRoots: (uris) => delivered.push(uris),
  });
  const send = (message: object) => stdin.write(`${JSON.stringify(message)}\n`);
  send({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 't', version: '1' } },
  });
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const until = async (check: () => boolean) => {
    for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
  };
  return { stdin, written, delivered, send, served, until };
}

describe('stdio clientRoots', () => {
  it('asks for the roots once initialized and again when they change', async () => {
    const h = harness({ roots: { listChanged: true } });
    const asked = () => h.written.filter((m) => m.method === 'roots/list');
    await h.until(() => asked().length === 1);
    h.send({ jsonrpc: '2.0', id: asked()[0]?.id, result: { roots: [{ uri: 'file:///work/a' }] } });
    await h.until(() => h.delivered.length === 1);
    h.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    await h.until(() => asked().length === 2);
    h.send({
      jsonrpc: '2.0',
      id: asked()[1]?.id,
      result: { roots: [{ uri: 'file:///work/b' }, { name: 'no uri' }] },
    });
    await h.until(() => h.delivered.length === 2);
    expect(h.delivered).toEqual([['file:///work/a'], ['file:///work/b']]);
    h.stdin.end();
    await h.served;
  });

  it('asks nothing of a client without the roots capability', async () => {
    const h = harness({});
    await h.until(() => h.written.length >= 1);
    await new Promise((r) => setTimeout(r, 50));
    expect(h.written.some((m) => m.method === 'roots/list')).toBe(false);
    h.stdin.end();
    await h.served;
  });
});

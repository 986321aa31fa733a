/** Framing, cursors, version negotiation and header decoding. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { decodeHeaderValue } from '../src/http/modern-headers.js';
import { decodeCursor, encodeCursor, paginate, serveStdio } from '../src/index.js';
import { encodeLine, LineDecoder } from '../src/jsonrpc/framing.js';
import { negotiateVersion } from '../src/protocol/negotiate.js';
import { buildLayer } from './support/test-layer.js';

describe('newline framing', () => {
  it('encodes one compact line per message, even with newlines in strings', () => {
    expect(encodeLine({ a: 'x\ny' })).toBe('{"a":"x\\ny"}\n');
  });

  it('splits chunks into lines, keeps multi-byte characters whole, skips blank lines', () => {
    const decoder = new LineDecoder();
    const bytes = Buffer.from('{"a":"é"}\r\n\n{"b":1}\n{"c"');
    expect(decoder.push(bytes.subarray(0, 7))).toEqual([]);
    expect(decoder.push(bytes.subarray(7))).toEqual(['{"a":"é"}', '{"b":1}']);
    expect(decoder.push(':2}')).toEqual([]);
    expect(decoder.end()).toEqual(['{"c":2}']);
  });
});

describe('stdio line limit', () => {
  it('drops a line longer than maxLineBytes as it arrives, answers -32600 once, and serves the next line', async () => {
    const stdin = new PassThrough();
    const written: string[] = [];
    const stdout = {
      write: (text: string, callback: (error?: Error | null) => void) => {
        written.push(text);
        callback();
        return true;
      },
      once: () => {},
    };
    const served = serveStdio(buildLayer(), { stdin, stdout, maxLineBytes: 1024 });
    // The oversized line arrives in pieces; none of them is kept.
    for (let i = 0; i < 10; i++) stdin.write('x'.repeat(500));
    stdin.write('\n');
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
    stdin.end();
    await served;
    const messages = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(messages).toEqual([
      {
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: 'Request too large', data: { limit: 1024 } },
      },
      expect.objectContaining({ id: 1 }),
    ]);
  });
});

describe('stdio stop signal', () => {
  it('stops reading when the signal aborts, lets the call in flight finish, and resolves', async () => {
    const stdin = new PassThrough();
    const written: string[] = [];
    const stdout = {
      write: (text: string, callback: (error?: Error | null) => void) => {
        written.push(text);
        callback();
        return true;
      },
      once: () => {},
    };
    const stop = new AbortController();
    const served = serveStdio(buildLayer(), { stdin, stdout, signal: stop.signal });
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' })}\n`);
    // Stop once the ping has been answered, however slow the machine.
    while (written.length === 0) await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    await served;
    // Input after the stop is not read: stdin was destroyed.
    expect(stdin.destroyed).toBe(true);
    expect(written.map((line) => (JSON.parse(line) as { id: unknown }).id)).toEqual([1]);
  });
});

describe('cursors', () => {
  it('are URL-safe base64 of kind and offset without padding', () => {
    const cursor = encodeCursor('tools', 30);
    expect(cursor).not.toMatch(/[=+/]/);
    expect(JSON.parse(Buffer.from(cursor, 'base64url').toString())).toEqual({ k: 'tools', o: 30 });
    expect(decodeCursor('tools', cursor)).toBe(30);
  });

  it.each([
    'bogus',
    '',
    encodeCursor('prompts', 1),
    Buffer.from('{"k":"tools","o":-1}').toString('base64url'),
    5,
  ])('refuses %s with Invalid cursor', (cursor) => {
    expect(() => decodeCursor('tools', cursor)).toThrow('Invalid cursor');
  });

  it('pages a list', () => {
    const items = Array.from({ length: 65 }, (_, i) => i);
    const first = paginate('tools', items, undefined, 30);
    expect(first.items).toHaveLength(30);
    const second = paginate('tools', items, first.nextCursor, 30);
    expect(second.items[0]).toBe(30);
    const last = paginate('tools', items, second.nextCursor, 30);
    expect(last).toEqual({ items: [60, 61, 62, 63, 64], nextCursor: undefined });
  });
});

describe('negotiateVersion', () => {
  it('keeps handshake versions and answers anything else with 2025-11-25', () => {
    expect(negotiateVersion('2024-11-05')).toBe('2024-11-05');
    expect(negotiateVersion('2026-07-28')).toBe('2025-11-25');
    expect(negotiateVersion(undefined)).toBe('2025-11-25');
  });
});

describe('decodeHeaderValue', () => {
  it('decodes the base64 sentinel form and passes plain values through', () => {
    expect(decodeHeaderValue('get_weather')).toBe('get_weather');
    expect(decodeHeaderValue('=?base64?SGVsbG8sIOS4lueVjA==?=')).toBe('Hello, 世界');
    expect(decodeHeaderValue('=?base64?not base64?=')).toBeUndefined();
    expect(decodeHeaderValue('=?base64?/w==?=')).toBeUndefined();
    expect(decodeHeaderValue('=?base64?SGVsbG8=')).toBe('=?base64?SGVsbG8=');
  });
});

/** Framing, cursors, version negotiation and header decoding. */
import { describe, expect, it } from 'vitest';
import {
  decodeCursor,
  decodeHeaderValue,
  encodeCursor,
  encodeLine,
  LineDecoder,
  negotiateVersion,
  paginate,
} from '../src/index.js';

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

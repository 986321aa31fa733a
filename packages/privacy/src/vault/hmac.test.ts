import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HmacSha256 } from './hmac.js';

describe('HmacSha256', () => {
  it('equals createHmac for short, long and non-ASCII messages', () => {
    const key = randomBytes(32);
    const h = new HmacSha256(key);
    const messages = [
      '',
      'a',
      'global\u001fresource_name\u001f0\u001fweb-1',
      'é€😀'.repeat(50),
      'x'.repeat(5000),
      'y',
    ];
    for (const m of messages)
      expect(h.hex(m)).toBe(createHmac('sha256', key).update(m, 'utf8').digest('hex'));
  });

  it('hashes a message given in two parts like the whole message', () => {
    const key = randomBytes(32);
    const h = new HmacSha256(key);
    for (const [a, b] of [
      ['global\u001fperson\u001f0\u001f', 'alice'],
      ['', 'x'],
      ['é', '😀'.repeat(600)],
    ] as const) {
      expect(h.hex(a, b)).toBe(
        createHmac('sha256', key)
          .update(a + b, 'utf8')
          .digest('hex'),
      );
    }
  });

  it('accepts keys up to one block and refuses longer ones', () => {
    const key = randomBytes(64);
    expect(new HmacSha256(key).hex('m')).toBe(createHmac('sha256', key).update('m').digest('hex'));
    expect(() => new HmacSha256(randomBytes(65))).toThrow(RangeError);
  });
});

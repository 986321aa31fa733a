/** Batched AES-CMAC: the standard tags (RFC 4493), for any mix of message lengths at once. */
import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BatchCmac } from './batch-cmac.js';

const hex = (h: string) => Buffer.from(h.replace(/\s/g, ''), 'hex');
const latin1 = (h: string) => hex(h).toString('latin1');

/** CMAC the slow way, one message at a time: AES-CBC from a zero IV over the tweaked message. */
function oneByOne(key: Buffer, message: Buffer): Buffer {
  const ecb = createCipheriv(`aes-${key.length * 8}-ecb`, key, null).setAutoPadding(false);
  const dbl = (b: Buffer) => {
    const out = Buffer.alloc(16);
    for (let i = 0; i < 16; i++) out[i] = ((b[i] as number) << 1) | ((b[i + 1] ?? 0) >>> 7);
    if ((b[0] as number) & 0x80) out[15] = (out[15] as number) ^ 0x87;
    return out;
  };
  const k1 = dbl(ecb.update(Buffer.alloc(16)));
  const k2 = dbl(k1);
  const complete = message.length > 0 && message.length % 16 === 0;
  const padded = Buffer.alloc(complete ? message.length : (Math.floor(message.length / 16) + 1) * 16);
  message.copy(padded);
  if (!complete) padded[message.length] = 0x80;
  const last = padded.length - 16;
  for (let i = 0; i < 16; i++)
    padded[last + i] = (padded[last + i] as number) ^ ((complete ? k1 : k2)[i] as number);
  const cbc = createCipheriv(`aes-${key.length * 8}-cbc`, key, Buffer.alloc(16)).setAutoPadding(false);
  return Buffer.concat([cbc.update(padded), cbc.final()]).subarray(-16);
}

describe('batched AES-CMAC', () => {
  it("gives RFC 4493's tags, the four examples in one batch", () => {
    const cmac = new BatchCmac(hex('2b7e151628aed2a6abf7158809cf4f3c'));
    const m =
      '6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710';
    const messages = [latin1(''), latin1(m.slice(0, 32)), latin1(m.slice(0, 80)), latin1(m)];
    const tags = cmac.tags(messages, 'latin1');
    expect(tags.toString('hex').match(/.{32}/g)).toEqual([
      'bb1d6929e95937287fa37d129b756746',
      '070a16b46b4d4144f79bdd9dd04a287c',
      'dfa66747de9ae63030ca32611497c827',
      '51f0bebf7e3b9d92fc49741779363cfe',
    ]);
  });

  it('gives every message of a mixed batch the tag it has alone, under a 256-bit key', () => {
    const key = randomBytes(32);
    const cmac = new BatchCmac(key);
    const messages = Array.from({ length: 300 }, (_, i) =>
      'é/arn:aws:ec2:x:'.repeat(i % 9).slice(0, (i * 7) % 130),
    );
    const tags = cmac.tags(messages);
    messages.forEach((message, i) => {
      expect(tags.subarray(i * 16, i * 16 + 16)).toEqual(oneByOne(key, Buffer.from(message, 'utf8')));
    });
    expect(cmac.tags([])).toHaveLength(0);
    // The same batch again: the cipher keeps no state between calls.
    expect(cmac.tags(messages)).toEqual(tags);
  });
});

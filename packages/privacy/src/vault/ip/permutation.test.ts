import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getBit } from './address.js';
import { IpPermuter } from './permutation.js';

function commonPrefix(a: Uint8Array, b: Uint8Array): number {
  let n = 0;
  while (n < a.length * 8 && getBit(a, n) === getBit(b, n)) n++;
  return n;
}

describe('IpPermuter', () => {
  it('preserves the exact length of the common prefix of any two addresses', () => {
    const perm = new IpPermuter(Buffer.alloc(32, 1));
    for (const width of [4, 16]) {
      for (let i = 0; i < 300; i++) {
        const a = new Uint8Array(randomBytes(width));
        const b = new Uint8Array(a);
        // Flip one random bit and randomise everything after it.
        const at = i % (width * 8);
        const tail = randomBytes(width);
        for (let bit = at; bit < width * 8; bit++) {
          const mask = 1 << (7 - (bit & 7));
          b[bit >> 3] = (tail[bit >> 3]! & mask) | (b[bit >> 3]! & ~mask);
        }
        b[at >> 3]! ^= 1 << (7 - (at & 7));
        expect(commonPrefix(perm.permute(a), perm.permute(b))).toBe(commonPrefix(a, b));
      }
    }
  });

  it('is a bijection on a full /16 and keeps the bits before fromBit', () => {
    const perm = new IpPermuter(Buffer.alloc(32, 2));
    const seen = new Set<number>();
    // One assertion at the end: 131,072 expect calls took over 20 s on a loaded machine.
    let prefixChanged = 0;
    for (let x = 0; x < 65_536; x++) {
      const out = perm.permute(Uint8Array.of(10, 20, x >> 8, x & 255), 16);
      if (out[0] !== 10 || out[1] !== 20) prefixChanged++;
      seen.add((out[2]! << 8) | out[3]!);
    }
    expect(prefixChanged).toBe(0);
    expect(seen.size).toBe(65_536);
  });

  it('depends on the key and is stable for one key', () => {
    const addr = Uint8Array.of(54, 12, 33, 4);
    const a = new IpPermuter(Buffer.alloc(32, 3)).permute(addr);
    expect(new IpPermuter(Buffer.alloc(32, 3)).permute(addr)).toEqual(a);
    expect(new IpPermuter(Buffer.alloc(32, 4)).permute(addr)).not.toEqual(a);
  });
});

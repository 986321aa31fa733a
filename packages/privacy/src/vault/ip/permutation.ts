/**
 * A keyed prefix-preserving permutation of IP addresses in the style of Crypto-PAn
 * (Xu, Fan, Ammar, Moon). Output bit i is input bit i XOR f(first i input bits), where f is
 * the top bit of AES-256 over those bits padded with a secret pad. Two addresses that share
 * an n-bit prefix therefore have outputs sharing an n-bit prefix, and the map is a bijection
 * on every prefix, so subnets stay subnets and distinct addresses never collide.
 *
 * AES-ECB is stateless, so one cipher object serves every call: all the blocks one address
 * needs are encrypted in a single `update`.
 */
import { type Cipher, createCipheriv } from 'node:crypto';
import { getBit } from './address.js';

export class IpPermuter {
  private readonly cipher: Cipher;
  private readonly pad: Buffer;

  /** `key` must be 32 bytes. */
  constructor(key: Buffer) {
    this.cipher = createCipheriv('aes-256-ecb', key, null);
    this.cipher.setAutoPadding(false);
    this.pad = this.encrypt(Buffer.alloc(16));
  }

  private encrypt(blocks: Buffer): Buffer {
    return this.cipher.update(blocks);
  }

  /**
   * Permute the bits from `fromBit` to the end; the first `fromBit` bits are kept as they are
   * (they still feed the PRF of later bits).
   */
  permute(bytes: Uint8Array, fromBit = 0): Uint8Array {
    const width = bytes.length * 8;
    const count = width - fromBit;
    if (count <= 0) return new Uint8Array(bytes);
    const blocks = Buffer.alloc(count * 16);
    for (let k = 0; k < count; k++) {
      const i = fromBit + k; // this block decides bit i and contains input bits [0, i)
      const base = k * 16;
      this.pad.copy(blocks, base);
      const whole = i >> 3;
      for (let b = 0; b < whole; b++) blocks[base + b] = bytes[b]!;
      const rem = i & 7;
      if (rem) {
        const mask = (0xff << (8 - rem)) & 0xff;
        blocks[base + whole] = (bytes[whole]! & mask) | (this.pad[whole]! & ~mask & 0xff);
      }
    }
    const enc = this.encrypt(blocks);
    const out = new Uint8Array(bytes);
    for (let k = 0; k < count; k++) {
      const i = fromBit + k;
      const flip = enc[k * 16]! >> 7;
      if (flip !== 0) {
        const bit = getBit(bytes, i) ^ 1;
        const mask = 1 << (7 - (i & 7));
        out[i >> 3] = bit ? out[i >> 3]! | mask : out[i >> 3]! & ~mask;
      }
    }
    return out;
  }
}

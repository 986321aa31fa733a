/**
 * A keyed prefix-preserving permutation of IP addresses in the style of Crypto-PAn
 * (Xu, Fan, Ammar, Moon): output bit i is input bit i XOR f(input bits before i), with f a
 * keyed pseudo-random function. Two addresses sharing an n-bit prefix therefore have outputs
 * sharing an n-bit prefix, and the map is a bijection on every prefix: subnets stay subnets
 * and distinct addresses never collide.
 *
 * Crypto-PAn spends one AES block per bit. Here f is evaluated a byte at a time: the bytes
 * before byte b select two AES-256 blocks (256 pseudo-random bits), read as a complete
 * binary tree of 255 nodes, and the bits already seen inside byte b walk down that tree to
 * the node giving the flip for the next bit. That is 8 blocks per IPv4 address instead of 32,
 * and since addresses of one subnet share their leading bytes, the trees are memoised by
 * prefix: a /24 with many hosts costs one tree for its last byte and cache hits above it.
 */
import { type Cipher, createCipheriv } from 'node:crypto';

/** Memoised trees kept per permuter before the memo is cleared. */
const MEMO_LIMIT = 100_000;

export class IpPermuter {
  private readonly cipher: Cipher;
  private readonly memo = new Map<number | string, Buffer>();

  /** `key` must be 32 bytes. */
  constructor(key: Buffer) {
    this.cipher = createCipheriv('aes-256-ecb', key, null);
    this.cipher.setAutoPadding(false);
  }

  private memoKey(bytes: Uint8Array, b: number): number | string {
    if (bytes.length === 4) {
      // b < 4 and the prefix has b bytes, so this number is unique per (b, prefix).
      let v = 0;
      for (let i = 0; i < b; i++) v = v * 256 + bytes[i]!;
      return v * 4 + b;
    }
    return `${b}:${Buffer.from(bytes.subarray(0, b)).toString('hex')}`;
  }

  /** The 32-byte trees for bytes fromByte..end, computing the missing ones in one AES call. */
  private trees(bytes: Uint8Array, fromByte: number): Buffer[] {
    const n = bytes.length;
    const out: Buffer[] = new Array(n);
    const keys: (number | string)[] = new Array(n);
    const missing: number[] = [];
    for (let b = fromByte; b < n; b++) {
      const k = this.memoKey(bytes, b);
      keys[b] = k;
      const hit = this.memo.get(k);
      if (hit) out[b] = hit;
      else missing.push(b);
    }
    if (missing.length > 0) {
      const blocks = Buffer.alloc(missing.length * 32);
      missing.forEach((b, m) => {
        for (let half = 0; half < 2; half++) {
          const base = m * 32 + half * 16;
          for (let i = 0; i < b; i++) blocks[base + i] = bytes[i]!;
          // The last byte separates byte positions and halves (it is never part of a prefix:
          // a prefix has at most 15 bytes).
          blocks[base + 15] = (b << 1) | half | 0x80;
        }
      });
      const enc = this.cipher.update(blocks);
      if (this.memo.size + missing.length > MEMO_LIMIT) this.memo.clear();
      missing.forEach((b, m) => {
        const tree = enc.subarray(m * 32, m * 32 + 32);
        this.memo.set(keys[b]!, tree);
        out[b] = tree;
      });
    }
    return out;
  }

  /**
   * Permute the bits from `fromBit` to the end; the first `fromBit` bits are kept as they are
   * (they still select the trees of later bits).
   */
  permute(bytes: Uint8Array, fromBit = 0): Uint8Array {
    const out = new Uint8Array(bytes);
    const fromByte = fromBit >> 3;
    const trees = this.trees(bytes, fromByte);
    for (let b = fromByte; b < bytes.length; b++) {
      const tree = trees[b]!;
      const input = bytes[b]!;
      let node = 1; // heap order: the children of node k are 2k and 2k+1
      let flips = 0;
      for (let j = 0; j < 8; j++) {
        const bit = (input >> (7 - j)) & 1;
        if (b * 8 + j >= fromBit) flips |= ((tree[node >> 3]! >> (node & 7)) & 1) << (7 - j);
        node = node * 2 + bit;
      }
      out[b] = input ^ flips;
    }
    return out;
  }
}

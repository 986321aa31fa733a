/**
 * AES-CMAC (NIST SP 800-38B, RFC 4493) of many messages at once: the keyed digests a shared vault
 * hands its store, two per new mapping, thousands per cold strict page.
 *
 * Why not a hash per message: a native hash call costs about a microsecond whatever the message
 * (the call, not the bytes), and on the two-core machine the bench runs on, with Redis and other
 * work beside it, more; the digests were the largest part of what a replica added to a cold page.
 * CMAC is CBC-MAC over AES with a keyed tweak of the last block, so the n-th block of every
 * message can be enciphered together: one AES-ECB call per block position (a few per batch)
 * instead of one call per message, with the chaining XORs done here. The result is bit for bit
 * the standard CMAC (the tests check RFC 4493's examples and a one-message-at-a-time CBC).
 */
import { type Cipher, createCipheriv } from 'node:crypto';

const BLOCK = 16;

/** Doubling in GF(2^128), as CMAC derives its sub-keys. */
function double(block: Uint8Array): Uint8Array {
  const out = new Uint8Array(BLOCK);
  for (let i = 0; i < BLOCK; i++) out[i] = ((block[i] as number) << 1) | ((block[i + 1] ?? 0) >>> 7);
  if ((block[0] as number) & 0x80) out[BLOCK - 1] = (out[BLOCK - 1] as number) ^ 0x87;
  return out;
}

export class BatchCmac {
  /** AES in ECB mode: each block enciphered on its own, so one call serves many messages. */
  readonly #ecb: Cipher;
  readonly #k1: Uint8Array;
  readonly #k2: Uint8Array;

  /** `key` of 16, 24 or 32 bytes (AES-128, -192 or -256). */
  constructor(key: Uint8Array) {
    if (key.length !== 16 && key.length !== 24 && key.length !== 32)
      throw new RangeError('CMAC key must be 16, 24 or 32 bytes');
    this.#ecb = createCipheriv(`aes-${key.length * 8}-ecb`, key, null);
    this.#ecb.setAutoPadding(false);
    const l = this.#ecb.update(new Uint8Array(BLOCK));
    this.#k1 = double(l);
    this.#k2 = double(this.#k1);
  }

  /** The 16-byte tags of `messages` (as `encoding` bytes), one after the other, in order. */
  tags(messages: readonly string[], encoding: 'utf8' | 'latin1' = 'utf8'): Buffer {
    const n = messages.length;
    const blocks = new Int32Array(n);
    const starts = new Int32Array(n);
    const lengths = new Int32Array(n);
    let total = 0;
    let most = 0;
    for (let j = 0; j < n; j++) {
      const length = Buffer.byteLength(messages[j] as string, encoding);
      const count = length === 0 ? 1 : Math.ceil(length / BLOCK);
      lengths[j] = length;
      blocks[j] = count;
      starts[j] = total;
      total += count;
      if (count > most) most = count;
    }
    // Every message in whole blocks, its last block padded (10...0) unless complete, then XORed
    // with the sub-key that says which.
    const data = Buffer.alloc(total * BLOCK);
    for (let j = 0; j < n; j++) {
      const at = (starts[j] as number) * BLOCK;
      const length = lengths[j] as number;
      data.write(messages[j] as string, at, encoding);
      const complete = length > 0 && length % BLOCK === 0;
      if (!complete) data[at + length] = 0x80;
      const key = complete ? this.#k1 : this.#k2;
      const last = at + ((blocks[j] as number) - 1) * BLOCK;
      for (let i = 0; i < BLOCK; i++) data[last + i] = (data[last + i] as number) ^ (key[i] as number);
    }
    // Longest first, so the messages still running at block position r are a prefix of `order`.
    const byCount: number[][] = Array.from({ length: most + 1 }, () => []);
    for (let j = 0; j < n; j++) byCount[blocks[j] as number]?.push(j);
    const order: number[] = [];
    for (let count = most; count >= 1; count--) for (const j of byCount[count] ?? []) order.push(j);
    const state = Buffer.alloc(n * BLOCK);
    // Word views for the XORs (Buffer.alloc gives each buffer its own memory, so they align).
    const stateWords = new Uint32Array(state.buffer, state.byteOffset, n * 4);
    const dataWords = new Uint32Array(data.buffer, data.byteOffset, total * 4);
    let running = n;
    for (let r = 0; r < most; r++) {
      while (running > 0 && (blocks[order[running - 1] as number] as number) <= r) running--;
      for (let p = 0; p < running; p++) {
        const from = ((starts[order[p] as number] as number) + r) * 4;
        const to = p * 4;
        for (let i = 0; i < 4; i++)
          stateWords[to + i] = (stateWords[to + i] as number) ^ (dataWords[from + i] as number);
      }
      this.#ecb.update(state.subarray(0, running * BLOCK)).copy(state);
    }
    const tags = Buffer.alloc(n * BLOCK);
    for (let p = 0; p < n; p++) {
      const at = p * BLOCK;
      state.copy(tags, (order[p] as number) * BLOCK, at, at + BLOCK);
    }
    return tags;
  }
}

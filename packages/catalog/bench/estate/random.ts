/**
 * A small seeded generator (sfc32, seeded through splitmix32) so that an estate is the same
 * bytes for the same seed on every machine and Node version: Math.random cannot be seeded, and
 * a cryptographic generator would be needlessly slow for a few million draws.
 */
/** Two hex digits per byte value: string building is the generator's hot path. */
const HEX: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hex8(v: number): string {
  return (
    (HEX[v >>> 24] as string) +
    (HEX[(v >>> 16) & 255] as string) +
    (HEX[(v >>> 8) & 255] as string) +
    (HEX[v & 255] as string)
  );
}

export class Rng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const split = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.#a = split();
    this.#b = split();
    this.#c = split();
    this.#d = split();
    // The first outputs of sfc32 are still close to the seed; discard them.
    for (let i = 0; i < 12; i += 1) this.uint32();
  }

  uint32(): number {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0;
    this.#d = (this.#d + 1) >>> 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) >>> 0;
    this.#c = ((this.#c << 21) | (this.#c >>> 11)) >>> 0;
    this.#c = (this.#c + t) >>> 0;
    return t;
  }

  /** A float in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** An integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** One of `items`, each as likely as its weight. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let r = this.next() * total;
    for (const [item, w] of items) {
      r -= w;
      if (r < 0) return item;
    }
    const last = items[items.length - 1];
    if (!last) throw new RangeError('weighted pick from an empty list');
    return last[0];
  }

  /** `n` lower-case hex digits. */
  hex(n: number): string {
    let out = '';
    while (out.length < n) out += hex8(this.uint32());
    return out.length === n ? out : out.slice(0, n);
  }

  /** `n` decimal digits, the first not zero (AWS account ids, project numbers). */
  digits(n: number): string {
    let out = String(this.int(1, 9));
    while (out.length < n) out += String(this.int(0, 9));
    return out;
  }

  /** A version-4-shaped UUID: what collectors put in `id`. */
  uuid(): string {
    const a = this.uint32();
    const b = this.uint32();
    const c = this.uint32();
    const d = this.uint32();
    const bh = hex8(((b & 0xffff0fff) | 0x4000) >>> 0);
    const ch = hex8(((c & 0x3fffffff) | 0x80000000) >>> 0);
    return `${hex8(a)}-${bh.slice(0, 4)}-${bh.slice(4)}-${ch.slice(0, 4)}-${ch.slice(4)}${hex8(d)}`;
  }
}

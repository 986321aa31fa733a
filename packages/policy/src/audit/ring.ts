/** A fixed-size ring buffer: the oldest entry goes when a new one arrives at capacity. */
export class Ring<T> {
  private readonly items: (T | undefined)[];
  private start = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.items = new Array<T | undefined>(Math.max(0, capacity));
  }

  push(item: T): void {
    if (this.capacity === 0) return;
    const index = (this.start + this.count) % this.capacity;
    this.items[index] = item;
    if (this.count < this.capacity) this.count++;
    else this.start = (this.start + 1) % this.capacity;
  }

  /** The newest entry matching `test` among the `depth` newest, if any. */
  findLast(test: (item: T) => boolean, depth = this.count): T | undefined {
    for (let i = this.count - 1; i >= Math.max(0, this.count - depth); i--) {
      const item = this.items[(this.start + i) % this.capacity] as T;
      if (test(item)) return item;
    }
    return undefined;
  }

  /** Oldest first. */
  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.count; i++) out.push(this.items[(this.start + i) % this.capacity] as T);
    return out;
  }
}

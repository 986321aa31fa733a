/**
 * Admission of HTTP requests to the layer: how many run at once, how long the rest may wait, and
 * how much of one event-loop turn they may take.
 *
 * Why the turn matters: under load Node accepts one new connection per event-loop turn, and a
 * turn serves the requests of every connection that sent one. With hundreds of busy connections
 * a turn takes hundreds of milliseconds, so a connection that opens then sits in the kernel's
 * accept queue for (connections ahead of it) x (turn length): seconds, before its first request
 * is even read. Here requests run only while the turn is young; the rest wait in a FIFO that is
 * worked off a slice at a time in the turns that follow, so turns stay short and new connections
 * are accepted promptly. A request that waited longer than `maxQueueWaitMs` is answered at once
 * with 503 and `Retry-After` instead of being served late.
 */

/** Work started in one event-loop turn before the rest waits for the next. */
const TURN_SLICE_MS = 2;

export interface AdmissionOptions {
  /** Requests running at once; 0 for no limit. */
  maxInFlight: number;
  /** How long a request may wait for its turn before it is shed; 0 waits without limit. */
  maxQueueWaitMs: number;
}

interface Job {
  run: () => Promise<void>;
  shed: () => void;
  /** Whether anyone is still waiting for the answer. */
  wanted: () => boolean;
  since: number;
  settle: (error?: unknown) => void;
}

export class RequestAdmission {
  private readonly queue: Job[] = [];
  private head = 0;
  private running = 0;
  /** End of the current turn's slice, or 0 outside a turn that ran something. */
  private sliceEnd = 0;
  private pumpQueued = false;
  private pumping = false;
  private expiry: NodeJS.Timeout | undefined;
  private shedCount = 0;

  constructor(readonly options: AdmissionOptions) {}

  /** Requests running now. */
  get inFlight(): number {
    return this.running;
  }

  /** Requests waiting now. */
  get waiting(): number {
    return this.queue.length - this.head;
  }

  /** Requests answered with 503 so far. */
  get shed(): number {
    return this.shedCount;
  }

  /**
   * Run `run` now if a slot is free and this turn still has time, else queue it; `shed` answers
   * it instead once it has waited longer than `maxQueueWaitMs`. Settles when either is done.
   */
  submit(run: () => Promise<void>, shed: () => void, wanted: () => boolean): Promise<void> {
    if (this.waiting === 0 && this.hasSlot() && this.inSlice(performance.now())) return this.start(run);
    return new Promise<void>((resolve, reject) => {
      this.queue.push({
        run,
        shed,
        wanted,
        since: performance.now(),
        settle: (error) => (error === undefined ? resolve() : reject(error)),
      });
      this.schedulePump();
      this.armExpiry();
    });
  }

  /** Stop the timers (server closing); queued requests are left to their closing sockets. */
  close(): void {
    if (this.expiry) clearTimeout(this.expiry);
    this.expiry = undefined;
  }

  private hasSlot(): boolean {
    return this.options.maxInFlight === 0 || this.running < this.options.maxInFlight;
  }

  /** Whether work may still start in this turn; the first work of a turn opens its slice. */
  private inSlice(now: number): boolean {
    if (this.sliceEnd === 0) {
      this.sliceEnd = now + TURN_SLICE_MS;
      // Immediates queued now run after this turn's I/O: the next turn gets a fresh slice.
      setImmediate(() => {
        this.sliceEnd = 0;
      });
    }
    return now < this.sliceEnd;
  }

  private start(run: () => Promise<void>): Promise<void> {
    this.running += 1;
    const done = run();
    void done.then(this.finished, this.finished);
    return done;
  }

  private readonly finished = (): void => {
    this.running -= 1;
    if (this.waiting > 0) this.schedulePump();
  };

  private schedulePump(): void {
    if (this.pumpQueued || this.pumping) return;
    this.pumpQueued = true;
    setImmediate(() => {
      this.pumpQueued = false;
      void this.pump();
    });
  }

  /**
   * Start queued requests, oldest first, while slots are free and this turn's slice lasts. A
   * request that finishes within its turn is awaited before the clock is read again; one that
   * goes on (real I/O) is left running from the next turn on.
   */
  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      this.sliceEnd = 0;
      while (this.waiting > 0 && this.hasSlot()) {
        const now = performance.now();
        if (!this.inSlice(now)) {
          this.pumping = false;
          this.schedulePump();
          return;
        }
        const job = this.take();
        if (!job) break;
        const { maxQueueWaitMs } = this.options;
        if (!job.wanted()) {
          job.settle();
        } else if (maxQueueWaitMs > 0 && now - job.since > maxQueueWaitMs) {
          this.shedJob(job);
        } else {
          const done = this.start(job.run).then(
            () => job.settle(),
            (error: unknown) => job.settle(error),
          );
          await Promise.race([done, nextTurn()]);
        }
      }
    } finally {
      this.pumping = false;
    }
    this.armExpiry();
  }

  private take(): Job | undefined {
    const job = this.queue[this.head];
    if (!job) return undefined;
    this.queue[this.head] = undefined as unknown as Job;
    this.head += 1;
    // Compact now and then, so the array does not grow with every request ever queued.
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    return job;
  }

  private shedJob(job: Job): void {
    this.shedCount += 1;
    try {
      job.shed();
      job.settle();
    } catch (error) {
      job.settle(error);
    }
  }

  /**
   * While requests wait and no slot is free, shed each one when its wait runs out: nothing else
   * would look at the queue until a running request finishes.
   */
  private armExpiry(): void {
    const { maxQueueWaitMs } = this.options;
    if (maxQueueWaitMs === 0 || this.expiry || this.waiting === 0) return;
    const oldest = this.queue[this.head];
    if (!oldest) return;
    const delay = Math.max(0, oldest.since + maxQueueWaitMs - performance.now()) + 1;
    this.expiry = setTimeout(() => {
      this.expiry = undefined;
      const now = performance.now();
      while (this.waiting > 0) {
        const job = this.queue[this.head];
        if (!job || now - job.since <= maxQueueWaitMs) break;
        this.take();
        if (job.wanted()) this.shedJob(job);
        else job.settle();
      }
      this.armExpiry();
    }, delay);
    this.expiry.unref();
  }
}

/** Resolves in the next event-loop turn (from I/O or a check callback). */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Signals and the end of serving. A signal that stops the server means the process is about to
 * exit: a repeated one (a terminal's Ctrl-C reaching a launcher and this process) must still find
 * cloudg's handler, never Node's default, which would kill the process before it exits 0. Serving
 * stopped any other way gives the signals back, since the process goes on.
 *
 * The signals are emitted in-process, so nothing here depends on when the OS delivers them.
 *
 * @isolated it adds and removes process signal listeners.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createLayerFromOptions, serve } from '../src/index.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const before = new Map(SIGNALS.map((s) => [s, process.listeners(s)]));

afterEach(() => {
  // Take off whatever the test left, so later files in this worker see the process as it was.
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.includes(listener)) process.off(signal, listener);
    }
  }
});

function added(signal: (typeof SIGNALS)[number]): number {
  return process.listenerCount(signal) - before.get(signal)!.length;
}

async function startHttp(signal?: AbortSignal) {
  const server = await createLayerFromOptions({ policy: 'open' });
  let listening!: () => void;
  const ready = new Promise<void>((resolve) => {
    listening = resolve;
  });
  const done = serve(server, {
    transport: 'http',
    port: 0,
    announce: () => {},
    onListening: () => listening(),
    ...(signal ? { signal } : {}),
  });
  // A start-up failure rejects `done` before anything listens.
  await Promise.race([ready, done]);
  // Wrapped: an async function returning the promise itself would wait for serving to end.
  return { done };
}

describe('serve and process signals', () => {
  it('after SIGINT stopped it, a second SIGINT still reaches its handler, not the default', async () => {
    const { done } = await startHttp();
    expect(added('SIGINT')).toBe(1);
    process.emit('SIGINT');
    await done;
    // Serving has ended and the vault is saved; the process is on its way out.
    for (const signal of SIGNALS) expect(added(signal), signal).toBe(1);
    expect(() => process.emit('SIGINT')).not.toThrow();
  });

  it('stopped by its abort signal, it gives the process signals back', async () => {
    const stop = new AbortController();
    const { done } = await startHttp(stop.signal);
    expect(added('SIGTERM')).toBe(1);
    stop.abort();
    await done;
    for (const signal of SIGNALS) expect(added(signal), signal).toBe(0);
  });
});

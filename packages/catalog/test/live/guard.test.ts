import { describe, expect, it } from 'vitest';
import {
  LiveOperationGuard,
  type LiveOperationRefusedError,
  type LiveOperationRequest,
} from '../../src/index.js';
import { FakeClock } from './fake-clock.js';

const settings = {
  cooldownSeconds: 120,
  providerCooldowns: { gcp: 30 },
  maxConcurrentPerScope: 1,
  maxConcurrentTotal: 2,
  callerMaxOperations: 0,
  callerWindowSeconds: 3600,
  operationTimeoutSeconds: 3600,
};

function request(over: Partial<LiveOperationRequest> = {}): LiveOperationRequest {
  return {
    operation: 'map_inventory',
    providers: ['aws'],
    scopes: ['aws'],
    key: '{}',
    caller: 'local',
    force: false,
    signal: new AbortController().signal,
    ...over,
  };
}

/** Work that finishes when the test says so, counting how often it started. */
function gate() {
  let release!: (v: string) => void;
  let starts = 0;
  let signal: AbortSignal | undefined;
  const promise = new Promise<string>((r) => {
    release = r;
  });
  return {
    work: (s: AbortSignal) => {
      starts += 1;
      signal = s;
      return promise;
    },
    release: (v: string) => release(v),
    get starts() {
      return starts;
    },
    get signal() {
      return signal;
    },
  };
}

async function refusal(p: Promise<unknown>): Promise<LiveOperationRefusedError> {
  try {
    await p;
  } catch (error) {
    return error as LiveOperationRefusedError;
  }
  throw new Error('not refused');
}

describe('LiveOperationGuard', () => {
  it('an identical call joins the running operation: one run, the same result, joined counted', async () => {
    const guard = new LiveOperationGuard(settings, new FakeClock());
    const g = gate();
    const first = guard.run(request(), g.work);
    const second = guard.run(request({ caller: 'other' }), g.work);
    g.release('result');
    expect(await first).toEqual({ value: 'result', joined: false });
    expect(await second).toEqual({ value: 'result', joined: true });
    expect(g.starts).toBe(1);
    expect(guard.status()).toMatchObject({ started: 1, joined: 1, active_total: 0 });
  });

  it('a different operation on a busy scope is refused as busy with -31029 and the scopes', async () => {
    const guard = new LiveOperationGuard(settings, new FakeClock());
    const g = gate();
    const first = guard.run(request(), g.work);
    const error = await refusal(guard.run(request({ operation: 'collect_assets' }), g.work));
    expect(error.code).toBe(-31029);
    expect(error.data).toMatchObject({ reason: 'busy', scopes: ['aws'], caller: 'local' });
    expect(error.message).toContain('a live operation is already running for aws');
    g.release('x');
    await first;
  });

  it('the total cap refuses a third operation on other scopes', async () => {
    const guard = new LiveOperationGuard(settings, new FakeClock());
    const a = gate();
    const b = gate();
    const one = guard.run(request({ scopes: ['aws/111111111111'] }), a.work);
    const two = guard.run(request({ scopes: ['aws/222222222222'] }), b.work);
    const error = await refusal(guard.run(request({ scopes: ['aws/333333333333'] }), gate().work));
    expect(error.data.reason).toBe('busy');
    a.release('1');
    b.release('2');
    await Promise.all([one, two]);
  });

  it('cooldown after an operation ends, per provider, reported with retry_after_seconds; force skips it', async () => {
    const clock = new FakeClock();
    const guard = new LiveOperationGuard(settings, clock);
    await guard.run(request(), async () => 'done');
    clock.advance(20_000);
    const error = await refusal(guard.run(request(), async () => 'again'));
    expect(error.data).toMatchObject({ reason: 'cooldown', retry_after_seconds: 100, scopes: ['aws'] });
    expect(error.message).toContain('cooling down, retry in 100s');
    expect(error.message).toContain('force=true');
    expect(guard.status().cooling_down).toEqual({ aws: 100 });
    expect(await guard.run(request({ force: true }), async () => 'forced')).toEqual({
      value: 'forced',
      joined: false,
    });
    // gcp's own cooldown is 30 s.
    await guard.run(request({ providers: ['gcp'], scopes: ['gcp'] }), async () => 'g');
    clock.advance(30_001);
    await expect(
      guard.run(request({ providers: ['gcp'], scopes: ['gcp'] }), async () => 'g2'),
    ).resolves.toEqual({
      value: 'g2',
      joined: false,
    });
  });

  it('the caller quota refuses the next operation inside the window', async () => {
    const clock = new FakeClock();
    const guard = new LiveOperationGuard({ ...settings, callerMaxOperations: 1, cooldownSeconds: 0 }, clock);
    await guard.run(request(), async () => 1);
    clock.advance(600_000);
    const error = await refusal(guard.run(request({ scopes: ['gcp'], providers: ['gcp'] }), async () => 2));
    expect(error.data).toMatchObject({ reason: 'quota', retry_after_seconds: 3000, caller: 'local' });
    expect((await guard.run(request({ caller: 'someone-else' }), async () => 3)).value).toBe(3);
  });

  it('an operation past the timeout is cancelled, its scopes freed, and the caller gets reason timeout', async () => {
    const clock = new FakeClock();
    const guard = new LiveOperationGuard({ ...settings, operationTimeoutSeconds: 10 }, clock);
    const g = gate();
    const running = guard.run(request(), g.work);
    clock.advance(10_000);
    const error = await refusal(running);
    expect(error.data.reason).toBe('timeout');
    expect(g.signal?.aborted).toBe(true);
    expect(guard.status().active_total).toBe(0);
  });

  it('when every caller has cancelled, the operation is cancelled', async () => {
    const guard = new LiveOperationGuard(settings, new FakeClock());
    const g = gate();
    const c1 = new AbortController();
    const c2 = new AbortController();
    const one = guard.run(request({ signal: c1.signal }), g.work);
    const two = guard.run(request({ signal: c2.signal }), g.work);
    c1.abort(new Error('gone'));
    await expect(one).rejects.toThrow('gone');
    expect(g.signal?.aborted).toBe(false);
    c2.abort(new Error('gone too'));
    await expect(two).rejects.toThrow('gone too');
    expect(g.signal?.aborted).toBe(true);
  });
});

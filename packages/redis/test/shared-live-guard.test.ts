/**
 * The live operation guard shared by three replicas through one real redis-server: an identical
 * call on another replica joins the running one, caps, cooldowns and the caller quota hold across
 * replicas with the in-process guard's refusals (-31029), and a replica that dies while holding a
 * scope frees it once its claim expires. Time is a clock the test moves.
 */
import {
  type LiveClock,
  type LiveGuardSettings,
  LiveOperationGuard,
  LiveOperationRefusedError,
  type LiveOperationRequest,
} from '@cloudg/catalog';
import { createVaultSealer } from '@cloudg/privacy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRedisSharedState, type RedisSharedState } from '../src/index.js';
import { TestRedis } from './support/redis-server.js';

/** Moved by hand; callbacks fire once their time has passed. */
class FakeClock implements LiveClock {
  t = 1_000_000;
  #timers: { at: number; fn: () => void; live: boolean }[] = [];
  now(): number {
    return this.t;
  }
  schedule(fn: () => void, ms: number): () => void {
    const timer = { at: this.t + ms, fn, live: true };
    this.#timers.push(timer);
    return () => {
      timer.live = false;
    };
  }
  advance(ms: number): void {
    this.t += ms;
    for (const timer of this.#timers.filter((x) => x.live && x.at <= this.t)) {
      timer.live = false;
      timer.fn();
    }
  }
}

const SETTINGS: LiveGuardSettings = {
  cooldownSeconds: 60,
  providerCooldowns: { gcp: 5 },
  maxConcurrentPerScope: 1,
  maxConcurrentTotal: 2,
  callerMaxOperations: 0,
  callerWindowSeconds: 3600,
  operationTimeoutSeconds: 900,
};
const LEASE_MS = 3000;
const sealer = createVaultSealer({ key: 'guard-test-vault-key' });
let redis: TestRedis;
const states: RedisSharedState[] = [];

async function guards(prefix: string, n: number, clock: FakeClock, settings = SETTINGS) {
  const out: { guard: LiveOperationGuard; state: RedisSharedState }[] = [];
  for (let i = 0; i < n; i++) {
    const state = await createRedisSharedState(redis.url, { keyPrefix: prefix });
    states.push(state);
    const ledger = state.liveGuardLedger(sealer, { now: () => clock.now(), pollMs: 10 });
    out.push({ guard: new LiveOperationGuard(settings, clock, { ledger, leaseMs: LEASE_MS }), state });
  }
  return out;
}

function request(over: Partial<LiveOperationRequest> = {}): LiveOperationRequest {
  return {
    operation: 'map_inventory',
    providers: ['aws'],
    scopes: ['aws/123456789012'],
    key: '{"regions":["eu-west-1"]}',
    caller: 'alice',
    force: false,
    signal: new AbortController().signal,
    ...over,
  };
}

/** Work the test finishes by hand. */
function pending<T>() {
  let finish!: (value: T) => void;
  let runs = 0;
  const promise = new Promise<T>((resolve) => {
    finish = resolve;
  });
  return {
    work: async () => {
      runs += 1;
      return promise;
    },
    finish: (value: T) => finish(value),
    runs: () => runs,
  };
}

async function refusal(promise: Promise<unknown>): Promise<LiveOperationRefusedError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(LiveOperationRefusedError);
  return error as LiveOperationRefusedError;
}

beforeAll(async () => {
  redis = await TestRedis.start();
});
afterAll(async () => {
  for (const s of states) await s.close();
  await redis?.stop();
});

describe('a live operation guard shared by three replicas', () => {
  it('joins an identical call on another replica to the running one, which runs once', async () => {
    const clock = new FakeClock();
    const [a, b] = await guards('g1:', 2, clock);
    const op = pending<{ dataset: string }>();
    const first = a!.guard.run(request(), op.work);
    await new Promise((r) => setTimeout(r, 20));
    const second = b!.guard.run(request(), async () => ({ dataset: 'never' }));
    await new Promise((r) => setTimeout(r, 30));
    op.finish({ dataset: 'live-1' });
    expect(await first).toEqual({ value: { dataset: 'live-1' }, joined: false });
    expect(await second).toEqual({ value: { dataset: 'live-1' }, joined: true });
    expect(op.runs()).toBe(1);
  });

  it('refuses a second operation on a busy scope and past the total cap, on any replica (-31029)', async () => {
    const clock = new FakeClock();
    const [a, b, c] = await guards('g2:', 3, clock);
    const one = pending<string>();
    const running = a!.guard.run(request(), one.work);
    await new Promise((r) => setTimeout(r, 20));
    const busy = await refusal(b!.guard.run(request({ key: 'other' }), async () => 'x'));
    expect(busy.code).toBe(-31029);
    expect(busy.data).toMatchObject({ reason: 'busy', scopes: ['aws/123456789012'] });
    expect(busy.message).toContain('a live operation is already running for aws');
    const two = pending<string>();
    const gcp = b!.guard.run(request({ providers: ['gcp'], scopes: ['gcp/proj-1'] }), two.work);
    await new Promise((r) => setTimeout(r, 20));
    const full = await refusal(
      c!.guard.run(request({ providers: ['azure'], scopes: ['azure/sub-1'] }), async () => 'x'),
    );
    expect(full.data.reason).toBe('busy');
    expect(full.message).toContain('2 live operations are already running');
    one.finish('done');
    two.finish('done');
    await Promise.all([running, gcp]);
  });

  it('cools a scope down on every replica after it ran, per provider, with force to skip it', async () => {
    const clock = new FakeClock();
    const [a, b, c] = await guards('g3:', 3, clock);
    await a!.guard.run(request(), async () => 'first');
    clock.advance(10_000);
    const cooling = await refusal(b!.guard.run(request({ key: 'again' }), async () => 'x'));
    expect(cooling.data).toMatchObject({
      reason: 'cooldown',
      retry_after_seconds: 50,
      scopes: ['aws/123456789012'],
    });
    expect(cooling.message).toContain('retry in 50s');
    expect((await c!.guard.run(request({ key: 'forced', force: true }), async () => 'forced')).value).toBe(
      'forced',
    );
    // gcp's own cooldown is 5 s.
    await a!.guard.run(request({ providers: ['gcp'], scopes: ['gcp/p'] }), async () => 'g');
    clock.advance(6_000);
    expect(
      (await b!.guard.run(request({ providers: ['gcp'], scopes: ['gcp/p'], key: 'k2' }), async () => 'g2'))
        .value,
    ).toBe('g2');
  });

  it("counts a caller's starts on every replica against one quota", async () => {
    const clock = new FakeClock();
    const settings = { ...SETTINGS, cooldownSeconds: 0, callerMaxOperations: 2, callerWindowSeconds: 60 };
    const [a, b, c] = await guards('g4:', 3, clock, settings);
    await a!.guard.run(request({ key: '1' }), async () => 1);
    await b!.guard.run(request({ key: '2' }), async () => 2);
    clock.advance(1000);
    const quota = await refusal(c!.guard.run(request({ key: '3' }), async () => 3));
    expect(quota.data).toMatchObject({ reason: 'quota', retry_after_seconds: 59 });
    expect((await c!.guard.run(request({ key: '3', caller: 'bob' }), async () => 3)).value).toBe(3);
    clock.advance(59_000);
    expect((await c!.guard.run(request({ key: '4' }), async () => 4)).value).toBe(4);
  });

  it('frees the scopes of a replica that died holding them once its claim expires', async () => {
    const clock = new FakeClock();
    const [a, b] = await guards('g5:', 2, clock);
    const stuck = pending<string>();
    void a!.guard.run(request(), stuck.work).catch(() => {});
    await new Promise((r) => setTimeout(r, 20));
    // B joins the flight A holds; then A's process is gone: no renewal reaches Redis any more.
    const joined = b!.guard.run(request(), async () => 'never');
    a!.state.client.disconnect();
    clock.advance(LEASE_MS - 1000);
    expect((await refusal(b!.guard.run(request({ key: 'other' }), async () => 'x'))).data.reason).toBe(
      'busy',
    );
    clock.advance(2000);
    const orphaned = await refusal(joined);
    expect(orphaned.data.reason).toBe('busy');
    expect(orphaned.message).toContain('ended without a result');
    expect((await b!.guard.run(request({ key: 'other' }), async () => 'after')).value).toBe('after');
  });

  it("shows every replica's flights and cooldowns in the status, naming the scopes the replica can name", async () => {
    const clock = new FakeClock();
    const [a, b, c] = await guards('g7:', 3, clock);
    const onAws = pending<string>();
    const onGcp = pending<string>();
    const running = [
      a!.guard.run(request(), onAws.work),
      b!.guard.run(request({ providers: ['gcp'], scopes: ['gcp/proj-1'] }), onGcp.work),
    ];
    const deadline = Date.now() + 15_000;
    while ((onAws.runs() === 0 || onGcp.runs() === 0) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 10));
    // C runs nothing itself and knows only the aws account (its config's scope).
    const during = await c!.guard.sharedStatus(['aws/123456789012']);
    expect(during.active_total).toBe(0);
    expect(during.across_replicas).toEqual({
      active_total: 2,
      active_by_scope: { 'aws/123456789012': 1 },
      other_scopes_active: 1,
      cooling_down: {},
      other_scopes_cooling_down: 0,
    });
    onAws.finish('done');
    onGcp.finish('done');
    await Promise.all(running);
    clock.advance(10_000);
    // A flight's end reaches the ledger just after its callers are answered: waited for.
    let after = await c!.guard.sharedStatus(['aws/123456789012']);
    const until = Date.now() + 15_000;
    const ended = () =>
      after.across_replicas?.other_scopes_cooling_down === 1 &&
      after.across_replicas.cooling_down['aws/123456789012'] !== undefined;
    while (!ended() && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 10));
      after = await c!.guard.sharedStatus(['aws/123456789012']);
    }
    expect(after.across_replicas).toEqual({
      active_total: 0,
      active_by_scope: {},
      other_scopes_active: 0,
      cooling_down: { 'aws/123456789012': 50 },
      other_scopes_cooling_down: 1,
    });
    // Without a shared ledger there is nothing across replicas to show.
    expect((await new LiveOperationGuard(SETTINGS, clock).sharedStatus([])).across_replicas).toBeUndefined();
  });

  it('keeps no scope, account id or caller in clear in Redis', async () => {
    const clock = new FakeClock();
    const [a] = await guards('g6:', 1, clock, { ...SETTINGS, callerMaxOperations: 5 });
    await a!.guard.run(request({ caller: 'alice@example.com' }), async () => ({ account: '123456789012' }));
    const client = (states.at(-1) as RedisSharedState).client;
    const keys = await client.keys('g6:*');
    let dump = keys.join('\n');
    for (const key of keys) {
      const type = await client.type(key);
      if (type === 'hash') dump += JSON.stringify(await client.hgetall(key));
      else if (type === 'zset') dump += (await client.zrange(key, '0', '-1')).join('\n');
      else if (type === 'string') dump += (await client.get(key)) ?? '';
    }
    expect(keys.length).toBeGreaterThan(0);
    for (const needle of ['123456789012', 'alice', 'aws/', 'map_inventory'])
      expect(dump, needle).not.toContain(needle);
  });
});

/** The throttling governor on its own, with an injected clock, sleep and random source. */
import { describe, expect, it } from 'vitest';
import { CircuitOpenError, classify, Governor, type GovernorEvent, retryAfterSeconds } from '../src/index.js';

const scope = { provider: 'aws', account: '111111111111', region: 'eu-west-1', service: 's3' };
const throttle = () =>
  Object.assign(new Error('Slow Down'), { name: 'SlowDown', $metadata: { httpStatusCode: 503 } });

function governor(
  options: {
    now?: { t: number };
    events?: GovernorEvent[];
    maxRetries?: number;
    breakerThreshold?: number;
  } = {},
) {
  const clock = options.now ?? { t: 1000 };
  return new Governor({
    now: () => clock.t,
    sleep: async (s) => {
      clock.t += s;
    },
    random: () => 0,
    maxRetries: options.maxRetries ?? 0,
    breakerThreshold: options.breakerThreshold ?? 2,
    breakerCooldownSeconds: 60,
    onEvent: (e) => options.events?.push(e),
  });
}

describe('classify', () => {
  it('tells throttling, transient, denied and fatal answers apart across SDK error shapes', () => {
    expect(classify({ name: 'ThrottlingException', $metadata: { httpStatusCode: 400 } })).toBe('throttled');
    expect(classify({ code: 'TooManyRequests', statusCode: 429 })).toBe('throttled'); // Azure RestError
    expect(classify({ code: 8, status: 429 })).toBe('throttled'); // Google client
    expect(classify({ code: 7, details: 'The caller does not have permission' })).toBe('denied'); // gRPC-coded
    expect(classify({ code: 14 })).toBe('transient');
    expect(classify({ name: 'InternalError', $metadata: { httpStatusCode: 500 } })).toBe('transient');
    expect(classify({ code: 'ECONNRESET' })).toBe('transient');
    expect(classify({ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } })).toBe('denied');
    expect(classify({ code: 'AuthorizationFailed', statusCode: 403 })).toBe('denied');
    expect(classify({ name: 'ValidationException', $metadata: { httpStatusCode: 400 } })).toBe('fatal');
    expect(classify(new Error('Rate exceeded'))).toBe('throttled');
  });

  it('reads Retry-After as seconds or as an HTTP date, from plain or Headers-like objects', () => {
    expect(retryAfterSeconds({ $response: { headers: { 'retry-after': '12' } } })).toBe(12);
    expect(retryAfterSeconds({ response: { headers: new Map([['retry-after', '3']]) } })).toBe(3);
    const now = Date.parse('2026-12-01T10:00:00Z');
    expect(
      retryAfterSeconds({ $response: { headers: { 'retry-after': 'Tue, 01 Dec 2026 10:00:30 GMT' } } }, now),
    ).toBe(30);
    expect(retryAfterSeconds(new Error('x'))).toBeNull();
  });
});

describe('circuit breaker', () => {
  it('opens after the threshold of give-ups, lets one probe through after the cooldown and doubles it on failure', async () => {
    const clock = { t: 1000 };
    const events: GovernorEvent[] = [];
    const g = governor({ now: clock, events });
    const fail = () => Promise.reject(throttle());
    await expect(g.call(scope, fail)).rejects.toThrow(/gave up after 1 attempt/);
    await expect(g.call(scope, fail)).rejects.toThrow(/gave up/);
    expect(g.breakerState(scope)).toBe('open');
    let sent = 0;
    const count = () => {
      sent += 1;
      return Promise.reject(throttle());
    };
    await expect(g.call(scope, count)).rejects.toBeInstanceOf(CircuitOpenError);
    expect(sent).toBe(0);
    clock.t += 61;
    await expect(g.call(scope, count)).rejects.toThrow(/gave up/); // the probe
    expect(sent).toBe(1);
    clock.t += 61; // the cooldown doubled to 120 s
    await expect(g.call(scope, count)).rejects.toThrow('retry in 59s');
    clock.t += 60;
    await expect(g.call(scope, () => Promise.resolve('ok'))).resolves.toBe('ok');
    expect(g.breakerState(scope)).toBe('closed');
    expect(events.filter((e) => e.kind === 'breaker_trip')).toHaveLength(2);
    expect(events.filter((e) => e.kind === 'breaker_reset')).toHaveLength(1);
  });

  it('never opens on access denied', async () => {
    const g = governor({ breakerThreshold: 1 });
    const denied = () => Promise.reject(Object.assign(new Error('no'), { name: 'AccessDeniedException' }));
    for (let i = 0; i < 5; i += 1) await expect(g.call(scope, denied)).rejects.toThrow('no');
    expect(g.breakerState(scope)).toBe('closed');
  });

  it('keeps buckets apart: EC2 per operation, other services per service', () => {
    expect(Governor.bucketOf({ ...scope, service: 'ec2', operation: 'DescribeVpcs' })).toBe(
      'aws/111111111111/eu-west-1/ec2/DescribeVpcs',
    );
    expect(Governor.bucketOf({ ...scope, operation: 'ListBuckets' })).toBe('aws/111111111111/eu-west-1/s3');
  });
});

describe('adaptive rate', () => {
  it('spaces calls of a slowed bucket and stops a wait when the signal aborts', async () => {
    const clock = { t: 1000 };
    const g = governor({ now: clock, maxRetries: 1 });
    let first = true;
    await g.call(scope, () => {
      if (first) {
        first = false;
        return Promise.reject(throttle());
      }
      return Promise.resolve(1);
    });
    // Rate 10 rps now: two calls at the same instant are 0.1 s apart.
    const before = clock.t;
    await g.call(scope, () => Promise.resolve(1));
    await g.call(scope, () => Promise.resolve(1));
    expect(clock.t - before).toBeGreaterThanOrEqual(0.1 - 1e-9);
    const controller = new AbortController();
    controller.abort(new Error('stop'));
    await expect(g.call(scope, () => Promise.resolve(1), controller.signal)).rejects.toThrow('stop');
  });
});

import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccessDeniedError } from '../errors.js';
import { Layer } from '../layer/layer.js';
import { Registry } from '../registry.js';
import { ToolResult } from '../results.js';
import { isTransientError, RetryMiddleware, type RetryOptions } from './retry.js';
import type { Middleware } from './types.js';

const quiet = pino({ level: 'silent' });

/**
 * `answers` decides what each attempt does: 'hang' waits for the signal (so the tool's 1 s
 * timeout fires), 'timeout' and 'crash' return or throw at once, anything else succeeds.
 */
function setup(answers: string[], options: RetryOptions = {}, extra: Middleware[] = []) {
  const attempts: Array<{ at: number; abortedAtStart: boolean }> = [];
  const handler = (ctx: { signal: AbortSignal; link: (uri: string, name: string) => unknown }) => {
    const answer = answers[attempts.length] ?? 'ok';
    attempts.push({ at: Date.now(), abortedAtStart: ctx.signal.aborted });
    ctx.link(`test://attempt/${attempts.length}`, `attempt ${attempts.length}`);
    if (answer === 'hang') return new Promise(() => {});
    if (answer === 'timeout') return ToolResult.error('timed out', { 'cloudg/error_code': 'timeout' });
    if (answer === 'crash') throw new Error('handler bug');
    return { attempt: attempts.length };
  };
  const registry = new Registry();
  registry.tool({ name: 'read', readOnly: true, idempotent: true, timeoutSeconds: 1, handler });
  registry.tool({ name: 'write', readOnly: false, timeoutSeconds: 1, handler });
  const retry = new RetryMiddleware(options);
  const layer = new Layer({ registry, middleware: [retry.middleware, ...extra], logger: quiet });
  return { layer, attempts };
}

describe('RetryMiddleware', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('retries timeouts with a doubling backoff and reports the retries in _meta', async () => {
    const { layer, attempts } = setup(['hang', 'hang', 'ok']);
    const pending = layer.callTool('read');
    await vi.advanceTimersByTimeAsync(10_000);
    const result = await pending;
    expect(result.isError).toBe(false);
    expect(result.structured).toEqual({ attempt: 3 });
    expect(result.meta['cloudg/retries']).toBe(2);
    const start = attempts[0]!.at;
    // 1 s timeout, 0.5 s wait, 1 s timeout, 1 s wait.
    expect(attempts.map((a) => a.at - start)).toEqual([0, 1_500, 3_500]);
    // Each attempt starts with a live signal even though the one before timed out.
    expect(attempts.map((a) => a.abortedAtStart)).toEqual([false, false, false]);
    // Only the successful attempt's link is in the answer.
    expect(result.content.filter((c) => c.type === 'resource_link')).toHaveLength(1);
  });

  it('waits backoff * 2^n between attempts', async () => {
    const { layer, attempts } = setup(['timeout', 'timeout', 'timeout', 'ok'], { retries: 3, backoff: 0.25 });
    const pending = layer.callTool('read');
    await vi.advanceTimersByTimeAsync(10_000);
    expect((await pending).meta['cloudg/retries']).toBe(3);
    const start = attempts[0]!.at;
    expect(attempts.map((a) => a.at - start)).toEqual([0, 250, 750, 1_750]);
  });

  it('returns the last error result after the last retry, with the count', async () => {
    const { layer, attempts } = setup(['timeout', 'timeout', 'timeout', 'ok']);
    const pending = layer.callTool('read');
    await vi.advanceTimersByTimeAsync(10_000);
    const result = await pending;
    expect(attempts).toHaveLength(3);
    expect(result.isError).toBe(true);
    expect(result.meta).toMatchObject({ 'cloudg/error_code': 'timeout', 'cloudg/retries': 2 });
  });

  it('a first-time success carries no cloudg/retries', async () => {
    const { layer } = setup(['ok']);
    expect((await layer.callTool('read')).meta['cloudg/retries']).toBeUndefined();
  });

  it('does not retry tools that are not read-only and idempotent', async () => {
    const { layer, attempts } = setup(['timeout', 'ok']);
    const result = await layer.callTool('write');
    expect(attempts).toHaveLength(1);
    expect(result.meta['cloudg/error_code']).toBe('timeout');
  });

  it('retries only the codes in retryCodes: handler_error when asked', async () => {
    const plain = setup(['crash', 'ok']);
    expect((await plain.layer.callTool('read')).meta['cloudg/error_code']).toBe('handler_error');
    expect(plain.attempts).toHaveLength(1);

    const asked = setup(['crash', 'ok'], { retryCodes: ['timeout', 'handler_error'] });
    const pending = asked.layer.callTool('read');
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await pending).meta['cloudg/retries']).toBe(1);
  });

  it('retries thrown network errors by default, never layer errors', async () => {
    let throws = 1;
    const network: Middleware = async (info, next) => {
      if (throws-- > 0) throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      return next(info);
    };
    const { layer, attempts } = setup(['ok'], {}, [network]);
    const pending = layer.callTool('read');
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await pending).meta['cloudg/retries']).toBe(1);
    expect(attempts).toHaveLength(1);

    let denials = 0;
    const deny: Middleware = async () => {
      denials += 1;
      throw new AccessDeniedError('Access denied');
    };
    const denied = setup(['ok'], {}, [deny]);
    expect((await denied.layer.callTool('read')).meta['cloudg/error_code']).toBe(-31001);
    expect(denials).toBe(1);
  });

  it('retryOn takes error classes or a predicate', async () => {
    class Flaky extends Error {}
    let throws = 2;
    const flaky: Middleware = async (info, next) => {
      if (throws-- > 0) throw new Flaky('try again');
      return next(info);
    };
    const byClass = setup(['ok'], { retryOn: [Flaky] }, [flaky]);
    const pending = byClass.layer.callTool('read');
    await vi.advanceTimersByTimeAsync(5_000);
    expect((await pending).meta['cloudg/retries']).toBe(2);

    throws = 1;
    const never = setup(['ok'], { retryOn: () => false }, [flaky]);
    expect((await never.layer.callTool('read')).meta['cloudg/error_code']).toBe('handler_error');
  });

  it('stops at once when the caller cancels during the wait, leaving no timer behind', async () => {
    const { layer, attempts } = setup(['timeout', 'ok'], { backoff: 60 });
    const controller = new AbortController();
    const pending = layer.callTool('read', {}, { signal: controller.signal });
    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort();
    const result = await pending;
    expect(attempts).toHaveLength(1);
    expect(result.meta['cloudg/error_code']).toBe('timeout');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('isTransientError recognises connection failures, also as a cause', () => {
    expect(isTransientError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isTransientError(new TypeError('fetch failed', { cause: { code: 'UND_ERR_SOCKET' } }))).toBe(true);
    expect(isTransientError(new DOMException('timed out', 'TimeoutError'))).toBe(true);
    expect(isTransientError(new Error('plain bug'))).toBe(false);
  });
});

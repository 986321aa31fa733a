import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, resolveLogFormat } from '../src/logger.js';

/** A writable that collects what it is given, and says whether it is a terminal. */
function capture(isTTY: boolean): Writable & { isTTY: boolean; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      chunks.push(String(chunk));
      done();
    },
  }) as Writable & { isTTY: boolean; text: () => string };
  stream.isTTY = isTTY;
  stream.text = () => chunks.join('');
  return stream;
}

describe('createLogger', () => {
  it('writes human-readable lines to a terminal', () => {
    const out = capture(true);
    const logger = createLogger({ destination: out, env: { NO_COLOR: '1' } });
    logger.info({ tool: 'find_assets', duration_ms: 3 }, 'mcp request');
    const text = out.text();
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: mcp request/);
    expect(text).toContain('"tool":"find_assets"');
    expect(() => JSON.parse(text)).toThrow();
    // NO_COLOR: no escape sequences.
    expect(text).not.toContain('\x1b[');
  });

  it('colours a terminal unless NO_COLOR is set', () => {
    const out = capture(true);
    createLogger({ destination: out, env: {} }).warn('careful');
    expect(out.text()).toContain('\x1b[');
    expect(out.text()).toContain('careful');
  });

  it('writes JSON lines anywhere else', () => {
    const out = capture(false);
    createLogger({ destination: out, env: {} }).info({ tool: 'find_assets' }, 'mcp request');
    const line = JSON.parse(out.text()) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, name: 'cloudg', tool: 'find_assets', msg: 'mcp request' });
  });

  it('CLOUDG_LOG_FORMAT and the format option override the terminal check', () => {
    expect(resolveLogFormat(true, undefined, { CLOUDG_LOG_FORMAT: 'json' })).toBe('json');
    expect(resolveLogFormat(false, undefined, { CLOUDG_LOG_FORMAT: 'PRETTY' })).toBe('pretty');
    expect(resolveLogFormat(false, undefined, { CLOUDG_LOG_FORMAT: 'yaml' })).toBe('json');
    expect(resolveLogFormat(false, 'pretty', { CLOUDG_LOG_FORMAT: 'json' })).toBe('pretty');
    const out = capture(true);
    createLogger({ destination: out, format: 'json', env: {} }).info('x');
    expect(JSON.parse(out.text())).toMatchObject({ msg: 'x' });
  });

  it('takes its level from the option, else CLOUDG_LOG_LEVEL, else info', () => {
    expect(createLogger({ destination: capture(false), env: {} }).level).toBe('info');
    expect(createLogger({ destination: capture(false), env: { CLOUDG_LOG_LEVEL: 'warn' } }).level).toBe(
      'warn',
    );
    const out = capture(false);
    const logger = createLogger({ destination: out, level: 'warn', env: { CLOUDG_LOG_LEVEL: 'debug' } });
    logger.info('not shown');
    expect(out.text()).toBe('');
  });
});

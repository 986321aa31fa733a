/** The Origin and Host guard of MCP.md 7, shared by every HTTP path. */
import { describe, expect, it } from 'vitest';
import { OriginHostGuard } from '../src/index.js';

const forbidden = { status: 403, message: 'Forbidden: invalid Origin' };
const misdirected = { status: 421, message: 'Invalid Host header' };

describe('OriginHostGuard', () => {
  it('on a loopback bind accepts only loopback Host names and refuses a missing Host', () => {
    const guard = new OriginHostGuard({ bindHost: '127.0.0.1' });
    for (const host of ['localhost', '127.0.0.1:8799', '[::1]', '[::1]:1', 'LOCALHOST:80']) {
      expect(guard.check(host, undefined)).toBeUndefined();
    }
    expect(guard.check('attacker.example:8799', undefined)).toEqual(misdirected);
    expect(guard.check(undefined, undefined)).toEqual(misdirected);
    expect(guard.check('127.0.0.2', undefined)).toEqual(misdirected);
  });

  it('on other binds leaves Host alone unless allowed hosts are given', () => {
    expect(new OriginHostGuard({ bindHost: '0.0.0.0' }).check('whatever.example', undefined)).toBeUndefined();
    const strict = new OriginHostGuard({ bindHost: '0.0.0.0', allowedHosts: ['mcp.internal.example:*'] });
    expect(strict.check('mcp.internal.example:443', undefined)).toBeUndefined();
    expect(strict.check('whatever.example', undefined)).toEqual(misdirected);
  });

  it('accepts loopback origins on any port, same-origin requests and configured origins', () => {
    const guard = new OriginHostGuard({ bindHost: '0.0.0.0', extraOrigins: ['https://app.example'] });
    expect(guard.check('h:1', 'http://localhost:3000')).toBeUndefined();
    expect(guard.check('h:1', 'https://[::1]')).toBeUndefined();
    expect(guard.check('h:1', 'https://app.example')).toBeUndefined();
    expect(guard.check('mcp.example:8799', 'https://mcp.example:8799')).toBeUndefined();
    expect(guard.check('h:1', 'https://evil.example')).toEqual(forbidden);
    expect(guard.check('h:1', 'null')).toEqual(forbidden);
    expect(guard.check('h:1', 'http://localhost.evil.example')).toEqual(forbidden);
  });

  it('allowed origins replace the default; * allows any', () => {
    const only = new OriginHostGuard({ bindHost: '0.0.0.0', allowedOrigins: ['https://console.example'] });
    expect(only.check('h', 'http://localhost:3000')).toEqual(forbidden);
    expect(only.check('h', 'HTTPS://CONSOLE.EXAMPLE')).toBeUndefined();
    expect(
      new OriginHostGuard({ bindHost: '0.0.0.0', allowedOrigins: ['*'] }).check('h', 'https://x'),
    ).toBeUndefined();
  });
});

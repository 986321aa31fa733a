import { describe, expect, it } from 'vitest';
import { PROTOCOL_FD_ENV, protocolFdFrom, STDIO_ISOLATION_ENV, wantsStdioIsolation } from '../src/index.js';

describe('stdio isolation settings', () => {
  it('relaunches by default, not when turned off, and never twice', () => {
    expect(wantsStdioIsolation({})).toBe(true);
    for (const off of ['0', 'off', 'OFF', 'false', 'no']) {
      expect(wantsStdioIsolation({ [STDIO_ISOLATION_ENV]: off })).toBe(false);
    }
    expect(wantsStdioIsolation({ [STDIO_ISOLATION_ENV]: 'on' })).toBe(true);
    // The relaunched server carries the descriptor: it must not relaunch again.
    expect(wantsStdioIsolation({ [PROTOCOL_FD_ENV]: '3' })).toBe(false);
  });

  it('reads the protocol descriptor only when it is a plain number', () => {
    expect(protocolFdFrom({ [PROTOCOL_FD_ENV]: '3' })).toBe(3);
    expect(protocolFdFrom({ [PROTOCOL_FD_ENV]: '3; rm -rf /' })).toBeUndefined();
    expect(protocolFdFrom({})).toBeUndefined();
  });
});

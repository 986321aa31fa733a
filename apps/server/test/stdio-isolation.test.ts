import { describe, expect, it } from 'vitest';
import {
  PROTOCOL_FD_ENV,
  protocolFdFrom,
  STDIO_ISOLATION_ENV,
  takeProtocolFd,
  wantsStdioIsolation,
} from '../src/index.js';

describe('stdio isolation settings', () => {
  it('relaunches by default, not when turned off, and never twice', () => {
    expect(wantsStdioIsolation({}, 'linux')).toBe(true);
    expect(wantsStdioIsolation({}, 'darwin')).toBe(true);
    // Windows cannot hand a process extra descriptors reliably, nor pass signals on.
    expect(wantsStdioIsolation({}, 'win32')).toBe(false);
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
    for (const standard of ['0', '1', '2'])
      expect(protocolFdFrom({ [PROTOCOL_FD_ENV]: standard })).toBeUndefined();
  });

  it('takes the descriptor out of the environment, so child processes do not inherit it', () => {
    const env: NodeJS.ProcessEnv = { [PROTOCOL_FD_ENV]: '3', PATH: '/bin' };
    expect(takeProtocolFd(env)).toBe(3);
    expect(env).toEqual({ PATH: '/bin' });
  });
});

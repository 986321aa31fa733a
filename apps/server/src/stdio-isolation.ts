/**
 * Stdio isolation for a server process. A handler, a library, a native addon or a child process
 * that writes to descriptor 1 would corrupt the protocol stream, and Node cannot re-point a
 * descriptor inside a running process. So the launcher runs the server as a child process whose
 * descriptor 1 is stderr and hands the client's stdout over as descriptor 3; the server writes its
 * protocol messages there and nothing else can.
 */
import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/** Set in the relaunched server: the descriptor that carries the protocol. */
export const PROTOCOL_FD_ENV = 'CLOUDG_MCP_PROTOCOL_FD';
/** `0`, `off` or `false` turns the relaunch off (stdout then only has the stream-level guard). */
export const STDIO_ISOLATION_ENV = 'CLOUDG_MCP_STDIO_ISOLATION';

/**
 * The descriptor named by `CLOUDG_MCP_PROTOCOL_FD`, when this process is the relaunched server.
 * Only 3 and above: 0 to 2 are the standard streams, never the handed-over channel.
 */
export function protocolFdFrom(env: NodeJS.ProcessEnv): number | undefined {
  const value = env[PROTOCOL_FD_ENV];
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  const fd = Number(value);
  return fd >= 3 ? fd : undefined;
}

/**
 * Read the descriptor and remove the variable, so programs this server starts (scanners, another
 * cloudg) do not inherit a descriptor number that means nothing to them.
 */
export function takeProtocolFd(env: NodeJS.ProcessEnv): number | undefined {
  const fd = protocolFdFrom(env);
  delete env[PROTOCOL_FD_ENV];
  return fd;
}

/**
 * Whether a launcher should relaunch for isolation: on unless turned off or already done, and not
 * on Windows, where extra inherited descriptors are not reliable and signals cannot be passed on.
 */
export function wantsStdioIsolation(
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (platform === 'win32') return false;
  if (env[PROTOCOL_FD_ENV] !== undefined) return false;
  const setting = (env[STDIO_ISOLATION_ENV] ?? '').trim().toLowerCase();
  return !['0', 'off', 'false', 'no'].includes(setting);
}

export interface RelaunchOptions {
  /** The command line to run again; default this process's own. */
  execPath?: string;
  args?: readonly string[];
  env?: NodeJS.ProcessEnv;
}

/**
 * Run this process's command again as an isolated stdio server and wait for it. Signals the
 * launcher receives are passed on; resolves with the server's exit status.
 */
export function relaunchIsolated(options: RelaunchOptions = {}): Promise<number> {
  const execPath = options.execPath ?? process.execPath;
  const args = options.args ?? [...process.execArgv, ...process.argv.slice(1)];
  const env = { ...(options.env ?? process.env), [PROTOCOL_FD_ENV]: '3' };
  // Child descriptors: 0 is our stdin, 1 and 2 our stderr, 3 our stdout (the client's channel).
  const child = spawn(execPath, args, { stdio: [0, 2, 2, 1], env });
  const forward = (signal: NodeJS.Signals) => () => {
    child.kill(signal);
  };
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => {
    const handler = forward(signal);
    process.on(signal, handler);
    return [signal, handler] as const;
  });
  return new Promise<number>((resolve, reject) => {
    const done = () => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
    };
    child.once('error', (error) => {
      done();
      reject(error);
    });
    child.once('exit', (code, signal) => {
      done();
      resolve(code ?? (signal ? 128 + (constants.signals[signal] ?? 0) : 1));
    });
  });
}

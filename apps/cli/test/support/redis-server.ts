/**
 * A real redis-server for the `serve --redis-url` test: its own process on a free loopback port, no
 * persistence, stopped afterwards. Missing redis-server fails with the way to install it.
 * (The Redis package's tests have a fuller one with restarts; packages do not share test files.)
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

function pong(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    socket.setTimeout(200);
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
  });
}

export async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  let binary: string;
  try {
    binary = execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('redis-server is not installed: apt-get install -y redis-server (.ci/run installs it)');
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'cloudg-redis-'));
  const child: ChildProcess = spawn(
    binary,
    ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 5000;
  while (!(await pong(port))) {
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

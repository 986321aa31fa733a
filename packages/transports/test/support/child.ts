/** Spawn the stdio test server as a child process and talk to it line by line. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
/**
 * A child server's script, bundled to plain JavaScript by `build-children.ts` before the run:
 * `stdioServer` or `httpServerChild`.
 */
export function childScript(name: 'stdioServer' | 'httpServerChild'): string {
  return join(inject('testChildrenDir'), `${name}.mjs`);
}
/** Node's arguments for the stdio test server. */
export const NODE_ARGS = [childScript('stdioServer')];

export class StdioChild {
  readonly proc: ChildProcessWithoutNullStreams;
  readonly lines: string[] = [];
  stderr = '';
  private waiters: Array<() => void> = [];
  readonly exited: Promise<number | null>;

  constructor(env: Record<string, string> = {}) {
    this.proc = spawn(process.execPath, NODE_ARGS, { cwd: PACKAGE_DIR, env: { ...process.env, ...env } });
    let buffer = '';
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (chunk: string) => {
      buffer += chunk;
      let nl = buffer.indexOf('\n');
      while (nl !== -1) {
        this.lines.push(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf('\n');
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.proc.stderr.setEncoding('utf8');
    this.proc.stderr.on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.exited = new Promise((resolve) => this.proc.on('close', (code) => resolve(code)));
  }

  write(...messages: unknown[]): void {
    for (const m of messages) this.proc.stdin.write(`${typeof m === 'string' ? m : JSON.stringify(m)}\n`);
  }

  end(): void {
    this.proc.stdin.end();
  }

  /** Every stdout line parsed (a line that is not JSON fails the parse, which is the point). */
  messages(): Array<Record<string, unknown>> {
    return this.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  /** Wait until a message matches. */
  async waitFor(
    match: (m: Record<string, unknown>) => boolean,
    timeoutMs = 15_000,
  ): Promise<Record<string, unknown>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages().find(match);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`timed out; stdout so far: ${this.lines.join('\n')}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  }

  kill(): void {
    this.proc.kill();
  }
}

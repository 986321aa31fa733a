/** Start `http-server-child.ts` as a child process and learn its port. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { childScript, PACKAGE_DIR } from './child.js';

const SCRIPT = childScript('httpServerChild');

export class HttpChild {
  readonly proc: ChildProcessWithoutNullStreams;
  stderr = '';
  exitCode: number | null | undefined;
  readonly port: Promise<number>;

  constructor() {
    this.proc = spawn(process.execPath, [SCRIPT], {
      cwd: PACKAGE_DIR,
      env: { ...process.env, CLOUDG_LOG_LEVEL: 'warn' },
    });
    this.proc.stderr.setEncoding('utf8');
    this.proc.stderr.on('data', (chunk: string) => {
      this.stderr += chunk;
    });
    this.proc.on('exit', (code) => {
      this.exitCode = code;
    });
    this.port = new Promise((resolve, reject) => {
      let out = '';
      this.proc.stdout.setEncoding('utf8');
      this.proc.stdout.on('data', (chunk: string) => {
        out += chunk;
        const match = /LISTENING (\d+)/.exec(out);
        if (match) resolve(Number(match[1]));
      });
      this.proc.on('exit', (code) => reject(new Error(`server exited (${code}): ${this.stderr}`)));
    });
  }

  /** Still running: neither exited nor killed by a signal. */
  get alive(): boolean {
    return this.exitCode === undefined && this.proc.signalCode === null;
  }

  /** Lines the server logged at error level (pino level 50 and above). */
  errorLogs(): Array<Record<string, unknown>> {
    return this.stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => typeof l.level === 'number' && l.level >= 50);
  }

  async stop(): Promise<void> {
    if (!this.alive) return;
    const exited = new Promise((resolve) => this.proc.once('exit', resolve));
    this.proc.kill();
    await exited;
  }
}

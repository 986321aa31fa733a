// Runs a Node.js script with Node.js 22, for the tests that must also pass on the next LTS while
// the workspace runs on 20:  node scripts/node22.mjs <script> [args...]
//
// The Node 22 used: this process's own when it is 22 or newer; else CLOUDG_NODE22 (a path to a
// node binary); else the one installed with the MCP conformance suite (pnpm-workspace.yaml's
// packageExtensions give the suite a node-<platform>-<arch> package, so `pnpm install` already
// brought it and nothing is downloaded while tests run); else `npx -y -p node@22`, which
// downloads it from npm.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The command (and its leading arguments) that runs Node.js 22. */
export function node22Command(env = process.env) {
  if (Number(process.versions.node.split('.')[0]) >= 22) return [process.execPath];
  if (env.CLOUDG_NODE22) return [env.CLOUDG_NODE22];
  try {
    const suite = createRequire(join(ROOT, 'packages/conformance/package.json')).resolve(
      '@modelcontextprotocol/conformance/package.json',
    );
    const manifest = createRequire(suite).resolve(`node-${process.platform}-${process.arch}/package.json`);
    const { bin } = JSON.parse(readFileSync(manifest, 'utf8'));
    return [join(dirname(manifest), bin.node)];
  } catch {
    process.stderr.write('node22: no Node.js 22 installed with the workspace; fetching node@22 with npx\n');
    return ['npx', '-y', '-p', 'node@22', 'node'];
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, ...lead] = node22Command();
  process.stderr.write(`node22: ${[command, ...lead].join(' ')}\n`);
  const child = spawn(command, [...lead, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

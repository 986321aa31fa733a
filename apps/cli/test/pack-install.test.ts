/**
 * The published packages the CLI installs, as a user gets them: `pnpm pack` each one from the dist/ that
 * turbo built before this task (`@cloudg/cli#test` depends on the builds of the CLI and of every
 * package it depends on), `npm install` all the tarballs into an empty project outside the
 * monorepo, and run the installed `cloudg-mcp` there. Nothing here builds: run it through turbo,
 * or build first, or it tests whatever dist/ happens to be on disk.
 *
 * @dist it packs the built packages and installs them.
 */
import { type ChildProcess, type SpawnSyncReturns, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const PACKAGE_DIRS = [
  'packages/privacy',
  'packages/core',
  'packages/policy',
  'packages/catalog',
  'packages/transports',
  'packages/adapters',
  'packages/redis',
  'apps/server',
  'apps/cli',
];
/** Dependency fields of a manifest; pnpm rewrites the workspace protocols in all of them. */
const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'];
/**
 * The export condition the workspace resolves to `src/index.ts` so tests run without a build.
 * Nothing outside the workspace enables it, but src/ is published too, so its target exists.
 */
const WORKSPACE_CONDITION = '@cloudg/source';

interface Manifest {
  name: string;
  version: string;
  exports?: unknown;
  main?: string;
  types?: string;
  bin?: string | Record<string, string>;
  [field: string]: unknown;
}

interface Packed {
  dir: string;
  tarball: string;
  manifest: Manifest;
  /** Paths inside the tarball, without the leading `package/`. */
  files: Set<string>;
}

const work = mkdtempSync(join(tmpdir(), 'cloudg-pack-install-'));
const packDir = join(work, 'pack');
const app = join(work, 'app');
const bin = join(app, 'node_modules/.bin/cloudg-mcp');
const packed: Packed[] = [];
let server: ChildProcess | undefined;

afterAll(() => {
  if (server?.exitCode === null) server.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

function run(cmd: string, args: string[], cwd: string, timeout = 30_000): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout });
}

/** stdout of a command that must succeed; otherwise an error carrying its stderr. */
function check(result: SpawnSyncReturns<string>, what: string): string {
  if (result.status !== 0) {
    throw new Error(
      `${what} failed (status ${result.status}, ${result.error ?? 'no error'}):\n${result.stderr}`,
    );
  }
  return result.stdout;
}

/** Every string target in an `exports` value, with the conditions that lead to it. */
function exportTargets(
  value: unknown,
  conditions: string[] = [],
): Array<{ conditions: string[]; target: string }> {
  if (typeof value === 'string') return [{ conditions, target: value }];
  if (Array.isArray(value)) return value.flatMap((v) => exportTargets(v, conditions));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, v]) => exportTargets(v, [...conditions, key]));
  }
  return [];
}

function inTarball(files: Set<string>, target: string): boolean {
  return files.has(posix.normalize(target));
}

beforeAll(() => {
  for (const dir of PACKAGE_DIRS) {
    const pkgDir = join(ROOT, dir);
    if (!existsSync(join(pkgDir, 'dist/index.js'))) {
      throw new Error(`${dir}/dist is missing: build first (turbo builds it before @cloudg/cli#test)`);
    }
    const out = check(
      run('pnpm', ['pack', '--json', '--pack-destination', packDir], pkgDir),
      `pnpm pack in ${dir}`,
    );
    const { filename } = JSON.parse(out) as { filename: string };
    const listing = check(run('tar', ['-tzf', filename], work), `tar -t ${filename}`);
    const files = new Set(
      listing
        .split('\n')
        .filter(Boolean)
        .map((p) => p.replace(/^package\//, '')),
    );
    const manifest = JSON.parse(
      check(run('tar', ['-xOzf', filename, 'package/package.json'], work), `tar -x ${filename}`),
    ) as Manifest;
    packed.push({ dir, tarball: filename, manifest, files });
  }

  mkdirSync(app);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  check(
    run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', ...packed.map((p) => p.tarball)],
      app,
      // Generous: on a fresh machine npm fetches the SDKs' dependencies, and CI runs every test task at once.
      240_000,
    ),
    'npm install of the tarballs',
  );
}, 260_000);

describe('the packed manifests', () => {
  it('pin real versions where the workspace says workspace: or catalog:', () => {
    const versions = new Map(packed.map((p) => [p.manifest.name, p.manifest.version]));
    expect([...versions.keys()].sort()).toEqual([
      '@cloudg/adapters',
      '@cloudg/catalog',
      '@cloudg/cli',
      '@cloudg/core',
      '@cloudg/policy',
      '@cloudg/privacy',
      '@cloudg/redis',
      '@cloudg/server',
      '@cloudg/transports',
    ]);
    for (const { manifest } of packed) {
      for (const field of DEPENDENCY_FIELDS) {
        const deps = (manifest[field] ?? {}) as Record<string, string>;
        for (const [dep, range] of Object.entries(deps)) {
          const where = `${manifest.name} ${field}.${dep}`;
          expect(range, where).not.toMatch(/^(workspace|catalog):/);
          // A sibling is pinned to the version packed beside it, so the set installs together.
          const sibling = versions.get(dep);
          if (sibling) expect(range, where).toBe(`^${sibling}`);
        }
      }
    }
  });

  it('point exports, main, types and bin at files inside each tarball', () => {
    for (const { manifest, files } of packed) {
      // Every condition, the workspace's source condition included: src/ ships (without tests)
      // so that condition and the source maps point at real files.
      const targets = exportTargets(manifest.exports);
      expect(
        targets.some((t) => t.conditions.includes(WORKSPACE_CONDITION)),
        `${manifest.name} source condition`,
      ).toBe(true);
      expect(
        [...files].some((f) => f.endsWith('.test.ts')),
        `${manifest.name} ships no tests`,
      ).toBe(false);
      expect(targets.length, `${manifest.name} exports`).toBeGreaterThan(0);
      const bins = typeof manifest.bin === 'string' ? [manifest.bin] : Object.values(manifest.bin ?? {});
      const declared = [
        ...targets.map((t) => ({ what: `exports ${t.conditions.join(' > ')}`, target: t.target })),
        ...(manifest.main ? [{ what: 'main', target: manifest.main }] : []),
        ...(manifest.types ? [{ what: 'types', target: manifest.types }] : []),
        ...bins.map((target) => ({ what: 'bin', target })),
      ];
      for (const { what, target } of declared) {
        expect(inTarball(files, target), `${manifest.name} ${what}: ${target}`).toBe(true);
      }
    }
  });

  it('ship the data the code finds beside itself: the sample estate and the policy profiles', () => {
    const files = (name: string) => packed.find((p) => p.manifest.name === name)!.files;
    expect(files('@cloudg/catalog')).toContain('fixtures/sample-estate/inventory/inventory-map.json');
    for (const profile of ['open', 'standard', 'strict', 'read_only', 'audit', 'airgapped', 'soc-analyst']) {
      expect(files('@cloudg/policy')).toContain(`profiles/${profile}.yaml`);
    }
  });
});

describe('the installed cloudg-mcp, outside the monorepo', () => {
  it('is the only copy of each package: no installed file refers back to the monorepo', () => {
    const installed = join(app, 'node_modules/@cloudg');
    expect(readdirSync(installed).sort()).toEqual([
      'adapters',
      'catalog',
      'cli',
      'core',
      'policy',
      'privacy',
      'redis',
      'server',
      'transports',
    ]);
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isSymbolicLink()) offenders.push(`${path} is a link`);
        else if (entry.isDirectory()) walk(path);
        else if (readFileSync(path, 'utf8').includes(ROOT)) offenders.push(path);
      }
    };
    walk(installed);
    expect(offenders).toEqual([]);
  });

  it('tools --json lists find_assets from the bundled sample estate', () => {
    const result = run(bin, ['tools', '--json'], app);
    expect(result.status, result.stderr).toBe(0);
    const names = (JSON.parse(result.stdout) as Array<{ name: string }>).map((t) => t.name);
    expect(names).toContain('find_assets');
    expect(names).toContain('workspace_status');
  });

  it('call find_assets finds the six internet-exposed assets of the sample estate', () => {
    const result = run(bin, ['call', 'find_assets', '--args', '{"internet_exposed": true, "limit": 3}'], app);
    expect(result.status, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ dataset: 'sample', total: 6, returned: 3 });
  });

  it('call workspace_status --policy strict loads the shipped strict profile and pseudonymises names', () => {
    const result = run(bin, ['call', 'workspace_status', '--policy', 'strict'], app);
    expect(result.status, result.stderr).toBe(0);
    const status = JSON.parse(result.stdout) as {
      active_dataset: string;
      datasets: Array<{ name: string; assets: number }>;
    };
    // strict pseudonymises dataset names (`ds-<10 hex>`); the default policy shows `sample`.
    expect(status.active_dataset).toMatch(/^ds-[0-9a-f]{10}$/);
    expect(status.datasets).toHaveLength(1);
    expect(status.datasets[0]!.name).toBe(status.active_dataset);
    expect(status.datasets[0]!.assets).toBeGreaterThan(0);
    expect(result.stdout).not.toContain('"sample"');
  });

  // The sdk flavor also proves the SDK and the adapters ship with the server as dependencies.
  it.each(['native', 'sdk'])(
    'serve --flavor %s --transport http answers a 2026-07-28 tools/call and exits cleanly on SIGTERM',
    async (flavor) => {
      // serve starts empty unless told otherwise: --sample loads the bundled estate, as `pnpm start` does.
      const child = spawn(
        bin,
        ['serve', '--flavor', flavor, '--transport', 'http', '--port', '0', '--sample'],
        {
          cwd: app,
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      server = child;
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        child.once('exit', (code, signal) => resolve({ code, signal })),
      );
      let stderr = '';
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no start-up line; stderr:\n${stderr}`)), 30_000);
        child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk;
          const match = new RegExp(`cloudg MCP server \\(${flavor}, http\\) listening on (http://\\S+)`).exec(
            stderr,
          );
          if (match) {
            clearTimeout(timer);
            resolve(match[1]!);
          }
        });
        child.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`serve exited with ${code}; stderr:\n${stderr}`));
        });
      });

      const response = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'find_assets',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'find_assets',
            arguments: { internet_exposed: true, limit: 3 },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientCapabilities': {},
              'io.modelcontextprotocol/clientInfo': { name: 'pack-install-test', version: '1' },
            },
          },
        }),
      });
      expect(response.status).toBe(200);
      const body = await response.text();
      // The answer comes as JSON or as one SSE message event, depending on the server's choice.
      const json = response.headers.get('content-type')?.startsWith('text/event-stream')
        ? body
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5))
            .join('')
        : body;
      const message = JSON.parse(json) as {
        id: number;
        result: { isError?: boolean; structuredContent: unknown };
      };
      expect(message.id).toBe(1);
      expect(message.result.isError ?? false).toBe(false);
      expect(message.result.structuredContent).toMatchObject({ total: 6, returned: 3 });

      child.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null });
    },
    40_000,
  );
});

/**
 * Live collection through the built CLI: `cloudg-mcp serve --engine @cloudg/collectors/all`
 * imports the collectors' engine as Node resolves the package for any user (its `dist/`, the
 * `import` condition), and an MCP client's `map_inventory` collects Cloud Storage buckets from a
 * stand-in of the Cloud Storage JSON API on 127.0.0.1, named by `STORAGE_EMULATOR_HOST` (the
 * official client library's emulator variable, which the collector honours). No request leaves
 * the machine: the home directory is empty, the metadata server is switched off, and only the
 * storage task runs.
 *
 * @dist it runs the built `cloudg-mcp` and the built `@cloudg/collectors`.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const PROJECT = 'proj-analytics';

/** Bucket listing (two pages) and IAM policies, shaped like the JSON API's answers. */
function reply(path: string, query: URLSearchParams): { status: number; body: unknown } {
  if (path === '/storage/v1/b' && query.get('project') === PROJECT)
    return query.get('pageToken') === 'next'
      ? {
          status: 200,
          body: {
            kind: 'storage#buckets',
            items: [
              {
                name: 'analytics-exports',
                location: 'EU',
                iamConfiguration: {
                  uniformBucketLevelAccess: { enabled: true },
                  publicAccessPrevention: 'enforced',
                },
              },
            ],
          },
        }
      : {
          status: 200,
          body: {
            kind: 'storage#buckets',
            items: [
              {
                name: 'raw-uploads',
                location: 'EUROPE-WEST1',
                iamConfiguration: { uniformBucketLevelAccess: { enabled: false } },
              },
            ],
            nextPageToken: 'next',
          },
        };
  if (path === '/storage/v1/b/raw-uploads/iam')
    return {
      status: 200,
      body: { bindings: [{ role: 'roles/storage.objectViewer', members: ['allUsers'] }] },
    };
  if (path === '/storage/v1/b/analytics-exports/iam') return { status: 200, body: { bindings: [] } };
  return { status: 404, body: { error: { code: 404, message: 'Not Found' } } };
}

let dir: string;
let server: Server;
const requests: string[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cloudg-live-cli-'));
  await writeFile(join(dir, 'cloudg.yaml'), `providers: [gcp]\ngcp:\n  projects: [${PROJECT}]\n`);
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push(url.pathname);
    const { status, body } = reply(url.pathname, url.searchParams);
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

describe('serve --engine @cloudg/collectors/all (built)', () => {
  it('map_inventory collects the stand-in buckets into a dataset the inventory tools read', async () => {
    const { port } = server.address() as AddressInfo;
    const client = new Client({ name: 'live-engine-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'serve', '--engine', '@cloudg/collectors/all', '--config', join(dir, 'cloudg.yaml')],
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: dir,
          STORAGE_EMULATOR_HOST: `http://127.0.0.1:${port}`,
          // Nothing may look for Google credentials on the network.
          METADATA_SERVER_DETECTION: 'none',
          GCE_METADATA_HOST: '127.0.0.1:9',
          NO_COLOR: '1',
        },
        stderr: 'pipe',
      }),
    );
    try {
      const tools: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {});
        tools.push(...page.tools.map((t) => t.name));
        cursor = page.nextCursor;
      } while (cursor);
      expect(tools).toEqual(expect.arrayContaining(['map_inventory', 'collect_assets', 'run_pipeline']));

      const mapped = await client.callTool({
        name: 'map_inventory',
        arguments: { providers: ['gcp'], services: ['storage'], preflight: false, name: 'live-gcp' },
      });
      expect(mapped.isError).toBe(false);
      expect(mapped.structuredContent).toMatchObject({ dataset: 'live-gcp', errors: [] });

      const found = await client.callTool({
        name: 'find_assets',
        arguments: { dataset: 'live-gcp', asset_types: ['GCS_BUCKET'] },
      });
      expect(found.isError).toBe(false);
      const items = (found.structuredContent as { items: { name: string; internet_exposed: boolean }[] })
        .items;
      expect(items.map((i) => [i.name, i.internet_exposed])).toEqual([
        ['analytics-exports', false],
        ['raw-uploads', true],
      ]);
      expect(requests).toEqual(
        expect.arrayContaining([
          '/storage/v1/b',
          '/storage/v1/b/raw-uploads/iam',
          '/storage/v1/b/analytics-exports/iam',
        ]),
      );
    } finally {
      await client.close();
    }
  }, 60_000);
});

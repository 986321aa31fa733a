/** The README's examples run as written and give what their comments say. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TextContent } from '@cloudg/core';
import { afterEach, expect, it } from 'vitest';
import { toolsQuickStart } from '../examples/tools.examples.js';
import { workspaceTour } from '../examples/workspace.examples.js';
import { defaultCloudgConfig, loadPath, sampleEstateDir } from '../src/index.js';

let out: string | undefined;
afterEach(async () => {
  if (out) await rm(out, { recursive: true, force: true });
});

it('the Tools quick start finds the web team’s assets, and the prompt embeds the asset as read', async () => {
  const { page, prompt } = await toolsQuickStart();
  expect(page.structured).toMatchObject({
    dataset: 'sample',
    total: 3,
    items: [{ id: 'web-1', name: 'web-1', tags: { env: 'prod', owner: 'web-team' } }, {}, {}],
  });
  const context = (prompt.messages[1]?.content as TextContent | undefined)?.text ?? '';
  expect(context).toMatch(/^Context for this task \(JSON\):/);
  const data = JSON.parse(context.slice(context.indexOf('{'), context.lastIndexOf('}') + 1));
  expect(data).toMatchObject({
    dataset: 'sample',
    transitive_dependents: 12,
    accounts_affected: ['111111111111'],
  });
  expect(prompt.messages[2]?.content).toMatchObject({
    type: 'resource',
    resource: { uri: 'cloudg://assets/kms-main' },
  });
});

it('the workspace tour runs against the sample estate', async () => {
  out = await mkdtemp(join(tmpdir(), 'cloudg-out-'));
  const loaded = await loadPath(join(sampleEstateDir(), 'inventory'));
  const ws = await workspaceTour({
    config: defaultCloudgConfig(),
    allowedRoots: [sampleEstateDir()],
    outputDir: out,
    maxFileBytes: 64 * 1024 * 1024,
    providersConfigured: ['aws'],
    protectedPaths: [],
    result: loaded.data as Parameters<typeof workspaceTour>[0]['result'],
  });
  expect(ws.names().sort()).toEqual(['live-1', 'sample']);
});

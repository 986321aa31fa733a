import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Layer } from '@cloudg/core';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Workspace } from '../../src/index.js';
import { readJson, sampleLayer } from '../tools/support.js';

let layer: Layer<Workspace>;
beforeAll(async () => {
  ({ layer } = await sampleLayer());
});
afterEach(() => {
  vi.unstubAllEnvs();
});

async function readText(uri: string): Promise<{ mimeType: string | undefined; text: string }> {
  const [first] = await layer.readResource(uri);
  if (!first || !('text' in first)) throw new Error(`no text content for ${uri}`);
  return { mimeType: first.mimeType, text: first.text };
}

const topicTemplate = { type: 'ref/resource', uri: 'cloudg://docs/{topic}' } as const;

describe('documentation resources', () => {
  it('cloudg://docs lists the topics and finds the checkout docs directory', async () => {
    const docs = await readJson(layer, 'cloudg://docs');
    expect(docs.available).toBe(true);
    const topics = docs.topics as Record<string, string>;
    expect(Object.keys(topics)[0]).toBe('mcp');
    expect(topics.mcp).toBe('How to use cloudg through MCP');
    expect(Object.keys(topics)).toEqual(
      expect.arrayContaining(['cli', 'findings', 'compliance', 'troubleshooting']),
    );
  });

  it('cloudg://docs/mcp is the built-in usage guide as Markdown', async () => {
    const { mimeType, text } = await readText('cloudg://docs/mcp');
    expect(mimeType).toBe('text/markdown');
    expect(text.startsWith('# Using cloudg through MCP\n')).toBe(true);
    expect(text).toContain('workspace_status');
  });

  it('a page topic is the whole page; a heading topic stops at the next heading of its level', async () => {
    const cli = await readText('cloudg://docs/cli');
    expect(cli.text.startsWith('# The `cloudg-mcp` command')).toBe(true);
    const findings = await readText('cloudg://docs/findings');
    expect(findings.text.startsWith('## Findings\n')).toBe(true);
    expect(findings.text).toContain('### Suppress');
    expect(findings.text).not.toContain('## Compliance');
    const compliance = await readText('cloudg://docs/compliance');
    expect(compliance.text.startsWith('## Compliance\n')).toBe(true);
    // A `# comment` inside a fenced example is not a heading: the section keeps going past it.
    expect(compliance.text).toContain('### Your own rulesets');
  });

  it('every topic maps to a page and heading that exist in the repository docs', async () => {
    const topics = (await readJson(layer, 'cloudg://docs')).topics as Record<string, string>;
    for (const topic of Object.keys(topics)) {
      const { text } = await readText(`cloudg://docs/${topic}`);
      expect(text, topic).toMatch(/^#{1,6} /);
      expect(text, topic).not.toContain('documentation directory was not found');
    }
  });

  it('fails the read with -32602 and the topic list for an unknown topic', async () => {
    await expect(layer.readResource('cloudg://docs/nope')).rejects.toMatchObject({
      code: -32602,
      message: expect.stringMatching(/^Unknown docs topic\. Topics: mcp, install, quick-start, cli, /),
    });
  });

  it('cuts a long section at 40,000 characters', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudg-docs-'));
    writeFileSync(join(dir, 'troubleshooting.md'), `# Troubleshooting\n\n${'x'.repeat(50_000)}\n`);
    vi.stubEnv('CLOUDG_DOCS_DIR', dir);
    const { text } = await readText('cloudg://docs/troubleshooting');
    expect(text.length).toBeLessThan(40_100);
    expect(text).toMatch(/cut at 40000 characters\)$/);
  });

  it('without a docs directory: available false, a short note for page topics, mcp still served', async () => {
    vi.stubEnv('CLOUDG_DOCS_DIR', join(tmpdir(), 'cloudg-no-such-docs-dir'));
    expect((await readJson(layer, 'cloudg://docs')).available).toBe(false);
    const cli = await readText('cloudg://docs/cli');
    expect(cli.text).toContain('documentation directory was not found');
    expect(cli.text).toContain('CLOUDG_DOCS_DIR');
    expect((await readText('cloudg://docs/mcp')).text).toContain('# Using cloudg through MCP');
  });

  it('completes topics by prefix', async () => {
    expect((await layer.complete(topicTemplate, { name: 'topic', value: 'c' })).values).toEqual([
      'cli',
      'compliance',
    ]);
    expect((await layer.complete(topicTemplate, { name: 'topic', value: 'T' })).values).toEqual([
      'threat-model',
      'troubleshooting',
    ]);
  });
});

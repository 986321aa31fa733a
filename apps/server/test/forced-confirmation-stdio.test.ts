/**
 * Issue 18's end-to-end check over stdio: `cloudg-mcp`'s native server in a process of its own,
 * as a desktop client launches it, and the official client 2.4 with elicitation, sampling and
 * roots handlers, in both protocol eras. A forced `collect_assets` under a policy `confirm` entry
 * asks the person first (a server-to-client request in the handshake era, an `input_required`
 * round trip in 2026-07-28): declined, nothing is collected; accepted, it runs once.
 */
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('./support/stdio-forced-live.ts', import.meta.url));
const QUESTION = 'Run collect_assets with force? The policy asks you to confirm this call.';

async function launch(mode: 'auto' | 'legacy') {
  const asked: string[] = [];
  const answer = { action: 'decline' as 'accept' | 'decline' };
  const client = new Client(
    { name: 'stdio-confirm', version: '1.0.0' },
    { versionNegotiation: { mode }, capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} } },
  );
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(String(request.params.message));
    return answer.action === 'accept'
      ? { action: 'accept', content: { confirm: true } }
      : { action: 'decline' };
  });
  // Declared so the server sees a client that could also lend its model or its folders; the
  // forced call asks only for a confirmation.
  client.setRequestHandler('sampling/createMessage', async () => ({
    role: 'assistant',
    content: { type: 'text', text: 'unused' },
    model: 'test-model',
  }));
  client.setRequestHandler('roots/list', async () => ({ roots: [] }));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=@cloudg/source', '--import', 'tsx', SCRIPT],
      stderr: 'ignore',
    }),
  );
  return { client, asked, answer };
}

async function datasetNames(client: Client): Promise<string[]> {
  const result = await client.callTool({ name: 'list_datasets', arguments: {} });
  const datasets = (result.structuredContent as { datasets?: Array<{ name: string }> }).datasets ?? [];
  return datasets.map((d) => d.name);
}

describe.each([
  ['auto', '2026-07-28'],
  ['legacy', '2025-11-25'],
] as const)('a forced live call over stdio, negotiation %s', (mode, version) => {
  it('asks the person; declined collects nothing, accepted collects once', { timeout: 180_000 }, async () => {
    const { client, asked, answer } = await launch(mode);
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      const plain = await client.callTool({
        name: 'collect_assets',
        arguments: { providers: ['aws'], name: 'first' },
      });
      expect(plain.isError).toBeFalsy();
      expect(asked).toEqual([]);

      const declined = await client.callTool({
        name: 'collect_assets',
        arguments: { providers: ['aws'], name: 'forced', force: true },
      });
      expect(declined.isError).toBe(true);
      expect((declined._meta as Record<string, unknown>)['cloudg/error_code']).toBe('declined');
      expect(await datasetNames(client)).not.toContain('forced');

      answer.action = 'accept';
      const accepted = await client.callTool({
        name: 'collect_assets',
        arguments: { providers: ['aws'], name: 'forced', force: true },
      });
      expect(accepted.isError, JSON.stringify(accepted.content)).toBeFalsy();
      expect(await datasetNames(client)).toContain('forced');
      expect(asked).toEqual([QUESTION, QUESTION]);
    } finally {
      await client.close();
    }
  });
});

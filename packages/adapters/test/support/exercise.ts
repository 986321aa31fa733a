/**
 * What a user does through any flavor or mount, with the official client: list, call
 * `find_assets`, read a resource, get a prompt, complete an argument. The answers are reduced to
 * what does not change from one call to the next (durations and generation times), so the same
 * layer gives equal records whichever way it is reached.
 */

import type { Layer } from '@cloudg/core';
import { type RunningHttpServer, serveHttp } from '@cloudg/transports';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

export type Mode = 'auto' | 'legacy';
export const ERA: Record<Mode, string> = { auto: '2026-07-28', legacy: '2025-11-25' };

export function newClient(mode: Mode): Client {
  return new Client({ name: 'cloudg-adapter-test', version: '1.0.0' }, { versionNegotiation: { mode } });
}

/**
 * Drop what differs per call (`cloudg/duration_ms`, provenance `generated_at`) and the server's
 * own name stamped on 2026 results (a host's server is not called cloudg).
 */
export function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'cloudg/duration_ms' || key === 'generated_at') continue;
    if (key === 'io.modelcontextprotocol/serverInfo') continue;
    out[key] = stable(inner);
  }
  return out;
}

export interface Exercise {
  version: string | undefined;
  toolNames: string[];
  tools: unknown;
  findAssets: unknown;
  resource: unknown;
  prompt: unknown;
  completion: unknown;
}

/**
 * The native record without what only the native server serves in the handshake era: it runs
 * 2025-11-25's experimental tasks and marks the tools that can run as one (`execution.taskSupport`);
 * the SDK and fastmcp mounts do not serve tasks, so their tools/list has no `execution`. Returns
 * the record without it, and the tools that had it (the one difference, shown in the tests).
 */
export function withoutTasks(native: Exercise): { record: Exercise; taskTools: string[] } {
  const taskTools: string[] = [];
  const tools = (native.tools as Record<string, unknown>[]).map((tool) => {
    if (!('execution' in tool)) return tool;
    taskTools.push(String(tool.name));
    const { execution: _execution, ...rest } = tool;
    return rest;
  });
  return { record: { ...native, tools }, taskTools };
}

/** Everything the test compares, from one client. `prefix` is the mount's tool-name prefix. */
export async function exercise(client: Client, prefix = ''): Promise<Exercise> {
  const listed = await client.listTools();
  const tools = listed.tools.filter((t) => t.name.startsWith(prefix) && t.name !== 'ticket_count');
  const call = await client.callTool({ name: `${prefix}find_assets`, arguments: { provider: 'GCP' } });
  const read = await client.readResource({ uri: 'cloudg://datasets/sample/summary' });
  const prompt = await client.getPrompt({ name: `${prefix}investigate_asset`, arguments: { ref: 'web-1' } });
  const completion = await client.complete({
    ref: { type: 'ref/prompt', name: `${prefix}investigate_asset` },
    argument: { name: 'ref', value: 'web' },
  });
  return {
    version: client.getNegotiatedProtocolVersion(),
    toolNames: tools.map((t) => t.name),
    tools: stable(tools),
    findAssets: stable({
      content: call.content,
      structuredContent: call.structuredContent,
      isError: call.isError,
      _meta: call._meta,
    }),
    resource: stable(read.contents),
    prompt: stable(prompt.messages),
    completion: completion.completion,
  };
}

/** The native Streamable HTTP server on the same layer, and a client on it. */
export async function nativeClient<TApp>(
  layer: Layer<TApp>,
  mode: Mode,
  token?: { spec: string; value: string },
): Promise<{ client: Client; close: () => Promise<void> }> {
  const running: RunningHttpServer = await serveHttp(layer as Layer<unknown>, {
    port: 0,
    ...(token ? { authTokens: [token.spec] } : {}),
  });
  const client = newClient(mode);
  await client.connect(
    new StreamableHTTPClientTransport(new URL(running.url), {
      ...(token ? { requestInit: { headers: { Authorization: `Bearer ${token.value}` } } } : {}),
    }),
  );
  return {
    client,
    close: async () => {
      await client.close();
      await running.close();
    },
  };
}

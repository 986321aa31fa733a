/**
 * The README's opening snippet (region `embed`): a fully configured server in your own process.
 * Type-checked with the package; it names an operator's files and port, so test/server.test.ts
 * exercises the same options on temporary files instead.
 */
// #region embed
import { createLayerFromOptions, serve } from '@cloudg/server';
// #endregion embed

export async function embedded() {
  // #region embed
  const server = await createLayerFromOptions({
    config: '/etc/cloudg/config.yaml', // providers, credentials, report directory
    policy: 'strict', // profile, file, inline JSON or object
    datasets: ['prod=/srv/cloudg/reports/inventory-map.json'],
    readOnly: true,
    auditLog: '/var/log/cloudg/mcp.jsonl',
    cacheTtl: 30,
    maxConcurrency: 8,
  });

  // In-process: the same layer every transport uses.
  const result = await server.layer.callTool('find_assets', { internet_exposed: true, limit: 5 });

  // Or serve it: resolves when serving ends, after saving the pseudonym vault.
  await serve(server, { transport: 'http', port: 8765, authTokens: ['env:CLOUDG_MCP_TOKEN:analyst:alice'] });
  // #endregion embed
  return result;
}

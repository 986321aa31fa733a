/**
 * cloudg's native stdio server in this process, with a policy that asks the person to confirm a
 * forced `collect_assets` and an engine that returns the sample estate's inventory (no cloud),
 * for the stdio confirmation test (spawned with tsx and the source condition). The caller is an
 * operator: `force` needs the admin or operator role, which the default local user lacks.
 */
import { join } from 'node:path';
import { type CloudgEngine, configureLive, loadPath, sampleEstateDir } from '@cloudg/catalog';
import { Principal } from '@cloudg/core';
import { serveStdio } from '@cloudg/transports';
import { createLayerFromOptions } from '../../src/index.js';

const inventory = async (signal: AbortSignal) =>
  (await loadPath(join(sampleEstateDir(), 'inventory'), { signal })).data;
const engine: CloudgEngine = {
  mapInventory: async (request) => ({ ...(await inventory(request.signal)) }),
  collect: async (request) => ({ ...(await inventory(request.signal)) }),
};

const server = await createLayerFromOptions({
  policy: { extends: 'open', confirm: [{ tools: ['collect_assets'], when_true: ['force'] }] },
  engine,
});
// The credential preflight sees stand-in AWS keys: nothing leaves the machine.
configureLive(server.workspace, {
  preflight: { env: { AWS_ACCESS_KEY_ID: 'AKIA', AWS_SECRET_ACCESS_KEY: 's' } },
});
// The layer's app type is the catalog's workspace; the transport takes any layer (as serve.ts does).
await serveStdio(server.layer as never, { principal: new Principal({ id: 'olivia', roles: ['operator'] }) });
process.exit(0);

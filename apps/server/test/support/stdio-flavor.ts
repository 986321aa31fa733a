/**
 * A server on this process's stdio with the flavor named in argv[2] and the sample estate as
 * `prod`, for the stdio flavor tests (spawned with tsx and the source condition).
 */
import { join } from 'node:path';
import { sampleEstateDir } from '@cloudg/catalog';
import { createLayerFromOptions, serve } from '../../src/index.js';

const map = join(sampleEstateDir(), 'inventory', 'inventory-map.json');
const server = await createLayerFromOptions({ policy: 'standard', datasets: [`prod=${map}`] });
await serve(server, { transport: 'stdio', flavor: process.argv[2] ?? 'native', handleSignals: true });

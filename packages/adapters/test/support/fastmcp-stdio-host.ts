/**
 * A user's FastMCP with its own tool and cloudg registered, started the fastmcp way on this
 * process's stdio (`start({ transportType: 'stdio' })`), for test/fastmcp-stdio.test.ts.
 */
import { FastMCP } from 'fastmcp';
import { registerInto } from '../../src/fastmcp/index.js';
import { sampleLayer } from './sample-layer.js';

const layer = await sampleLayer();
const quiet = { debug() {}, info() {}, log() {}, warn() {}, error() {} };
const server = new FastMCP({ name: 'platform-tools', version: '1.0.0', logger: quiet });
server.addTool({ name: 'ticket_count', description: 'Open tickets.', execute: async () => '7' });
registerInto(server, layer);
await server.start({ transportType: 'stdio' });

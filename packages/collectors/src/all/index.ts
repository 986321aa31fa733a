// @cloudg/collectors/all: an engine with every cloud's collector, in the shape the server's
// `--engine MODULE:ATTR` option loads: `cloudg-mcp serve --engine @cloudg/collectors/all`
// (ATTR defaults to `engine`, a function returning the engine). Importing it loads all three
// clouds' SDKs; a server that collects from one cloud composes its own engine from that cloud's
// entry point instead.
import type { CloudgEngine } from '@cloudg/catalog';
import { AwsCollector } from '../aws/collector.js';
import { AzureCollector } from '../azure/collector.js';
import { createCollectorEngine } from '../engine.js';
import { GcpCollector } from '../gcp/collector.js';

/** A live engine over the AWS, Azure and Google Cloud collectors with default settings. */
export function engine(): CloudgEngine {
  return createCollectorEngine({
    collectors: [new AwsCollector(), new AzureCollector(), new GcpCollector()],
  });
}

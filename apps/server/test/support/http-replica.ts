/**
 * One `serve` replica over HTTP on a free port with `--redis-url`'s shared state, as the CLI
 * composes it, for the tests that run several of them against one redis-server.
 */
import { CloudgConfig, sampleEstateDir } from '@cloudg/catalog';
import { connectSharedState, createLayerFromOptions, type ServeOptions, serve } from '../../src/index.js';

export interface Replica {
  port: number;
  stop: AbortController;
  done: Promise<void>;
}

export async function startReplica(
  redisUrl: string,
  options: {
    policy: Record<string, unknown>;
    keyPrefix: string;
    /** The replicas' shared output directory (a temporary one, never the checkout). */
    outputDir: string;
    /** `sse` serves the deprecated HTTP+SSE endpoints too; tokens as `--auth-token` takes them. */
    serve?: Pick<ServeOptions, 'transport' | 'authTokens'>;
  },
): Promise<Replica> {
  const sharedState = await connectSharedState(redisUrl, { keyPrefix: options.keyPrefix });
  const server = await createLayerFromOptions({
    policy: options.policy as never,
    sharedState,
    allowedRoots: [sampleEstateDir()],
    config: CloudgConfig.parse({ report: { output_dir: options.outputDir } }),
  });
  const stop = new AbortController();
  let port = 0;
  const done = serve(server, {
    transport: 'http',
    ...options.serve,
    port: 0,
    signal: stop.signal,
    handleSignals: false,
    announce: () => {},
    onListening: (address) => {
      port = address.port;
    },
  });
  while (port === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  return { port, stop, done };
}

/** Stop every replica and wait for each to finish. */
export async function stopReplicas(replicas: readonly Replica[]): Promise<void> {
  for (const r of replicas) {
    r.stop.abort();
    await r.done;
  }
}

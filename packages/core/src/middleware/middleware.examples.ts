// The middleware stack the cloudg server builds, on a layer with one cacheable tool. The README
// quotes the region `stack`; middleware.examples.test.ts runs it and checks what it says.
// Run: pnpm --filter @cloudg/core exec tsx --conditions=@cloudg/source src/middleware/middleware.examples.ts
import { PassThrough } from 'node:stream';
import {
  AuditLogMiddleware,
  CachingMiddleware,
  ConcurrencyLimitMiddleware,
  Layer,
  MetricsMiddleware,
  Principal,
  Registry,
  registerMetricsResource,
} from '@cloudg/core';
import * as z from 'zod';

const registry = new Registry();
registry.tool({
  name: 'get_asset',
  category: 'inventory',
  input: { ref: z.string() },
  readOnly: true,
  idempotent: true,
  handler: (_ctx, args) => ({ ref: args.ref, type: 'EC2' }),
});

export async function middlewareStack(): Promise<string[]> {
  const auditStream = new PassThrough();
  const auditLines: string[] = [];
  auditStream.on('data', (chunk) => auditLines.push(...String(chunk).trim().split('\n')));

  // #region stack
  // Outermost first: audit sees every call (cache hits included), metrics times them, the
  // limiter queues tool calls beyond 8, and the cache answers repeats.
  const audit = new AuditLogMiddleware({ stream: auditStream, salt: 'example-salt' });
  const metrics = new MetricsMiddleware();
  const limiter = new ConcurrencyLimitMiddleware({ limit: 8, queueTimeout: 30 });
  const cache = new CachingMiddleware({ ttl: 60 });
  const layer = new Layer({
    registry,
    middleware: [audit.middleware, metrics.middleware, limiter.middleware, cache.middleware],
  });
  cache.attach(layer); // any change event clears the cache
  registerMetricsResource(layer, metrics); // serves cloudg://metrics
  // Calling get_asset {"ref": "web-1"} twice as alice: the second result has
  // _meta["cloudg/cache"] = "hit", cache.stats() is {"size":1,"hits":1,"misses":1,"ttl":60},
  // and the audit stream has one line per call with "ref" hashed as "c56042a28cce676b".
  // #endregion stack

  const alice = new Principal({ id: 'alice', roles: ['analyst'] });
  await layer.callTool('get_asset', { ref: 'web-1' }, { principal: alice });
  const again = await layer.callTool('get_asset', { ref: 'web-1' }, { principal: alice });

  const [contents] = await layer.readResource('cloudg://metrics');
  const snapshot = JSON.parse((contents as { text: string }).text);
  await new Promise((resolve) => setImmediate(resolve)); // let the stream deliver the lines
  const line = JSON.parse(auditLines[0] ?? '{}');
  return [
    `second call -> cache ${again.meta['cloudg/cache']}`,
    `cache -> ${JSON.stringify(cache.stats())}`,
    `metrics -> calls ${snapshot.calls}, tool:get_asset ${snapshot.by_primitive['tool:get_asset'].calls}`,
    `audit -> ${auditLines.length} lines, outcome ${line.outcome}, ref hashed as ${line.argument_hashes.ref}`,
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const line of await middlewareStack()) console.log(line);
}

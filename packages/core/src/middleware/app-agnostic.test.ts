import { pino } from 'pino';
import { expect, it } from 'vitest';
import { Layer } from '../layer/layer.js';
import { Registry } from '../registry.js';
import { AuditLogMiddleware } from './audit-log.js';
import { CachingMiddleware } from './cache.js';
import { ConcurrencyLimitMiddleware } from './concurrency.js';
import { MetricsMiddleware, registerMetricsResource } from './metrics.js';
import { RetryMiddleware } from './retry.js';

interface Inventory {
  assets: string[];
}

// Type-checked as well as run: every built-in fits a layer with a typed application state.
it('the built-ins stack on a layer with a typed app without type arguments', async () => {
  const registry = new Registry<Inventory>();
  registry.tool({
    name: 'count',
    readOnly: true,
    idempotent: true,
    handler: (ctx) => ({ assets: ctx.app.assets.length }),
  });
  const metrics = new MetricsMiddleware();
  const cache = new CachingMiddleware({ predicate: (info) => info.kind === 'tool' });
  const layer = new Layer<Inventory>({
    app: { assets: ['web-1', 'db-1'] },
    registry,
    logger: pino({ level: 'silent' }),
    middleware: [new AuditLogMiddleware({ hashValues: false }).middleware, metrics.middleware],
  });
  layer
    .use(new ConcurrencyLimitMiddleware().middleware)
    .use(cache.middleware)
    .use(new RetryMiddleware().middleware);
  cache.attach(layer);
  registerMetricsResource(layer, metrics);

  expect((await layer.callTool('count')).structured).toEqual({ assets: 2 });
  expect((await layer.callTool('count')).meta['cloudg/cache']).toBe('hit');
  expect(metrics.snapshot().calls).toBe(2);
});

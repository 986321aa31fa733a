/**
 * A small registry for the introspection tests: one inventory tool that returns real
 * identifiers, and the five privacy tools written the way the catalog writes them (through the
 * layer's policy port and its `introspection`), so results go through the real output pipelines.
 */
import { Writable } from 'node:stream';
import { defineTool, type JsonObject, Layer, type Logger, Principal, Registry } from '@cloudg/core';
import { pino } from 'pino';
import * as z from 'zod';
import type { Policy, PolicySourceValue } from '../src/index.js';
import { load, silent } from './helpers.js';

export const ASSET = {
  name: 'web-1',
  arn: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0web1',
  account_id: '111111111111',
  owner: 'alice@example.com',
};

export const ann = new Principal({ id: 'ann', roles: ['analyst'] });
export const lee = new Principal({ id: 'lee', roles: ['lead'] });
export const root = new Principal({ id: 'root', roles: ['admin'] });

function introspectionOf(policy: unknown) {
  const found = (policy as { introspection?: Policy['introspection'] }).introspection;
  if (!found) throw new Error('the policy has no introspection');
  return found;
}

export function privacyRegistry(): Registry {
  const registry = new Registry();
  registry.add(
    defineTool({
      name: 'get_asset',
      category: 'inventory',
      sensitivity: 'confidential',
      capabilities: ['read_state'],
      handler: () => ({ ...ASSET }),
    }),
  );
  registry.add(
    defineTool({
      name: 'privacy_status',
      category: 'privacy',
      sensitivity: 'internal',
      capabilities: ['read_state'],
      handler: (ctx) =>
        introspectionOf(ctx.layer.policy).status(ctx.principal, {
          visibleTools: ctx.layer.listTools(ctx.principal).length,
        }),
    }),
  );
  registry.add(
    defineTool({
      name: 'preview_transform',
      category: 'privacy',
      sensitivity: 'internal',
      capabilities: ['read_state'],
      transformHints: { skip: ['*'], input_guard: false, depseudonymize: false },
      input: { data: z.json(), tool: z.string().nullable().default(null) },
      handler: async (ctx, args) => {
        const spec = args.tool ? ctx.layer.registry.tools.get(args.tool) : undefined;
        const run = await introspectionOf(ctx.layer.policy).preview(args.data, {
          principal: ctx.principal,
          ...(spec ? { tool: spec } : {}),
        });
        return { policy: ctx.layer.policy.name, tool: args.tool, ...run } as JsonObject;
      },
    }),
  );
  registry.add(
    defineTool({
      name: 'list_detectors',
      category: 'privacy',
      sensitivity: 'public',
      capabilities: ['read_state'],
      input: { category: z.string().nullable().default(null) },
      handler: (ctx, args) =>
        introspectionOf(ctx.layer.policy).listDetectors(ctx.principal, args.category ?? undefined),
    }),
  );
  registry.add(
    defineTool({
      name: 'privacy_audit_log',
      category: 'privacy',
      sensitivity: 'restricted',
      capabilities: ['read_state'],
      input: {
        limit: z.number().int().min(1).max(1000).default(50),
        decision: z.string().nullable().default(null),
      },
      handler: (ctx, args) =>
        introspectionOf(ctx.layer.policy).decisionLog(ctx.principal, {
          limit: args.limit,
          ...(args.decision ? { decision: args.decision } : {}),
        }),
    }),
  );
  registry.add(
    defineTool({
      name: 'reveal_token',
      category: 'privacy',
      sensitivity: 'restricted',
      capabilities: ['reveal'],
      transformHints: {
        pseudonymize: false,
        skip: ['substitute', 'alias'],
        input_guard: false,
        depseudonymize: false,
      },
      input: { token: z.string().min(1).max(20_000) },
      handler: (ctx, args) => introspectionOf(ctx.layer.policy).reveal(args.token, ctx.principal),
    }),
  );
  return registry;
}

/** A policy behind a layer with the registry above; `lines` collects the audit logger's output. */
export function privacyLayer(source: PolicySourceValue, options: { capture?: boolean } = {}) {
  const lines: Record<string, unknown>[] = [];
  let logger: Logger = silent;
  if (options.capture) {
    const stream = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    logger = pino({ level: 'debug' }, stream);
  }
  const policy = load(source, { logger });
  const layer = new Layer({ policy, registry: privacyRegistry(), logger: silent });
  /** A tool's structured content, failing the test on an error result. */
  const call = async (name: string, args: Record<string, unknown> = {}, principal = Principal.local()) => {
    const result = await layer.callTool(name, args, { principal });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    return result.structured as Record<string, unknown>;
  };
  return { policy, layer, call, lines };
}

/**
 * `preview_transform`: the caller's generic pipeline, or a tool's output pipeline, over sample
 * data. The transforms are built afresh around a throwaway vault with a random key, so preview
 * pseudonyms never match real ones (a preview cannot confirm which value is behind a real
 * pseudonym) and nothing reaches the policy's vault or its transform caches.
 */
import { randomBytes } from 'node:crypto';
import type { AnySpec, Principal, TransformPreview, TransformReport } from '@cloudg/core';
import { TokenVault, type TransformContext } from '@cloudg/privacy';
import { primitiveOf } from '../decide/primitive.js';
import type { IntrospectionHost } from './host.js';

/** A vault for one preview: random key, same scope as the policy's, never saved. */
function previewVault(host: IntrospectionHost): TokenVault {
  return new TokenVault({
    key: randomBytes(32),
    scope: host.vault.stats?.().scope ?? host.config.vault.scope,
  });
}

export function preview(
  host: IntrospectionHost,
  data: unknown,
  options: { principal: Principal; tool?: AnySpec },
): TransformPreview {
  const { principal, tool } = options;
  const specs = tool ? host.outputSpecs(tool, principal) : host.genericPipeline(principal).specs;
  if (specs.length === 0) return { transformed: data, report: {} };
  const vault = previewVault(host);
  const pipeline = host.buildWith(vault, specs);
  const context: Omit<TransformContext, 'report'> = {
    direction: 'output',
    principal: { id: principal.id, roles: principal.sortedRoles() },
    vault,
    policy: host.name,
  };
  if (tool) {
    const primitive = primitiveOf(tool);
    context.kind = primitive.kind;
    context.name = primitive.identity;
    context.category = primitive.category;
    context.sensitivity = primitive.sensitivity;
  }
  const run = pipeline.run(data, context);
  // Reports hold counts and labels only, which are JSON values.
  return { transformed: run.value, report: run.report as TransformReport };
}

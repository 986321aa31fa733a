/** What a policy needs to know about a primitive, read once from its spec. */
import type { AnySpec, Capability, Sensitivity } from '@cloudg/core';
import type { PrimitiveKind } from '../schema/config.js';

/** Which allow and deny lists apply: templates use the resource lists. */
export type Family = 'tool' | 'resource' | 'prompt';

export interface Primitive {
  kind: PrimitiveKind;
  family: Family;
  /** Tool or prompt name, static resource URI, or URI template text. */
  identity: string;
  category: string;
  tags: ReadonlySet<string>;
  sensitivity: Sensitivity;
  capabilities: ReadonlySet<Capability>;
  /** The capabilities in alphabetical order, so denial reasons do not depend on declaration order. */
  sortedCapabilities: readonly Capability[];
}

const cache = new WeakMap<AnySpec, Primitive>();

export function primitiveOf(spec: AnySpec): Primitive {
  let facts = cache.get(spec);
  if (facts) return facts;
  const base = {
    category: spec.category,
    tags: spec.tags,
    sensitivity: spec.sensitivity,
    capabilities: spec.capabilities,
    sortedCapabilities: [...spec.capabilities].sort(),
  };
  switch (spec.kind) {
    case 'tool':
      facts = { ...base, kind: 'tool', family: 'tool', identity: spec.name };
      break;
    case 'prompt':
      facts = { ...base, kind: 'prompt', family: 'prompt', identity: spec.name };
      break;
    case 'resource':
      facts = { ...base, kind: 'resource', family: 'resource', identity: spec.uri };
      break;
    default:
      facts = { ...base, kind: 'resource_template', family: 'resource', identity: spec.uriTemplate };
  }
  cache.set(spec, facts);
  return facts;
}

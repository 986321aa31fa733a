import { join } from 'node:path';
import type { Content, Layer, PromptResult } from '@cloudg/core';
import { createCatalogLayer, sampleEstateDir, type Workspace } from '../../src/index.js';
import { workspaceAt } from '../support/estate.js';

/**
 * The workspace the reference's prompt and completion examples used: `sample` (active), its
 * snapshot `baseline`, and `after`, behind a catalog layer with the allow-all policy.
 */
export async function promptLayer(): Promise<{ layer: Layer<Workspace>; ws: Workspace }> {
  const ws = workspaceAt(sampleEstateDir());
  await ws.load(join(sampleEstateDir(), 'inventory'), { name: 'sample' });
  ws.snapshot('sample', 'baseline');
  await ws.load(join(sampleEstateDir(), 'after'), { name: 'after', activate: false });
  return { layer: createCatalogLayer({ workspace: ws }), ws };
}

export function textOf(content: Content | undefined): string {
  if (content?.type === 'text') return content.text;
  throw new Error(`expected a text block, got ${content?.type}`);
}

/** The JSON inside the `Context for this task (JSON):` message. */
export function contextOf(result: PromptResult): Record<string, unknown> {
  const text = textOf(result.messages[1]?.content);
  const match = /^Context for this task \(JSON\):\n```json\n([\s\S]*)\n```$/.exec(text);
  if (!match?.[1]) throw new Error('no JSON context message');
  return JSON.parse(match[1]) as Record<string, unknown>;
}

/** URI and parsed JSON of an embedded resource message. */
export function embeddedOf(result: PromptResult, index = 2): { uri: string; data: Record<string, unknown> } {
  const content = result.messages[index]?.content;
  if (content?.type !== 'resource' || !('text' in content.resource)) throw new Error('no embedded resource');
  return { uri: content.resource.uri, data: JSON.parse(content.resource.text) as Record<string, unknown> };
}

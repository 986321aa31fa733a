import { join } from 'node:path';
import type { Layer, ToolResult } from '@cloudg/core';
import { createCatalogLayer, sampleEstateDir, type Workspace } from '../../src/index.js';
import { workspaceAt } from '../support/estate.js';

export const estate = sampleEstateDir();

/**
 * A catalog layer under the allow-all policy over a workspace rooted at the sample estate,
 * with `sample` loaded from `<estate>/inventory` as the reference's capture script did.
 */
export async function sampleLayer(
  options: { report?: boolean } = {},
): Promise<{ layer: Layer<Workspace>; ws: Workspace }> {
  const ws = workspaceAt(estate);
  const layer = createCatalogLayer({ workspace: ws });
  await call(layer, 'load_dataset', { path: join(estate, 'inventory'), name: 'sample' });
  if (options.report) {
    await call(layer, 'load_dataset', { path: 'report/findings.json', name: 'report', activate: false });
  }
  return { layer, ws };
}

/** Call a tool and return its structuredContent, failing loudly on an error result. */
export async function call(
  layer: Layer<Workspace>,
  name: string,
  args: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const result = await layer.callTool(name, args);
  if (result.isError) throw new Error(`${name} failed: ${errorText(result)}`);
  return result.structured as Record<string, unknown>;
}

export function errorText(result: ToolResult): string {
  const first = result.content[0];
  return first && first.type === 'text' ? first.text : '';
}

/** An error result as the reference prints it: text, code and data. */
export async function callError(
  layer: Layer<Workspace>,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ text: string; code: unknown; data: unknown }> {
  const result = await layer.callTool(name, args);
  if (!result.isError) throw new Error(`${name} unexpectedly succeeded`);
  return {
    text: errorText(result),
    code: result.meta['cloudg/error_code'],
    data: result.meta['cloudg/error_data'],
  };
}

/** The JSON of the first content item of a resource read. */
export async function readJson(layer: Layer<Workspace>, uri: string): Promise<Record<string, unknown>> {
  const [first] = await layer.readResource(uri);
  if (!first || !('text' in first)) throw new Error(`no text content for ${uri}`);
  return JSON.parse(first.text) as Record<string, unknown>;
}

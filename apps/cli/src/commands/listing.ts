/** `tools`, `resources` and `prompts`: what the policy shows a principal, as a table or wire JSON. */
import type { JsonObject } from '@cloudg/core';
import { createLayerFromOptions } from '@cloudg/server';
import type { CliIo } from '../io.js';
import type { LayerFlags } from '../layer-flags.js';
import { layerOptionsFrom, principalFrom } from '../options.js';
import { renderTable } from '../table.js';

export type ListFlags = LayerFlags & { json?: boolean; category?: string[] };

const meta = (wire: JsonObject, key: string) => String((wire._meta as JsonObject | undefined)?.[key] ?? '');

/** One listing: its wire JSON for `--json`, else a table. */
interface Listing {
  wire: unknown;
  title: string;
  headers: string[];
  rows: string[][];
  widths: number[];
}

function toolsListing(tools: JsonObject[]): Listing {
  return {
    wire: tools,
    title: `cloudg MCP tools (${tools.length})`,
    headers: ['Tool', 'Category', 'Sensitivity', 'Description'],
    rows: tools.map((t) => [
      String(t.name),
      meta(t, 'cloudg/category'),
      meta(t, 'cloudg/sensitivity'),
      String(t.description),
    ]),
    widths: [64, 16, 14, 60],
  };
}

function resourcesListing(resources: JsonObject[], templates: JsonObject[]): Listing {
  const row = (uri: unknown, kind: string, r: JsonObject) => [
    String(uri),
    kind,
    meta(r, 'cloudg/category'),
    String(r.description ?? ''),
  ];
  return {
    wire: { resources, resourceTemplates: templates },
    title: `cloudg MCP resources (${resources.length} resources, ${templates.length} templates)`,
    headers: ['URI', 'Kind', 'Category', 'Description'],
    rows: [
      ...resources.map((r) => row(r.uri, 'resource', r)),
      ...templates.map((r) => row(r.uriTemplate, 'template', r)),
    ],
    widths: [72, 10, 14, 60],
  };
}

function promptsListing(prompts: JsonObject[]): Listing {
  return {
    wire: prompts,
    title: `cloudg MCP prompts (${prompts.length})`,
    headers: ['Prompt', 'Category', 'Arguments', 'Description'],
    rows: prompts.map((p) => [
      String(p.name),
      meta(p, 'cloudg/category'),
      ((p.arguments ?? []) as JsonObject[]).map((a) => `${a.name}${a.required ? '*' : ''}`).join(', '),
      String(p.description),
    ]),
    widths: [64, 14, 28, 60],
  };
}

export async function listCommand(
  kind: 'tools' | 'resources' | 'prompts',
  flags: ListFlags,
  io: CliIo,
): Promise<number> {
  const server = await createLayerFromOptions(await layerOptionsFrom(flags, io));
  const principal = principalFrom(flags);
  const { layer } = server;
  let listing: Listing;
  if (kind === 'tools') {
    let tools = layer.toolsWire(principal);
    if (flags.category?.length)
      tools = tools.filter((t) => flags.category!.includes(meta(t, 'cloudg/category')));
    listing = toolsListing(tools);
  } else if (kind === 'resources') {
    listing = resourcesListing(layer.resourcesWire(principal), layer.resourceTemplatesWire(principal));
  } else {
    listing = promptsListing(layer.promptsWire(principal));
  }
  io.stdout(
    flags.json
      ? `${JSON.stringify(listing.wire, null, 2)}\n`
      : renderTable(listing.title, listing.headers, listing.rows, listing.widths),
  );
  server.close();
  return 0;
}

/** `tools`, `resources` and `prompts`: what the policy shows a principal, as a table or wire JSON. */
import type { JsonObject } from '@cloudg/core';
import { createLayerFromOptions } from '@cloudg/server';
import type { CliIo } from '../io.js';
import { type LayerFlags, layerOptionsFrom, principalFrom } from '../options.js';
import { renderTable } from '../table.js';

type ListFlags = LayerFlags & { json?: boolean; category?: string[] };

const meta = (wire: JsonObject, key: string) => String((wire._meta as JsonObject | undefined)?.[key] ?? '');

export async function listCommand(
  kind: 'tools' | 'resources' | 'prompts',
  flags: ListFlags,
  io: CliIo,
): Promise<number> {
  const server = await createLayerFromOptions(await layerOptionsFrom(flags, io));
  const principal = principalFrom(flags);
  const { layer } = server;
  if (kind === 'tools') {
    let tools = layer.toolsWire(principal);
    if (flags.category?.length)
      tools = tools.filter((t) => flags.category!.includes(meta(t, 'cloudg/category')));
    if (flags.json) io.stdout(`${JSON.stringify(tools, null, 2)}\n`);
    else
      io.stdout(
        renderTable(
          `cloudg MCP tools (${tools.length})`,
          ['Tool', 'Category', 'Sensitivity', 'Description'],
          tools.map((t) => [
            String(t.name),
            meta(t, 'cloudg/category'),
            meta(t, 'cloudg/sensitivity'),
            String(t.description),
          ]),
          [64, 16, 14, 60],
        ),
      );
  } else if (kind === 'resources') {
    const resources = layer.resourcesWire(principal);
    const templates = layer.resourceTemplatesWire(principal);
    if (flags.json) io.stdout(`${JSON.stringify({ resources, resourceTemplates: templates }, null, 2)}\n`);
    else {
      const rows = [
        ...resources.map((r) => [
          String(r.uri),
          'resource',
          meta(r, 'cloudg/category'),
          String(r.description ?? ''),
        ]),
        ...templates.map((r) => [
          String(r.uriTemplate),
          'template',
          meta(r, 'cloudg/category'),
          String(r.description ?? ''),
        ]),
      ];
      io.stdout(
        renderTable(
          `cloudg MCP resources (${resources.length} resources, ${templates.length} templates)`,
          ['URI', 'Kind', 'Category', 'Description'],
          rows,
          [72, 10, 14, 60],
        ),
      );
    }
  } else {
    const prompts = layer.promptsWire(principal);
    if (flags.json) io.stdout(`${JSON.stringify(prompts, null, 2)}\n`);
    else
      io.stdout(
        renderTable(
          `cloudg MCP prompts (${prompts.length})`,
          ['Prompt', 'Category', 'Arguments', 'Description'],
          prompts.map((p) => [
            String(p.name),
            meta(p, 'cloudg/category'),
            ((p.arguments ?? []) as JsonObject[]).map((a) => `${a.name}${a.required ? '*' : ''}`).join(', '),
            String(p.description),
          ]),
          [64, 14, 28, 60],
        ),
      );
  }
  server.close();
  return 0;
}

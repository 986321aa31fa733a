import type { Registry } from '@cloudg/core';
import { completeGraphFormat } from '../completions/graph.js';
import { relationshipGraph } from '../graph/index.js';
import {
  GRAPH_FORMAT_MIME,
  GRAPH_FORMATS,
  type GraphFormat,
  renderGraph,
  toD3,
} from '../tools/graph/graph-formats.js';
import { ReferenceNotFoundError } from '../workspace/errors.js';
import type { Workspace } from '../workspace/workspace.js';

function parseGraphFormat(value: string): GraphFormat {
  const format = value.trim().toLowerCase();
  if ((GRAPH_FORMATS as readonly string[]).includes(format)) return format as GraphFormat;
  // A read error like every resource failure; the message never repeats the value.
  throw new ReferenceNotFoundError(`Unknown graph format; use ${GRAPH_FORMATS.join(', ')}`, {
    data: { value, valid: [...GRAPH_FORMATS] },
  });
}

/**
 * The whole relationship graph of the active dataset: `cloudg://graph/d3` (confidential, JSON the
 * privacy transforms can walk) and `cloudg://graph/{format}` (restricted, because its GraphML
 * form is one opaque string). The template lists `application/json`; each read carries the MIME
 * type of the format it returns.
 */
export function registerGraphResources(registry: Registry<Workspace>): void {
  registry.resource({
    uri: 'cloudg://graph/d3',
    name: 'graph-d3',
    title: 'Relationship graph (D3)',
    description:
      'The whole relationship graph of the active dataset as D3 {nodes, links}: assets and placeholder nodes (is_external), one link per node pair.',
    category: 'graph',
    sensitivity: 'confidential',
    mimeType: 'application/json',
    handler: (ctx) => toD3(relationshipGraph(ctx.app.get(), ctx.signal)),
  });

  registry.resourceTemplate({
    uriTemplate: 'cloudg://graph/{format}',
    name: 'graph',
    title: 'Relationship graph',
    description:
      'The whole relationship graph of the active dataset as d3 or cytoscape (application/json) or graphml (application/graphml+xml). Restricted because the GraphML form is one opaque string; under a confidential ceiling read cloudg://graph/d3.',
    category: 'graph',
    sensitivity: 'restricted',
    mimeType: 'application/json',
    completions: { format: completeGraphFormat },
    handler: (ctx, vars) => {
      const format = parseGraphFormat(vars.format ?? '');
      const rendered = renderGraph(relationshipGraph(ctx.app.get(), ctx.signal), format);
      // JSON forms go back as values, so the output transforms walk them field by field.
      if (typeof rendered !== 'string') return rendered;
      return [{ uri: `cloudg://graph/${format}`, mimeType: GRAPH_FORMAT_MIME[format], text: rendered }];
    },
  });
}

import type { Registry } from '@cloudg/core';
import { z } from 'zod';
import { findingBrief } from '../../conventions/briefs.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import { paginate } from '../../conventions/paging.js';
import { checkFields, FINDING_FIELDS, project } from '../../conventions/projection.js';
import { FINDING_SORTS } from '../../conventions/sorting.js';
import { queryFindings } from '../../findings/query.js';
import type { Workspace } from '../../workspace/workspace.js';
import { cursorArg, datasetArg, limitArg } from '../workspace/args.js';
import { listFindingsOutput } from './output-schemas.js';

/** `list_findings`: filtered, sorted, paginated finding search returning briefs. */
export function registerListFindings(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'list_findings',
    title: 'List findings',
    description:
      "Search findings by severity, scanner, framework, asset or text, sorted (highest risk first by default) and paged with a cursor. Suppressed findings are left out unless include_suppressed. severity_breakdown counts every match, not only this page. Items are finding briefs; read an item's uri or call get_finding for evidence and remediation.",
    category: 'findings',
    sensitivity: 'confidential',
    capabilities: ['read_state'],
    tags: ['start-here'],
    outputSchema: listFindingsOutput,
    input: {
      severities: z
        .array(z.string())
        .nullable()
        .default(null)
        .describe('Any of CRITICAL, HIGH, MEDIUM, LOW, INFO.'),
      min_severity: z.string().default('').describe('At or above this severity.'),
      source_tool: z
        .string()
        .default('')
        .describe("Substring of the producing tool, e.g. 'prowler', 'cloudg-reachability'."),
      framework: z.string().default('').describe("Substring of a compliance framework, e.g. 'CIS', 'PCI'."),
      resource: z.string().default('').describe('Only findings on this asset (ref).'),
      query: z.string().default('').describe('Substring of title or description.'),
      include_suppressed: z.boolean().default(false).describe('Also return suppressed findings.'),
      sort_by: z.enum(FINDING_SORTS).default('risk').describe('Sort order (see the sorting table).'),
      fields: z
        .array(z.string())
        .nullable()
        .default(null)
        .describe(`Project items to these fields. Valid: ${FINDING_FIELDS.join(', ')}`),
      limit: limitArg(),
      cursor: cursorArg(),
      dataset: datasetArg(),
    },
    handler: (ctx, args) => {
      // Arguments that can be refused are checked before any work is done.
      const fields = checkFields(args.fields, FINDING_FIELDS);
      const dataset = resolveDataset(ctx.app, args.dataset);
      const { items: matched, severity_breakdown } = queryFindings(dataset, args, args.sort_by);
      const { limit, cursor, dataset: _name, ...query } = args;
      const page = paginate(matched, { dataset, query, limit, cursor });
      return {
        dataset: dataset.name,
        total: page.total,
        offset: page.offset,
        returned: page.returned,
        next_cursor: page.next_cursor,
        truncated: page.truncated,
        severity_breakdown,
        items: page.items.map((f) =>
          project(findingBrief(dataset, f) as unknown as Record<string, unknown>, fields),
        ),
      };
    },
  });
}

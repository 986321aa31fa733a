import {
  type AnySpec,
  closeMatches,
  InvalidArgumentsError,
  McpLayerError,
  type Registry,
  type ToolContext,
} from '@cloudg/core';
import * as z from 'zod';
import type { Workspace } from '../../workspace/workspace.js';
import { policyOf } from './introspection.js';

/**
 * The preview is the policy's output already: transforming it again would show the caller
 * something else. Secrets must be previewable, and a pasted pseudonym must stay as pasted.
 */
export const PREVIEW_TRANSFORM_HINTS = { skip: ['*'], input_guard: false, depseudonymize: false };

function parseSample(data: unknown, parseJson: boolean): unknown {
  if (!parseJson || typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    // Plain text is a valid sample too.
    return data;
  }
}

/**
 * A tool the caller cannot see. The message names the close matches among the tools the caller
 * is shown (names from tools/list, never the value passed, which goes in `data.value`).
 */
function unknownTool(ctx: ToolContext<Workspace>, value: string): InvalidArgumentsError {
  const visible = ctx.layer.listTools(ctx.principal).map((t) => ctx.layer.exposedName(t.name));
  const close = closeMatches(value, visible, 3, 0.6);
  const hint = close.length ? ` Did you mean ${close.join(', ')}?` : '';
  return new InvalidArgumentsError(`Unknown tool.${hint} Pass a tool name as tools/list shows it.`, {
    data: { value, close_matches: close },
  });
}

export function registerPreviewTransform(registry: Registry<Workspace>): void {
  registry.tool({
    name: 'preview_transform',
    title: 'Preview transform',
    description:
      "Run the caller's output pipeline, or the pipeline of one tool, over sample data and show the " +
      'result and the transform report. Pseudonyms come from a separate preview vault, so they never ' +
      'match real results; nothing is stored.',
    category: 'privacy',
    sensitivity: 'internal',
    capabilities: ['read_state'],
    transformHints: PREVIEW_TRANSFORM_HINTS,
    input: {
      data: z.json().describe('JSON value (object / array / string) or text to transform'),
      tool: z
        .string()
        .nullable()
        .default(null)
        .describe("Preview with the pipeline of this tool (default: the policy's generic pipeline)"),
      parse_json: z.boolean().default(true).describe('Parse `data` as JSON when it is a JSON string'),
    },
    handler: async (ctx, args) => {
      const policy = policyOf(ctx);
      let spec: AnySpec | undefined;
      if (args.tool) {
        const found = ctx.layer.registry.tools.get(ctx.layer.internalName(args.tool));
        if (!found || !ctx.layer.isVisible(found, ctx.principal)) throw unknownTool(ctx, args.tool);
        spec = found as AnySpec;
      }
      const sample = parseSample(args.data, args.parse_json);
      if (policy.introspection) {
        const { transformed, report } = await policy.introspection.preview(sample, {
          principal: ctx.principal,
          ...(spec ? { tool: spec } : {}),
        });
        return { policy: policy.name, tool: args.tool, transformed, report };
      }
      // Without introspection the preview is exact only when there is nothing to run.
      const pipeline = spec ? policy.outputPipeline(spec, ctx.principal) : undefined;
      if (pipeline && !pipeline.isEmpty) {
        throw new McpLayerError('This policy cannot preview its transforms.', {
          data: { policy: policy.name },
        });
      }
      return { policy: policy.name, tool: args.tool, transformed: sample, report: {} };
    },
  });
}

import {
  type PromptArgument,
  type PromptMessage,
  PromptResult,
  type Registry,
  type Sensitivity,
  type ToolContext,
} from '@cloudg/core';
import type { Dataset } from '../dataset/dataset.js';
import { datasetSummaryUri, type Workspace } from '../workspace/workspace.js';
import { availableSteps } from './available-steps.js';
import { contextMessage, embed, NO_DATA_TEXT, taskMessage } from './messages.js';

/** What a dataset prompt hands back: the task, the JSON context and what to embed. */
export interface PromptPlan {
  task: string;
  context: Record<string, unknown>;
  /** URIs to embed, each only when a registered resource serves it. */
  embed?: string[];
}

export interface DatasetPromptInit {
  name: string;
  title: string;
  description: string;
  sensitivity: Sensitivity;
  arguments: PromptArgument<Workspace>[];
  build: (
    ctx: ToolContext<Workspace>,
    dataset: Dataset,
    args: Record<string, string>,
  ) => PromptPlan | Promise<PromptPlan>;
}

/** The dataset a prompt works on; undefined when none is named and nothing is loaded. */
export function promptDataset(ws: Workspace, name: string | undefined): Dataset | undefined {
  const wanted = name?.trim() ?? '';
  if (!wanted && ws.activeName === null) return undefined;
  return ws.get(wanted || null);
}

/** Whether `dataset` is the one resources read (they always read the active dataset). */
export function isActive(ws: Workspace, dataset: Dataset): boolean {
  return ws.activeName === dataset.name;
}

export async function planMessages(ctx: ToolContext<Workspace>, plan: PromptPlan): Promise<PromptMessage[]> {
  // Steps naming only tools this caller cannot call (not registered, or hidden) are left out.
  const visible = new Set(ctx.layer.listTools(ctx.principal).map((t) => t.name));
  const task = availableSteps(plan.task, (tool) => visible.has(tool));
  const messages = [taskMessage(task), contextMessage(plan.context)];
  for (const uri of plan.embed ?? []) messages.push(...(await embed(ctx, uri)));
  return messages;
}

/** A prompt over one dataset (the `dataset` argument, else the active one). */
export function datasetPrompt(registry: Registry<Workspace>, init: DatasetPromptInit): void {
  registry.prompt({
    name: init.name,
    title: init.title,
    description: init.description,
    category: 'prompts',
    sensitivity: init.sensitivity,
    tags: ['workflow'],
    arguments: init.arguments,
    handler: async (ctx, args) => {
      const dataset = promptDataset(ctx.app, args.dataset);
      if (!dataset) return new PromptResult([taskMessage(NO_DATA_TEXT)], init.title);
      const plan = await init.build(ctx, dataset, args);
      return new PromptResult(await planMessages(ctx, plan), init.title);
    },
  });
}

/** The summary resource of a dataset, the default thing to embed. */
export function summaryUri(dataset: Dataset): string {
  return datasetSummaryUri(dataset.name);
}

/**
 * The options of the commands that build a layer (serve, tools, resources, prompts, call, read;
 * MCP.md 5.1 and 5.2), as commander definitions and the flags they parse to. Defining them loads
 * commander and the CLI's error class, nothing else; options.ts turns the flags into server options.
 */
import type { Command } from 'commander';
import { addLogLevelOption } from './log-level.js';
import { collect, parseSeconds } from './option-values.js';

/** Options for every command that builds a layer. */
export function addLayerOptions(command: Command): Command {
  return command
    .option(
      '-c, --config <PATH>',
      'cloudg config.yaml: providers, credentials, report directory, rulesets (rules_dir) and state (dir, where suppressions are kept)',
    )
    .option(
      '--policy <NAME_OR_FILE>',
      'profile name, .yaml/.yml/.json file or inline JSON (env CLOUDG_MCP_POLICY; default standard)',
    )
    .option('--dataset <[NAME=]PATH>', 'preload a dataset; repeatable', collect, [])
    .option('--prefix <TEXT>', 'prepended to every tool and prompt name', '')
    .option('--include-category <CAT>', 'only expose these categories; repeatable', collect)
    .option('--exclude-category <CAT>', 'hide these categories; repeatable', collect)
    .option('--include-tool <NAME>', 'only expose these tools; repeatable', collect)
    .option('--exclude-tool <NAME>', 'hide these tools; repeatable', collect)
    .option('--read-only', 'drop tools that write files, reach cloud APIs, run programs or are destructive')
    .option('--audit-log <FILE>', 'append a JSONL audit trail (env CLOUDG_MCP_AUDIT_LOG)')
    .option('--timeout <SECONDS>', 'default per-call tool timeout; 0 disables', parseSeconds, 300)
    .option('--registry <MODULE:ATTR>', 'serve a custom Registry (ATTR defaults to defaultRegistry)')
    .option(
      '--engine <MODULE:ATTR>',
      'live collection engine: enables map_inventory, collect_assets and run_pipeline (ATTR defaults to engine)',
    )
    .option(
      '--restore-live',
      'keep live datasets across restarts: save each under the output directory and load them on start',
    )
    .option(
      '--pretty-json',
      'indent the JSON text of tool results (default compact, about a third fewer tokens)',
    )
    .option(
      '--sample',
      `also load the bundled sample estate (fictitious assets) as dataset '${SAMPLE_DATASET_NAME}'`,
    )
    .option(
      '--no-sample-estate',
      'tools, resources, prompts, call, read: without --dataset, start empty instead of with the sample estate',
    );
}

/** The layer options plus `--log-level`: every command that builds a layer. */
export function addLayerAndLogOptions(command: Command): Command {
  return addLogLevelOption(addLayerOptions(command));
}

/** The dataset name the bundled sample estate gets when no --dataset is given. */
export const SAMPLE_DATASET_NAME = 'sample';

export function addPrincipalOptions(command: Command): Command {
  return command
    .option('--role <ROLE>', 'act as a principal with this role; repeatable', collect)
    .option('--principal-id <ID>', 'principal id to act as');
}

export interface LayerFlags {
  config?: string;
  policy?: string;
  dataset: string[];
  prefix: string;
  includeCategory?: string[];
  excludeCategory?: string[];
  includeTool?: string[];
  excludeTool?: string[];
  readOnly?: boolean;
  auditLog?: string;
  timeout: number;
  registry?: string;
  /** `--engine MODULE:ATTR`: a CloudgEngine, or a function returning one. */
  engine?: string;
  restoreLive?: boolean;
  /** `--sample`: load the bundled sample estate besides any --dataset. */
  sample?: boolean;
  /** Commander's spelling of `--no-sample-estate`: false when the flag is given. */
  sampleEstate?: boolean;
  /** `--log-level`, as given (any case); CLOUDG_LOG_LEVEL, else WARNING, when absent. */
  logLevel?: string;
  prettyJson?: boolean;
  role?: string[];
  principalId?: string;
}

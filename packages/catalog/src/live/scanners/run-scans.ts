import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InvalidArgumentsError } from '@cloudg/core';
import type { Dataset } from '../../dataset/dataset.js';
import { lintIamPolicies } from '../../findings/iam-lint.js';
import type { LoadKind } from '../../loaders/load.js';
import type { Finding } from '../../model/finding.js';
import type { Workspace } from '../../workspace/workspace.js';
import type { EngineHooks } from '../engine.js';
import { type PlanInput, planScanner, type ScannerName } from './plans.js';
import { findExecutable, runProcess } from './run-process.js';

export interface ScanOutcome {
  findings: Finding[];
  errors: string[];
}

/**
 * Run the selected scanners one after another and parse what each wrote with the ingest parsers.
 * A scanner that is not installed, exits with an error or writes nothing readable is reported in
 * `errors`; the others still run.
 */
export async function runScans(
  ws: Workspace,
  scanners: readonly ScannerName[],
  input: PlanInput,
  options: {
    env: NodeJS.ProcessEnv;
    signal: AbortSignal;
    hooks: EngineHooks;
    /** The dataset the `iam` linter reads (its IAM roles' and policies' documents). */
    dataset?: Pick<Dataset, 'assets'>;
    /** Multiplies every scanner's time limit (tests shrink it). */
    timeoutScale?: number;
  },
): Promise<ScanOutcome> {
  const findings: Finding[] = [];
  const errors: string[] = [];
  await mkdir(input.outDir, { recursive: true, mode: 0o700 });
  for (const scanner of scanners) {
    if (scanner === 'iam') {
      // The built-in linter reads the dataset, not the cloud: no process, no credentials.
      if (!options.dataset) {
        errors.push('iam: no dataset to check');
        continue;
      }
      options.hooks.progress('running iam');
      const linted = lintIamPolicies(options.dataset, options.signal);
      findings.push(...linted.findings);
      if (linted.documents === 0) errors.push('iam: no IAM policy documents in the dataset to check');
      continue;
    }
    const plans = planScanner(scanner, input);
    if (plans.length === 0) {
      errors.push(`${scanner}: nothing to scan (${scanner === 'checkov' ? 'pass iac_dir' : 'pass images'})`);
      continue;
    }
    const executable = await findExecutable(plans[0]?.executable ?? scanner, options.env.PATH);
    if (executable === null) {
      errors.push(`${scanner}: not installed (${plans[0]?.executable} is not on the server's PATH)`);
      continue;
    }
    for (const plan of plans) {
      options.signal.throwIfAborted();
      options.hooks.progress(`running ${plan.label}`);
      await mkdir(plan.kind === 'scoutsuite' ? plan.output : dirname(plan.output), { recursive: true });
      const outcome = await runProcess(executable, plan.argv, {
        ...(plan.stdoutToOutput ? { stdoutFile: plan.output } : {}),
        env: options.env,
        cwd: input.outDir,
        signal: options.signal,
        timeoutMs: (options.timeoutScale ?? 1) * plan.timeoutSeconds * 1000,
      });
      if (outcome.timedOut) {
        errors.push(`${plan.label}: stopped after ${plan.timeoutSeconds}s without finishing`);
        continue;
      }
      if (outcome.code === null || !plan.okCodes.includes(outcome.code)) {
        const why = outcome.code === null ? 'could not start' : `exited with code ${outcome.code}`;
        errors.push(`${plan.label}: ${why}${outcome.stderr ? `: ${outcome.stderr.split('\n').at(-1)}` : ''}`);
        continue;
      }
      try {
        const parsed = await ws.parsePath(plan.output, {
          kind: plan.kind as LoadKind,
          normalise: false,
          signal: options.signal,
        });
        findings.push(...(parsed.data.findings ?? []));
        for (const issue of parsed.issues) errors.push(`${plan.label}: ${issue.error}`);
      } catch (error) {
        if (options.signal.aborted || !(error instanceof InvalidArgumentsError)) throw error;
        errors.push(`${plan.label}: output could not be read (${error.message})`);
      }
    }
  }
  return { findings, errors };
}

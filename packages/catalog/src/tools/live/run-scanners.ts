import { InvalidArgumentsError, type Registry } from '@cloudg/core';
import { z } from 'zod';
import { normaliseFindings, providerFromResource } from '../../compliance/normaliser.js';
import { workspaceRulesets } from '../../compliance/workspace-rulesets.js';
import { resolveDataset } from '../../conventions/dataset-arg.js';
import type { Dataset } from '../../dataset/dataset.js';
import { severityBreakdown } from '../../dataset/summary.js';
import { generateReachabilityFindings } from '../../findings/reachability.js';
import { keepScanResults, type ScanResults } from '../../live/scan-store.js';
import { azureServicePrincipal, scannerEnv } from '../../live/scanners/credentials-env.js';
import { CLOUD_SCANNERS, SCANNERS, type ScannerName } from '../../live/scanners/plans.js';
import { findExecutable } from '../../live/scanners/run-process.js';
import { runScans } from '../../live/scanners/run-scans.js';
import { scopesOf } from '../../live/scopes.js';
import { uniqueFindingIds } from '../../loaders/normalise.js';
import type { Finding } from '../../model/finding.js';
import type { Workspace } from '../../workspace/workspace.js';
import { datasetArg } from '../workspace/args.js';
import { callConfig, checkForce, forceArg, preflightArg } from './args.js';
import { durationSince, linkDataset } from './collection-result.js';
import { LiveProgress } from './progress.js';
import { JOINED_NOTE, runLive } from './run-live.js';

const EXECUTABLES: Record<Exclude<ScannerName, 'iam'>, string> = {
  prowler: 'prowler',
  scoutsuite: 'scout',
  checkov: 'checkov',
  trivy: 'trivy',
};

function parseScanners(given: readonly string[] | null): ScannerName[] | null {
  if (!given || given.length === 0) return null;
  const wanted = given.map((s) => s.trim().toLowerCase());
  const unknown = given.filter((_, i) => !(SCANNERS as readonly string[]).includes(wanted[i] as string));
  if (unknown.length > 0) {
    throw new InvalidArgumentsError(`Unknown scanner(s). Use: ${SCANNERS.join(', ')}`, {
      data: { unknown, supported: [...SCANNERS] },
    });
  }
  return [...new Set(wanted)] as ScannerName[];
}

/**
 * "Empty = configured": the cloudg config has no scanner section, so the configured set is
 * what can run here: the cloud scanners installed on PATH, Checkov when `iac_dir` is given and
 * Trivy when `images` are (a gap in the reference, which read a scanner list from its config).
 */
async function defaultScanners(
  iacDir: string,
  images: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<ScannerName[]> {
  const out: ScannerName[] = [];
  for (const s of CLOUD_SCANNERS)
    if (await findExecutable(EXECUTABLES[s as 'prowler'], env.PATH)) out.push(s);
  if (iacDir) out.push('checkov');
  if (images.length > 0) out.push('trivy');
  return out;
}

/** Same key as reachability_findings: a finding already present by source tool, title and resource. */
const sameKey = (f: Finding) => `${f.source_tool}\u0000${f.title}\u0000${f.resource_id ?? ''}`;

/**
 * `run_scanners`: Prowler, ScoutSuite, Checkov and Trivy as child processes (when installed),
 * plus cloudg's reachability findings, added to an existing dataset.
 */
export function registerRunScanners(
  registry: Registry<Workspace>,
  options: { env?: NodeJS.ProcessEnv } = {},
): void {
  const env = options.env ?? process.env;
  registry.tool({
    name: 'run_scanners',
    title: 'Run security scanners',
    description:
      "Run security scanners (Prowler and ScoutSuite against the cloud, Checkov on an IaC directory, Trivy on container images) as local programs, plus cloudg's IAM linter (iam: wildcard grants in the dataset's collected IAM policy documents) and reachability analysis, and add their findings to an existing dataset. Output files go to <output_dir>/scans. A scanner that is not installed is listed in errors. Only Prowler and ScoutSuite need cloud credentials, so only they trigger the preflight and the live cooldown. Returns new_findings, severity_breakdown, findings_before/after, output_dir and errors.",
    category: 'live',
    sensitivity: 'confidential',
    capabilities: ['cloud_access', 'exec', 'read_fs', 'read_state', 'write_fs', 'write_state'],
    readOnly: false,
    destructive: false,
    idempotent: false,
    openWorld: true,
    timeoutSeconds: 7200,
    // Minutes of work: a client that supports tasks gets a handle at once and polls (progress
    // shows as the task's status message); any other client waits for the result as before.
    taskSupport: 'optional',
    input: {
      scanners: z
        .array(z.string())
        .nullable()
        .default(null)
        .describe(`Subset of ${SCANNERS.join(', ')}; empty = configured.`),
      iac_dir: z.string().default('').describe('IaC directory for Checkov (inside an allowed root).'),
      images: z.array(z.string().min(1)).nullable().default(null).describe('Container images for Trivy.'),
      normalise: z
        .boolean()
        .default(true)
        .describe("Deduplicate and compliance-map the dataset's findings after the scan."),
      dataset: datasetArg(),
      preflight: preflightArg(),
      force: forceArg(),
    },
    handler: async (ctx, args) => {
      const ws = ctx.app;
      const given = parseScanners(args.scanners);
      const images = args.images ?? [];
      // An image that looks like an option could be read as one by the scanner: refused outright.
      const hostile = images.filter((i) => i.startsWith('-'));
      if (hostile.length > 0) {
        throw new InvalidArgumentsError('Container image names must not start with "-".', {
          data: { refused: hostile },
        });
      }
      const iacDir = args.iac_dir ? ws.checkPath(args.iac_dir) : null;
      const dataset = resolveDataset(ws, args.dataset);
      checkForce(ctx.principal, args.force);
      const scanners = given ?? (await defaultScanners(args.iac_dir, images, env));
      const cloud = scanners.some((s) => CLOUD_SCANNERS.includes(s));
      // The cloud scanners scan what the server is configured and credentialed for.
      const providers = [...ws.config.providers];
      const config = callConfig(ws.config, providers, null);
      const outDir = ws.outputPath('scans');
      const progress = new LiveProgress(ctx, 3);
      const started = Date.now();
      const { value, joined } = await runLive(ctx, {
        tool: 'run_scanners',
        providers: cloud ? providers : [],
        scopes: cloud ? scopesOf(config, providers) : [],
        key: {
          dataset: dataset.name,
          load: dataset.loadId,
          scanners,
          iac: iacDir,
          images,
          normalise: args.normalise,
        },
        force: args.force,
        preflight: cloud && args.preflight ? providers : [],
        progress,
        work: async ({ signal, hooks, errors }) => {
          hooks.phase('scanning');
          const childEnv = scannerEnv(ws.config, env);
          const scanned = await runScans(
            ws,
            scanners,
            { providers, iacDir, images, outDir, azureServicePrincipal: azureServicePrincipal(childEnv) },
            { env: childEnv, signal, hooks, dataset },
          );
          errors.push(...scanned.errors);
          const keys = new Set(dataset.findings.map(sameKey));
          const reach = generateReachabilityFindings(dataset, signal)
            .map((g) => g.finding)
            .filter((f) => !dataset.indexes.findingById(f.id) && !keys.has(sameKey(f)));
          const added = [...scanned.findings, ...reach];
          const rulesets = args.normalise ? await workspaceRulesets(ws) : undefined;
          // Merged onto the dataset's findings as they are once the scan is done (in a shared
          // workspace: worked out before the log's lease, put in place under it, scan-store.ts).
          // Pure: the dataset is changed by keepScanResults, which may call this again.
          const combine = async (target: Dataset): Promise<ScanResults> => {
            if (rulesets) {
              const outcome = normaliseFindings({
                findings: [...target.findings, ...added],
                compliance: target.compliance,
                catalog: rulesets,
                providerOf: (f) =>
                  target.indexes.assetOfFinding(f)?.provider.toLowerCase() ?? providerFromResource(f),
                signal,
              });
              return { findings: outcome.findings, compliance: outcome.compliance };
            }
            return {
              findings: uniqueFindingIds([...target.findings, ...added.map((f) => ({ ...f }))]),
              compliance: target.compliance,
            };
          };
          // A saved live collection keeps its scan results across a restart too, and the other
          // replicas of a shared workspace take the results as they are (scan-store.ts).
          const kept = await keepScanResults(ws, dataset, combine, signal);
          errors.push(...kept.errors);
          const { before, after, fresh } = kept.merged;
          return {
            dataset: dataset.name,
            scanners,
            new_findings: fresh.length,
            severity_breakdown: severityBreakdown(fresh.map((f) => f.severity)),
            findings_before: before,
            findings_after: after,
            output_dir: outDir,
            duration_s: durationSince(started),
            errors,
            next_steps: ['top_risks', "list_findings(min_severity='HIGH')", 'compliance_summary'],
          };
        },
      });
      await progress.done();
      linkDataset(ctx, value.dataset);
      return joined ? { ...value, joined: true, note: JOINED_NOTE } : value;
    },
  });
}

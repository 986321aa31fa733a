import { join } from 'node:path';
import type { LoadKind } from '../../loaders/load.js';
import type { LiveProvider } from '../engine.js';

/** The scanners `run_scanners` knows, in the reference's order. */
export const SCANNERS = ['prowler', 'scoutsuite', 'checkov', 'trivy', 'iam'] as const;
export type ScannerName = (typeof SCANNERS)[number];

/** Scanners that call cloud APIs (the preflight and the guard's scopes apply to them). */
export const CLOUD_SCANNERS: readonly ScannerName[] = ['prowler', 'scoutsuite'];

/**
 * One scanner process: the executable looked up on PATH, its argument vector (never a shell
 * line), where its output lands and how the ingest parsers read it.
 */
export interface ScanPlan {
  scanner: ScannerName;
  /** Label for `errors` (`prowler aws`, `trivy image 2`). */
  label: string;
  executable: string;
  argv: string[];
  /** File or directory the parser reads afterwards. */
  output: string;
  kind: LoadKind;
  /** Write the process's standard output to `output` (Checkov prints its JSON). */
  stdoutToOutput: boolean;
  /** Exit codes that mean "ran and found something", not a failure. */
  okCodes: readonly number[];
  /** How long one process may run before it is stopped and reported (the reference's limits). */
  timeoutSeconds: number;
}

export interface PlanInput {
  providers: readonly LiveProvider[];
  /** Azure credentials are a service principal in the environment (else the Azure CLI's sign-in). */
  azureServicePrincipal?: boolean;
  iacDir: string | null;
  images: readonly string[];
  outDir: string;
}

/**
 * The processes one scanner needs. Every caller-given value (the IaC directory, an image) is
 * the value of its own argument or after `--`, never a flag: image names starting with `-` are
 * refused before this point.
 */
export function planScanner(scanner: ScannerName, input: PlanInput): ScanPlan[] {
  const { outDir } = input;
  switch (scanner) {
    case 'prowler':
      return input.providers.map((p) => ({
        scanner,
        label: `prowler ${p}`,
        executable: 'prowler',
        argv: [
          p,
          ...(p === 'azure' ? [input.azureServicePrincipal ? '--sp-env-auth' : '--az-cli-auth'] : []),
          '--output-formats',
          'json-ocsf',
          '--output-directory',
          join(outDir, 'prowler'),
          '--output-filename',
          `prowler-${p}`,
          '--no-banner',
        ],
        output: join(outDir, 'prowler', `prowler-${p}.ocsf.json`),
        kind: 'prowler',
        stdoutToOutput: false,
        // Prowler exits 3 when some checks failed.
        okCodes: [0, 3],
        timeoutSeconds: 3600,
      }));
    case 'scoutsuite':
      return input.providers.map((p) => ({
        scanner,
        label: `scoutsuite ${p}`,
        executable: 'scout',
        argv: [
          p,
          // ScoutSuite takes a service principal's secret only as an argument, which would put
          // it in the process list: it signs in through the Azure CLI instead.
          ...(p === 'azure' ? ['--cli'] : p === 'gcp' ? ['--user-account'] : []),
          '--no-browser',
          '--report-dir',
          join(outDir, `scoutsuite-${p}`),
        ],
        output: join(outDir, `scoutsuite-${p}`),
        kind: 'scoutsuite',
        stdoutToOutput: false,
        okCodes: [0],
        timeoutSeconds: 3600,
      }));
    case 'checkov':
      if (input.iacDir === null) return [];
      return [
        {
          scanner,
          label: 'checkov',
          executable: 'checkov',
          argv: ['--directory', input.iacDir, '--output', 'json', '--quiet'],
          output: join(outDir, 'checkov.json'),
          kind: 'checkov',
          stdoutToOutput: true,
          // Checkov exits 1 when a check failed.
          okCodes: [0, 1],
          timeoutSeconds: 1800,
        },
      ];
    case 'trivy':
      return input.images.map((image, i) => ({
        scanner,
        label: `trivy image ${i + 1}`,
        executable: 'trivy',
        argv: [
          'image',
          '--format',
          'json',
          '--output',
          join(outDir, `trivy-${i + 1}.json`),
          '--quiet',
          '--',
          image,
        ],
        output: join(outDir, `trivy-${i + 1}.json`),
        kind: 'trivy',
        stdoutToOutput: false,
        okCodes: [0],
        timeoutSeconds: 1800,
      }));
    case 'iam':
      return [];
  }
}

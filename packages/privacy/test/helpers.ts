import { TokenVault, type TransformContext, type TransformReport } from '../src/index.js';

export function ctx(extra: Partial<TransformContext> = {}): TransformContext {
  return { direction: 'output', report: {} as TransformReport, ...extra };
}

export function testVault(): TokenVault {
  return new TokenVault({ key: 'docs-example-key', saveOnExit: false });
}

export const STRICT_STRATEGIES = {
  secret: 'redact',
  private_key: 'drop',
  credential: 'redact',
  identifier: 'pseudonymize',
  uuid: 'keep',
  network: 'pseudonymize',
  special_ip: 'keep',
  special_cidr: 'keep',
  pii: 'pseudonymize',
  free_text: 'pseudonymize',
  temporal: 'keep',
};

export const STANDARD_STRATEGIES = {
  secret: 'redact',
  private_key: 'drop',
  credential: { strategy: 'mask', keep_first: 4, keep_last: 4 },
};

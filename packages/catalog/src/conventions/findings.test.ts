import { beforeAll, describe, expect, it } from 'vitest';
import { sampleWorkspace } from '../../test/support/estate.js';
import type { Dataset } from '../dataset/dataset.js';
import { resolveDataset } from './dataset-arg.js';
import { resolveFindingRef } from './findings.js';

let ds: Dataset;
beforeAll(async () => {
  ds = resolveDataset(await sampleWorkspace());
});

describe('finding references', () => {
  it('resolve by id, or by a scanner id one finding has', () => {
    expect(resolveFindingRef(ds, 'f-ssh-open').id).toBe('f-ssh-open');
    expect(resolveFindingRef(ds, 'CVE-2024-1234').id).toBe('f-web-cve');
  });

  it('suggest ids containing the text on a miss', () => {
    expect(() => resolveFindingRef(ds, 'f-ssh')).toThrow(
      expect.objectContaining({
        code: -32602,
        message:
          'No finding with that id in this dataset. 1 close match is listed with this error. Use list_findings to browse finding ids.',
        data: {
          value: 'f-ssh',
          dataset: 'sample',
          suggestions: [{ finding_id: 'f-ssh-open', dataset: 'sample' }],
        },
      }),
    );
  });
});

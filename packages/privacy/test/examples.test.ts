import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jiraTicketDetector } from '../examples/detectors.examples.js';
import { redactKnown } from '../examples/identifiers.examples.js';
import { runPipeline } from '../examples/pipelines.examples.js';
import { registerUpper } from '../examples/transforms.examples.js';
import { buildPipeline, buildTransform, type Redactor, TokenVault } from '../src/index.js';

const root = join(import.meta.dirname, '..');

describe('README example', () => {
  it('redacts secrets, pseudonymises identifiers and reverses them', async () => {
    const ex = await import('../examples/redact.examples.mjs');
    const shown = ex.shown as Record<string, unknown> & {
      tags: Record<string, string>;
      metadata: Record<string, string>;
    };
    expect(shown.metadata.db_password).toBe('[REDACTED:sensitive_field]');
    expect(shown.metadata.AccessKeyId).toBe('AKIA************MPLE');
    expect(shown.metadata.ingress).toBe('0.0.0.0/0');
    expect(shown.account_id).toMatch(/^\d{12}$/);
    expect(shown.account_id).not.toBe('123456789012');
    expect(shown.arn).toMatch(/^arn:aws:ec2:us-east-1:\d{12}:instance\/i-[0-9a-f]{17}$/);
    expect(shown.arn).toContain(`:${shown.account_id}:`);
    expect(shown.name).toMatch(/^res-[0-9a-f]{10}$/);
    expect(shown.tags.Owner).toMatch(/^person-[0-9a-f]{10}$/);
    expect(shown.tags.env).toBe('prod');
    expect(ex.report).toEqual({
      pseudonymized: { resource_name: 1, aws_account_id: 1, aws_arn: 1, private_ip: 1, person: 1 },
      redacted: { sensitive_field: 1 },
      masked: { aws_access_key_id: 1 },
    });
    expect(JSON.stringify(ex.report)).not.toContain('hunter2');
    expect(ex.restored).toEqual({
      ...ex.document,
      metadata: {
        ...ex.document.metadata,
        db_password: '[REDACTED:sensitive_field]',
        AccessKeyId: 'AKIA************MPLE',
      },
    });
  });

  it('is quoted verbatim in the README', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const code = readFileSync(join(root, 'examples/redact.examples.mjs'), 'utf8');
    const block = /<!-- example: examples\/redact\.examples\.mjs -->\n```js\n([\s\S]*?)```/.exec(readme);
    expect(block?.[1]).toBe(code);
  });
});

describe('the other README snippets', () => {
  it('builds and runs a pipeline from specs with a build context', () => {
    const vault = new TokenVault({ key: 'example-key' });
    const { value, report } = runPipeline(
      { vault, detectors: [], disabledDetectors: [] },
      {
        note: 'db password=hunter2prod',
        items: Array.from({ length: 60 }, (_, i) => i),
      },
    );
    expect(JSON.stringify(value)).not.toContain('hunter2prod');
    expect((value as { items: unknown[] }).items.length).toBeLessThanOrEqual(51);
    expect(report).toHaveProperty('redacted');
  });

  it('registers a transform of your own', () => {
    registerUpper();
    expect(buildPipeline(['upper']).run('shout').value).toBe('SHOUT');
  });

  it('compiles the custom detector', () => {
    expect(jiraTicketDetector()).toMatchObject({
      name: 'jira_ticket',
      entity: 'ticket_id',
      category: 'internal',
    });
  });

  it('pseudonymises a name the application knows, wherever it stands', () => {
    const vault = new TokenVault({ key: 'example-key' });
    const redactor = buildTransform(
      { type: 'redact', options: { strategies: { identifier: 'pseudonymize' } } },
      { vault },
    ) as Redactor;
    const shown = redactKnown(redactor, { host: 'bastion', note: 'see payments-ledger-db' }) as Record<
      string,
      string
    >;
    expect(shown.host).toMatch(/^res-[0-9a-f]{10}$/);
    expect(shown.note).not.toContain('payments-ledger-db');
  });
});

// @ts-check
// Redact secrets, pseudonymise identifiers, then reverse the pseudonyms.
import { buildPipeline, Depseudonymizer, TokenVault } from '@cloudg/privacy';

// A fixed key makes pseudonyms stable across runs; keep real keys out of source control.
const vault = new TokenVault({ key: 'example-key' });

const pipeline = buildPipeline(
  [
    'sanitize',
    {
      type: 'redact',
      options: {
        strategies: {
          secret: 'redact',
          credential: { strategy: 'mask', keep_first: 4, keep_last: 4 },
          identifier: 'pseudonymize',
          network: 'pseudonymize',
          pii: 'pseudonymize',
          special_ip: 'keep',
          special_cidr: 'keep',
        },
      },
    },
  ],
  { vault },
);

export const document = {
  name: 'web-1',
  asset_type: 'EC2',
  account_id: '123456789012',
  arn: 'arn:aws:ec2:us-east-1:123456789012:instance/i-0abc1234def567890',
  private_ip: '10.0.1.5',
  tags: { Owner: 'alice@example.com', env: 'prod' },
  metadata: { db_password: 'hunter2', AccessKeyId: 'AKIAIOSFODNN7EXAMPLE', ingress: '0.0.0.0/0' },
};

export const { value: shown, report } = pipeline.run(document);
console.log(JSON.stringify(shown, null, 2));
console.log(JSON.stringify(report));

// What the model sends back is reversed on the way in; redacted secrets stay redacted.
export const restored = new Depseudonymizer({}, { vault }).apply(shown, { direction: 'input', report: {} });
console.log(JSON.stringify(restored, null, 2));

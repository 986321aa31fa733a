import { describe, expect, it } from 'vitest';
import { arnResourceParts } from './asset-matcher.js';

describe('arnResourceParts', () => {
  it.each([
    ['arn:aws:lambda:eu-west-1:123:function:api-handler', ['function:api-handler', 'api-handler']],
    ['arn:aws:ec2:eu-west-1:123:instance/i-0web1', ['instance/i-0web1', 'i-0web1']],
    ['arn:aws:iam::123:role/path/to/deployer', ['role/path/to/deployer', 'deployer']],
    ['arn:aws:s3:::bucket', ['bucket']],
    ['arn:aws:ec2:eu-west-1:123:vpc/', ['vpc/']],
    ['arn:aws:ec2:eu-west-1:123:', []],
    ['arn:aws:ec2:eu-west-1', []],
    ['not-an-arn:a:b:c:d:e', []],
  ])('%s', (arn, parts) => {
    expect(arnResourceParts(arn)).toEqual(parts);
  });
});

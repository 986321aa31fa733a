/**
 * Mocked AWS answers shaped like the AWS part of the bundled sample estate (account
 * 111111111111, us-east-1): the same VPC, subnets, groups, load balancer, instances, roles,
 * database, buckets, key, secret and function, as the real APIs return them. Every client is
 * mocked with aws-sdk-client-mock, so nothing leaves the process; any command not listed here
 * answers an empty page.
 */
import { CloudTrailClient } from '@aws-sdk/client-cloudtrail';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeInstancesCommand,
  DescribeSecurityGroupsCommand,
  DescribeSubnetsCommand,
  DescribeVpcsCommand,
  EC2Client,
  type Instance,
} from '@aws-sdk/client-ec2';
import {
  DescribeLoadBalancersCommand,
  DescribeTargetGroupsCommand,
  DescribeTargetHealthCommand,
  ElasticLoadBalancingV2Client,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { GetDetectorCommand, GuardDutyClient, ListDetectorsCommand } from '@aws-sdk/client-guardduty';
import { GetAccountAuthorizationDetailsCommand, IAMClient } from '@aws-sdk/client-iam';
import { DescribeKeyCommand, KMSClient, ListAliasesCommand, ListKeysCommand } from '@aws-sdk/client-kms';
import { GetPolicyCommand, LambdaClient, ListFunctionsCommand } from '@aws-sdk/client-lambda';
import { OrganizationsClient } from '@aws-sdk/client-organizations';
import { DescribeDBInstancesCommand, RDSClient } from '@aws-sdk/client-rds';
import {
  GetBucketEncryptionCommand,
  GetBucketNotificationConfigurationCommand,
  GetBucketPolicyStatusCommand,
  ListBucketsCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { ListSecretsCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { type AwsStub, mockClient } from 'aws-sdk-client-mock';

export const ACCOUNT = '111111111111';
export const REGION = 'us-east-1';
const arn = (service: string, resource: string) => `arn:aws:${service}:${REGION}:${ACCOUNT}:${resource}`;
export const KEY_ARN = arn('kms', 'key/1111-2222');
const SECRET_ARN = arn('secretsmanager', 'secret:orders-db-credentials-AbC');
const LB_ARN = arn('elasticloadbalancing', 'loadbalancer/app/web-alb/abc');
const TG_ARN = arn('elasticloadbalancing', 'targetgroup/web-tg/def');
const FUNCTION_ARN = arn('lambda', 'function:api-handler');

/** Test credentials: no SDK ever looks for real ones (environment, files, instance metadata). */
export const FAKE_CREDENTIALS = { accessKeyId: 'AKIAEXAMPLEEXAMPLE00', secretAccessKey: 'not-a-real-secret' };

// Mock stubs have client-specific generic parameters; the tests only call on()/reset() on them.
// biome-ignore lint/suspicious/noExplicitAny: see above
type AnyStub = AwsStub<any, any, any>;

export interface AwsMocks {
  ec2: AnyStub;
  elb: AnyStub;
  iam: AnyStub;
  s3: AnyStub;
  rds: AnyStub;
  lambda: AnyStub;
  kms: AnyStub;
  secrets: AnyStub;
  guardduty: AnyStub;
  organizations: AnyStub;
  cloudtrail: AnyStub;
  dynamodb: AnyStub;
  sts: AnyStub;
  restore(): void;
}

/** Every client mocked, answering empty pages, with the caller identity of the sample account. */
export function emptyAwsMocks(): AwsMocks {
  const mocks = {
    ec2: mockClient(EC2Client),
    elb: mockClient(ElasticLoadBalancingV2Client),
    iam: mockClient(IAMClient),
    s3: mockClient(S3Client),
    rds: mockClient(RDSClient),
    lambda: mockClient(LambdaClient),
    kms: mockClient(KMSClient),
    secrets: mockClient(SecretsManagerClient),
    guardduty: mockClient(GuardDutyClient),
    organizations: mockClient(OrganizationsClient),
    cloudtrail: mockClient(CloudTrailClient),
    dynamodb: mockClient(DynamoDBClient),
    sts: mockClient(STSClient),
  };
  for (const m of Object.values(mocks) as AnyStub[]) m.onAnyCommand().resolves({});
  mocks.sts
    .on(GetCallerIdentityCommand)
    .resolves({ Account: ACCOUNT, Arn: `arn:aws:iam::${ACCOUNT}:user/auditor` });
  return {
    ...(mocks as unknown as Omit<AwsMocks, 'restore'>),
    restore: () => {
      for (const m of Object.values(mocks) as AnyStub[]) m.restore();
    },
  };
}

const policy = (statements: unknown[]) =>
  encodeURIComponent(JSON.stringify({ Version: '2012-10-17', Statement: statements }));
const ec2Trust = policy([
  { Effect: 'Allow', Principal: { Service: 'ec2.amazonaws.com' }, Action: 'sts:AssumeRole' },
]);

/** The sample estate's AWS account, as the APIs would describe it. */
export function sampleAwsMocks(): AwsMocks {
  const m = emptyAwsMocks();
  m.ec2.on(DescribeVpcsCommand).resolves({
    Vpcs: [{ VpcId: 'vpc-0prod', CidrBlock: '10.0.0.0/16', Tags: [{ Key: 'Name', Value: 'prod-vpc' }] }],
  });
  m.ec2.on(DescribeSubnetsCommand).resolves({
    Subnets: [
      {
        SubnetId: 'subnet-0pub',
        VpcId: 'vpc-0prod',
        CidrBlock: '10.0.0.0/24',
        MapPublicIpOnLaunch: true,
        Tags: [{ Key: 'Name', Value: 'prod-public-a' }],
      },
      {
        SubnetId: 'subnet-0priv',
        VpcId: 'vpc-0prod',
        CidrBlock: '10.0.1.0/24',
        Tags: [{ Key: 'Name', Value: 'prod-private-a' }],
      },
    ],
  });
  const world = (port: number) => ({
    IpProtocol: 'tcp',
    FromPort: port,
    ToPort: port,
    IpRanges: [{ CidrIp: '0.0.0.0/0' }],
  });
  m.ec2.on(DescribeSecurityGroupsCommand).resolves({
    SecurityGroups: [
      { GroupId: 'sg-0web', GroupName: 'sg-web', VpcId: 'vpc-0prod', IpPermissions: [world(443), world(80)] },
      { GroupId: 'sg-0admin', GroupName: 'sg-admin', VpcId: 'vpc-0prod', IpPermissions: [world(22)] },
      { GroupId: 'sg-0app', GroupName: 'sg-app', VpcId: 'vpc-0prod', IpPermissions: [] },
      {
        GroupId: 'sg-0db',
        GroupName: 'sg-db',
        VpcId: 'vpc-0prod',
        IpPermissions: [
          { IpProtocol: 'tcp', FromPort: 5432, ToPort: 5432, UserIdGroupPairs: [{ GroupId: 'sg-0app' }] },
        ],
      },
    ],
  });
  const instance = (
    id: string,
    name: string,
    subnet: string,
    sg: string,
    profile: string,
    extra: Record<string, unknown> = {},
  ): Instance => ({
    InstanceId: id,
    InstanceType: 't3.large',
    SubnetId: subnet,
    VpcId: 'vpc-0prod',
    State: { Name: 'running' },
    SecurityGroups: [{ GroupId: sg }],
    IamInstanceProfile: { Arn: `arn:aws:iam::${ACCOUNT}:instance-profile/${profile}` },
    MetadataOptions: { HttpTokens: 'optional' as const },
    Tags: [{ Key: 'Name', Value: name }],
    ...extra,
  });
  // Two pages: the collector must follow NextToken.
  m.ec2
    .on(DescribeInstancesCommand, { NextToken: undefined })
    .resolves({
      Reservations: [
        {
          Instances: [
            instance('i-0web1', 'web-1', 'subnet-0priv', 'sg-0app', 'app-profile'),
            instance('i-0web2', 'web-2', 'subnet-0priv', 'sg-0app', 'app-profile'),
          ],
        },
      ],
      NextToken: 'page-2',
    })
    .on(DescribeInstancesCommand, { NextToken: 'page-2' })
    .resolves({
      Reservations: [
        {
          Instances: [
            instance('i-0bast', 'bastion', 'subnet-0pub', 'sg-0admin', 'bastion-profile', {
              PublicIpAddress: '203.0.113.10',
            }),
          ],
        },
      ],
    });

  m.elb.on(DescribeLoadBalancersCommand).resolves({
    LoadBalancers: [
      {
        LoadBalancerArn: LB_ARN,
        LoadBalancerName: 'web-alb',
        Scheme: 'internet-facing',
        Type: 'application',
        DNSName: 'web-alb-1.us-east-1.elb.amazonaws.com',
        VpcId: 'vpc-0prod',
        AvailabilityZones: [{ ZoneName: 'us-east-1a', SubnetId: 'subnet-0pub' }],
        SecurityGroups: ['sg-0web'],
      },
    ],
  });
  m.elb.on(DescribeTargetGroupsCommand).resolves({
    TargetGroups: [
      {
        TargetGroupArn: TG_ARN,
        TargetGroupName: 'web-tg',
        TargetType: 'instance',
        Protocol: 'HTTP',
        Port: 80,
        VpcId: 'vpc-0prod',
        LoadBalancerArns: [LB_ARN],
      },
    ],
  });
  m.elb.on(DescribeTargetHealthCommand).resolves({
    TargetHealthDescriptions: [
      { Target: { Id: 'i-0web1', Port: 80 }, TargetHealth: { State: 'healthy' } },
      { Target: { Id: 'i-0web2', Port: 80 }, TargetHealth: { State: 'healthy' } },
    ],
  });

  m.iam.on(GetAccountAuthorizationDetailsCommand).resolves({
    IsTruncated: false,
    RoleDetailList: [
      {
        RoleName: 'app-role',
        Arn: `arn:aws:iam::${ACCOUNT}:role/app-role`,
        AssumeRolePolicyDocument: ec2Trust,
        InstanceProfileList: [
          {
            InstanceProfileName: 'app-profile',
            Arn: `arn:aws:iam::${ACCOUNT}:instance-profile/app-profile`,
            Path: '/',
            InstanceProfileId: 'AIPA1',
            CreateDate: new Date(0),
            Roles: [],
          },
        ],
        RolePolicyList: [
          {
            PolicyName: 'app',
            PolicyDocument: policy([
              { Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::prod-data/*' },
              {
                Effect: 'Allow',
                Action: 'rds-db:connect',
                Resource: `arn:aws:rds-db:${REGION}:${ACCOUNT}:dbuser:db-ORDERS/app`,
              },
              {
                Effect: 'Allow',
                Action: 'sts:AssumeRole',
                Resource: 'arn:aws:iam::222222222222:role/deploy-role',
              },
            ]),
          },
        ],
      },
      {
        RoleName: 'bastion-admin',
        Arn: `arn:aws:iam::${ACCOUNT}:role/bastion-admin`,
        AssumeRolePolicyDocument: ec2Trust,
        InstanceProfileList: [
          {
            InstanceProfileName: 'bastion-profile',
            Arn: `arn:aws:iam::${ACCOUNT}:instance-profile/bastion-profile`,
            Path: '/',
            InstanceProfileId: 'AIPA2',
            CreateDate: new Date(0),
            Roles: [],
          },
        ],
        RolePolicyList: [
          {
            PolicyName: 'secrets',
            PolicyDocument: policy([
              { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: SECRET_ARN },
            ]),
          },
        ],
      },
      {
        RoleName: 'api-lambda-role',
        Arn: `arn:aws:iam::${ACCOUNT}:role/api-lambda-role`,
        AssumeRolePolicyDocument: policy([
          { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
        ]),
        RolePolicyList: [
          {
            PolicyName: 'secrets',
            PolicyDocument: policy([
              { Effect: 'Allow', Action: 'secretsmanager:GetSecretValue', Resource: SECRET_ARN },
            ]),
          },
        ],
      },
    ],
  });

  m.rds.on(DescribeDBInstancesCommand).resolves({
    DBInstances: [
      {
        DBInstanceIdentifier: 'orders-db',
        DBInstanceArn: arn('rds', 'db:orders-db'),
        DbiResourceId: 'db-ORDERS',
        Engine: 'postgres',
        BackupRetentionPeriod: 1,
        StorageEncrypted: true,
        KmsKeyId: KEY_ARN,
        PubliclyAccessible: false,
        IAMDatabaseAuthenticationEnabled: true,
        DBSubnetGroup: { Subnets: [{ SubnetIdentifier: 'subnet-0priv' }] },
        VpcSecurityGroups: [{ VpcSecurityGroupId: 'sg-0db', Status: 'active' }],
      },
    ],
  });

  m.s3.on(ListBucketsCommand).resolves({ Buckets: [{ Name: 'prod-data' }, { Name: 'prod-logs' }] });
  m.s3
    .on(GetBucketPolicyStatusCommand, { Bucket: 'prod-logs' })
    .resolves({ PolicyStatus: { IsPublic: true } });
  m.s3.on(GetBucketEncryptionCommand, { Bucket: 'prod-data' }).resolves({
    ServerSideEncryptionConfiguration: {
      Rules: [{ ApplyServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: KEY_ARN } }],
    },
  });
  m.s3.on(GetBucketNotificationConfigurationCommand, { Bucket: 'prod-data' }).resolves({
    LambdaFunctionConfigurations: [{ LambdaFunctionArn: FUNCTION_ARN, Events: ['s3:ObjectCreated:*'] }],
  });

  m.kms.on(ListKeysCommand).resolves({ Keys: [{ KeyId: '1111-2222', KeyArn: KEY_ARN }] });
  m.kms.on(ListAliasesCommand).resolves({
    Aliases: [
      {
        AliasName: 'alias/prod-main-key',
        AliasArn: arn('kms', 'alias/prod-main-key'),
        TargetKeyId: '1111-2222',
      },
    ],
  });
  m.kms
    .on(DescribeKeyCommand)
    .resolves({ KeyMetadata: { KeyId: '1111-2222', KeyManager: 'CUSTOMER', KeyState: 'Enabled' } });

  m.secrets
    .on(ListSecretsCommand)
    .resolves({ SecretList: [{ ARN: SECRET_ARN, Name: 'orders-db-credentials', KmsKeyId: KEY_ARN }] });

  m.lambda.on(ListFunctionsCommand).resolves({
    Functions: [
      {
        FunctionName: 'api-handler',
        FunctionArn: FUNCTION_ARN,
        Runtime: 'python3.8',
        Role: `arn:aws:iam::${ACCOUNT}:role/api-lambda-role`,
        KMSKeyArn: KEY_ARN,
        Environment: { Variables: { DB_SECRET: SECRET_ARN, DB_PASSWORD: 'hunter2' } },
      },
    ],
  });
  const notFound = Object.assign(new Error('The resource you requested does not exist.'), {
    name: 'ResourceNotFoundException',
  });
  m.lambda.on(GetPolicyCommand).rejects(notFound);

  m.guardduty.on(ListDetectorsCommand).resolves({ DetectorIds: ['d1'] });
  m.guardduty
    .on(GetDetectorCommand)
    .resolves({ Status: 'ENABLED', ServiceRole: 'x', UpdatedAt: 'x', CreatedAt: 'x' } as never);
  return m;
}

import { CloudTrailClient } from '@aws-sdk/client-cloudtrail';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { EC2Client } from '@aws-sdk/client-ec2';
import { ElasticLoadBalancingV2Client } from '@aws-sdk/client-elastic-load-balancing-v2';
import { GuardDutyClient } from '@aws-sdk/client-guardduty';
import { IAMClient } from '@aws-sdk/client-iam';
import { KMSClient } from '@aws-sdk/client-kms';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { OrganizationsClient } from '@aws-sdk/client-organizations';
import { RDSClient } from '@aws-sdk/client-rds';
import { S3Client } from '@aws-sdk/client-s3';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { STSClient } from '@aws-sdk/client-sts';

/** Static or temporary credentials handed to every client; absent = the SDK's default chain. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** How clients are built: region aside, the same for every service. */
export interface AwsClientSettings {
  credentials?: AwsCredentials;
  /** A named profile of the shared config files (the SDK reads it itself). */
  profile?: string;
  /** An endpoint for every client (a local stand-in); tests use aws-sdk-client-mock instead. */
  endpoint?: string;
}

const CONSTRUCTORS = {
  cloudtrail: CloudTrailClient,
  dynamodb: DynamoDBClient,
  ec2: EC2Client,
  elasticloadbalancing: ElasticLoadBalancingV2Client,
  guardduty: GuardDutyClient,
  iam: IAMClient,
  kms: KMSClient,
  lambda: LambdaClient,
  organizations: OrganizationsClient,
  rds: RDSClient,
  s3: S3Client,
  secretsmanager: SecretsManagerClient,
  sts: STSClient,
} as const;

export type AwsServiceName = keyof typeof CONSTRUCTORS;
export type AwsClientOf<S extends AwsServiceName> = InstanceType<(typeof CONSTRUCTORS)[S]>;

/**
 * One client per service and region, built on first use and reused for the run. Retries are off
 * in the SDK (`maxAttempts: 1`) because the governor retries, counts and paces every call; two
 * retry loops would multiply attempts and hide throttling from coverage.
 */
export class AwsClients {
  readonly #cache = new Map<string, unknown>();

  constructor(private readonly settings: AwsClientSettings = {}) {}

  get<S extends AwsServiceName>(service: S, region: string): AwsClientOf<S> {
    const key = `${service}/${region}`;
    const cached = this.#cache.get(key);
    if (cached) return cached as AwsClientOf<S>;
    const Ctor = CONSTRUCTORS[service] as unknown as new (config: Record<string, unknown>) => AwsClientOf<S>;
    const config: Record<string, unknown> = { region, maxAttempts: 1 };
    if (this.settings.credentials) config.credentials = this.settings.credentials;
    if (this.settings.profile) config.profile = this.settings.profile;
    if (this.settings.endpoint) config.endpoint = this.settings.endpoint;
    if (service === 's3' && this.settings.endpoint) config.forcePathStyle = true;
    const client = new Ctor(config);
    this.#cache.set(key, client);
    return client;
  }

  destroy(): void {
    for (const client of this.#cache.values()) (client as { destroy(): void }).destroy();
    this.#cache.clear();
  }
}

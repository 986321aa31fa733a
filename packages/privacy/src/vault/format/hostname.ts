/**
 * Hostnames. Under a known cloud suffix the region and service labels stay readable and each
 * other label becomes its own `h-<10 hex>` pseudonym (entity `hostname_label`, registered alone
 * so it can be reversed inside longer text). Any other hostname becomes `host-<8 hex>.example`.
 */
import type { FormatContext } from './context.js';
import { hexChars } from './encode.js';
import { formatGeneric } from './simple.js';

/** Longest first, so `compute.internal` wins over `internal`. */
const CLOUD_SUFFIXES = [
  'amazonaws.com.cn',
  'amazonaws.com',
  'api.aws',
  'on.aws',
  'cloudfront.net',
  'awsglobalaccelerator.com',
  'awsapps.com',
  'elasticbeanstalk.com',
  'azurewebsites.net',
  'windows.net',
  'azure.net',
  'azure.com',
  'azurecr.io',
  'azureedge.net',
  'azurefd.net',
  'azure-api.net',
  'cloudapp.net',
  'trafficmanager.net',
  'azurestaticapps.net',
  'googleapis.com',
  'run.app',
  'appspot.com',
  'cloudfunctions.net',
  'pkg.dev',
  'gcr.io',
  'goog',
  'compute.internal',
  'ec2.internal',
  'cluster.local',
  'internal',
].sort((a, b) => b.length - a.length);

const DOTTED_SUFFIXES = CLOUD_SUFFIXES.map((s) => `.${s}`);

/** Labels naming a cloud service or endpoint role rather than a customer resource. */
const SERVICE_LABELS = new Set([
  'elb',
  'rds',
  's3',
  's3-website',
  's3-accesspoint',
  's3-control',
  'dualstack',
  'ec2',
  'compute',
  'execute-api',
  'lambda-url',
  'cache',
  'es',
  'aos',
  'kafka',
  'vpce',
  'blob',
  'file',
  'queue',
  'table',
  'dfs',
  'web',
  'core',
  'database',
  'vault',
  'servicebus',
  'documents',
  'redis',
  'scm',
  'cloudapp',
  'privatelink',
  'sql',
  'sqs',
  'sns',
  'dynamodb',
  'kms',
  'secretsmanager',
  'sts',
  'iam',
  'logs',
  'monitoring',
  'ecr',
  'dkr',
  'api',
  'apigateway',
  'lambda',
  'eks',
  'ecs',
  'elasticache',
  'cfg',
  'storage',
  'www',
  'cloudfunctions',
  'run',
  'global',
  'regional',
  'svc',
  'pod',
  'mysql',
  'postgres',
  'mariadb',
  'cosmos',
  'documents-azure',
  'search',
  'openai',
  'cognitiveservices',
  'management',
  'login',
  'graph',
  'z1',
  'z2',
  'z3',
  'auth',
  'cognito-idp',
  'appsync-api',
  'mq',
  'fips',
  'google',
  'metadata',
  'amazonaws',
]);

const AWS_REGION = /^(?:us|eu|ap|sa|ca|me|af|il|mx|cn|us-gov|us-iso|us-isob|eusc)-[a-z]+-\d[a-z]?$/;
const GCP_REGION = /^[a-z]+-[a-z]+\d(?:-[a-z])?$/;
const AZURE_REGION =
  /^(?:east|west|north|south|central|northcentral|southcentral|westcentral|)(?:us|europe|asia|india|uk|japan|australia|brazil|canada|france|germany|norway|switzerland|uae|korea|sweden|qatar|poland|italy|israel|mexico|spain|africa|newzealand)(?:east|west|north|south|central|southeast|northeast)?\d?$/;

/** Legacy EC2 public DNS zones (`compute-1`). */
const EC2_ZONE = /^compute-\d$/;

function keepsLabel(label: string): boolean {
  const l = label.toLowerCase();
  // A one-character label (`a.run.app`) names nothing.
  if (l.length === 1) return true;
  return (
    SERVICE_LABELS.has(l) ||
    AWS_REGION.test(l) ||
    GCP_REGION.test(l) ||
    AZURE_REGION.test(l) ||
    EC2_ZONE.test(l)
  );
}

const HOSTNAME =
  /^(?=.{1,253}\.?$)[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62})(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,62}))*\.?$/;

/** The known cloud suffix the hostname ends with, or undefined. */
export function cloudSuffixOf(host: string): string | undefined {
  const lower = host.toLowerCase().replace(/\.$/, '');
  for (let i = 0; i < CLOUD_SUFFIXES.length; i++) {
    const s = CLOUD_SUFFIXES[i]!;
    if (lower === s || lower.endsWith(DOTTED_SUFFIXES[i]!)) return s;
  }
  return undefined;
}

export function formatHostname(value: string, entity: string, ctx: FormatContext): string | null {
  if (!HOSTNAME.test(value)) return formatGeneric(value, entity, ctx);
  const trailingDot = value.endsWith('.') ? '.' : '';
  const host = trailingDot ? value.slice(0, -1) : value;
  const suffix = cloudSuffixOf(host);
  if (suffix === undefined)
    return `host-${hexChars(ctx.digest(entity, host.toLowerCase()), 8)}.example${trailingDot}`;
  const labels = host.slice(0, host.length - suffix.length).split('.');
  labels.pop(); // the empty string before the suffix's dot (or the whole value when equal)
  let changed = false;
  const out = labels.map((label) => {
    if (label === '' || keepsLabel(label)) return label;
    changed = true;
    return ctx.sub(label, 'hostname_label');
  });
  if (!changed) return null;
  return `${[...out, host.slice(host.length - suffix.length)].join('.')}${trailingDot}`;
}

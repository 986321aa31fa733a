/**
 * ARNs, rebuilt component by component so that each component has its own mapping: the ARN's
 * account equals the account's own pseudonym, and an ARN never issued whole can still be
 * reversed piece by piece.
 */
import type { FormatContext } from './context.js';
import { formatGeneric, isPlaceholder } from './simple.js';

const ARN = /^arn:([^:]*):([^:]*):([^:]*):([^:]*):(.*)$/s;
const SHORT_NUMBER = /^\d{1,5}$/;
const ACCOUNT = /^\d{12}$/;

/** Split a resource part on `/` and `:`, keeping the separators at odd indexes. */
export function splitResource(resource: string): string[] {
  return resource.split(/([/:])/);
}

export function isArn(value: string): boolean {
  return ARN.test(value);
}

export function formatArn(value: string, entity: string, ctx: FormatContext): string | null {
  const m = ARN.exec(value);
  if (!m) return formatGeneric(value, entity, ctx);
  const [, partition, service, region, account, resource] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const accountOut = ACCOUNT.test(account) ? ctx.sub(account, 'aws_account_id') : account;
  const parts = splitResource(resource);
  const segments = (parts.length + 1) / 2;
  // The first segment is the resource type unless it is all there is, or the service is S3.
  const keepFirst = segments > 1 && service !== 's3';
  for (let i = 0; i < parts.length; i += 2) {
    const seg = parts[i]!;
    if (i === 0 && keepFirst) continue;
    if (isPlaceholder(seg) || (i > 0 && SHORT_NUMBER.test(seg))) continue;
    parts[i] = ACCOUNT.test(seg) ? ctx.sub(seg, 'aws_account_id') : ctx.sub(seg, 'resource_name');
  }
  const out = `arn:${partition}:${service}:${region}:${accountOut}:${parts.join('')}`;
  return out === value ? null : out;
}

import type { CloudAsset } from '@cloudg/catalog';
import { isDenied } from '../coverage.js';
import { errorCode } from '../governor/classify.js';
import { buildAsset } from '../model/asset-builder.js';
import type { AwsTaskContext } from './context.js';

/**
 * The node a security service gets in a region where it is not enabled, or where the caller may
 * not see whether it is (INVENTORY_REFERENCE.md 3.3; site/guides/inventory-mapping.md: "when one
 * is not enabled (or access to it is denied) the node carries enabled: false"), so a detection
 * gap shows on the map and in `security_coverage` instead of being absent.
 */
export function notEnabled(
  ctx: AwsTaskContext,
  service: string,
  label: string,
  assetType: string,
  status = 'not enabled',
): CloudAsset {
  return buildAsset({
    arn: `cloudg:aws:${service}:${ctx.region}:${ctx.account}:not-enabled`,
    name: `${label} (${status})`,
    asset_type: assetType,
    provider: 'AWS',
    region: ctx.region,
    account_id: ctx.account,
    metadata: { security_service: service, enabled: false, status },
    aliases: [`aws-security:${service}:${ctx.region}:${ctx.account}`],
  });
}

/**
 * Run a security service's listing; when it is denied, the service's node says so (`enabled:
 * false`, status `access denied`) and the task is PARTIAL with the error code, rather than
 * FAILED with no node. Any other failure is the task's.
 */
export async function orDenied(
  ctx: AwsTaskContext,
  service: string,
  label: string,
  assetType: string,
  collect: () => Promise<CloudAsset[]>,
): Promise<CloudAsset[]> {
  try {
    return await collect();
  } catch (error) {
    if (ctx.signal.aborted || !isDenied(error)) throw error;
    ctx.partial(`${service}: ${errorCode(error)}`);
    return [notEnabled(ctx, service, label, assetType, 'access denied')];
  }
}

/** Which formatter an entity type uses. Unknown entities get the generic `<prefix>-<10 hex>`. */
import { formatArn } from './arn.js';
import { formatAzureResourceId } from './azure.js';
import { formatCloudgUri } from './cloudg-uri.js';
import type { Formatter } from './context.js';
import { formatEmail } from './email.js';
import { formatGcpProjectId, formatGcpResourceName } from './gcp.js';
import { formatHostname } from './hostname.js';
import { formatIpValue } from './ip.js';
import {
  formatAccessKey,
  formatDigits,
  formatGeneric,
  formatGuid,
  formatMac,
  formatResourceName,
} from './simple.js';

const ipFormatter: Formatter = (value, entity, ctx) => {
  const out = formatIpValue(value, ctx);
  return out === undefined ? formatGeneric(value, entity, ctx) : out;
};

const FORMATTERS: Readonly<Record<string, Formatter>> = {
  aws_account_id: formatDigits,
  gcp_project_number: formatDigits,
  gcp_organization_id: formatDigits,
  gcp_folder_id: formatDigits,
  number: formatDigits,
  azure_subscription_id: formatGuid,
  azure_tenant_id: formatGuid,
  uuid: formatGuid,
  aws_arn: formatArn,
  azure_resource_id: formatAzureResourceId,
  gcp_resource_name: formatGcpResourceName,
  gcp_project_id: formatGcpProjectId,
  email: formatEmail,
  hostname: formatHostname,
  cloudg_uri: formatCloudgUri,
  resource_name: formatResourceName,
  aws_access_key_id: formatAccessKey,
  aws_unique_id: formatAccessKey,
  mac_address: formatMac,
  ip_address: ipFormatter,
  private_ip: ipFormatter,
  public_ip: ipFormatter,
  special_ip: ipFormatter,
  cidr: ipFormatter,
  private_cidr: ipFormatter,
  public_cidr: ipFormatter,
  special_cidr: ipFormatter,
  ipv4: ipFormatter,
  ipv6: ipFormatter,
};

const BY_ENTITY = new Map<string, Formatter>(Object.entries(FORMATTERS));

export function formatterFor(entity: string): Formatter {
  return BY_ENTITY.get(entity) ?? formatGeneric;
}

/** Entity types with a dedicated format (others use the generic one). */
export const FORMATTED_ENTITIES: readonly string[] = Object.keys(FORMATTERS);

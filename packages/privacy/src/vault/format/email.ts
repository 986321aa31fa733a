/**
 * E-mail addresses. The domain is pseudonymised on its own (`d-<10 hex>`, entity
 * `email_domain`) and `.example` appended, so every user of one domain shares it. GCP service
 * accounts keep their shape: the project becomes its project pseudonym, numeric parts become
 * same-length numbers, Google-owned domains stay.
 */
import type { FormatContext } from './context.js';
import { hexChars } from './encode.js';
import { formatGeneric } from './simple.js';

const EMAIL = /^([^@\s]+)@([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)$/;
const SA_DOMAIN = /^(.+)\.iam\.gserviceaccount\.com$/i;
const NUMERIC_LOCAL = /^([a-z-]*?)(\d{5,})(-[A-Za-z0-9-]*)?$/;

function numericLocal(local: string, ctx: FormatContext): string | null {
  const m = NUMERIC_LOCAL.exec(local);
  if (!m) return null;
  return `${m[1]}${ctx.sub(m[2]!, 'gcp_project_number')}${m[3] ?? ''}`;
}

function serviceAccount(local: string, domain: string, full: string, ctx: FormatContext): string | null {
  const lower = domain.toLowerCase();
  if (!lower.endsWith('gserviceaccount.com')) return null;
  const sa = SA_DOMAIN.exec(domain);
  const saLocal = () => numericLocal(local, ctx) ?? `sa-${hexChars(ctx.digest('email', full), 8)}`;
  if (sa) {
    const project = sa[1]!;
    // gcp-sa-* domains belong to Google service agents, not to the customer's project.
    const domainOut = project.startsWith('gcp-sa-')
      ? domain
      : `${ctx.sub(project, 'gcp_project_id')}.iam.gserviceaccount.com`;
    return `${saLocal()}@${domainOut}`;
  }
  if (lower === 'appspot.gserviceaccount.com') return `${ctx.sub(local, 'gcp_project_id')}@${domain}`;
  return `${saLocal()}@${domain}`;
}

export function formatEmail(value: string, entity: string, ctx: FormatContext): string {
  const m = EMAIL.exec(value);
  if (!m) return formatGeneric(value, entity, ctx);
  const [, local, domain] = m as unknown as [string, string, string];
  const sa = serviceAccount(local, domain, value, ctx);
  if (sa !== null) return sa;
  const user = `user-${hexChars(ctx.digest(entity, value), 8)}`;
  return `${user}@${ctx.sub(domain.toLowerCase(), 'email_domain')}.example`;
}

import type { CloudAsset, NetworkEdge } from '@cloudg/catalog';
import { errorCode } from '../governor/classify.js';
import { buildAsset } from '../model/asset-builder.js';
import type { GcpIamPolicy, GcpServiceAccount } from './iam-api.js';
import { PolicyBinder } from './principals.js';
import { markPublic } from './public-access.js';
import { type GcpTask, listPages } from './tasks.js';

/** The full resource name of a service account, as Cloud Asset Inventory names it. */
export const serviceAccountName = (project: string, email: string) =>
  `//iam.googleapis.com/projects/${project}/serviceAccounts/${email}`;

/**
 * The project's service accounts, each with its own IAM policy. A member granted an
 * impersonation role on an account (token creator, service account user, workload identity
 * user) `ASSUMES_ROLE` it; other roles are grants on it (INVENTORY_INTERNALS.md 9.5). The account
 * is known by every identifier a reference may use (its email, `serviceAccount:<email>`, the
 * `gcp-principal:` form of a binding member, relative names), so instances that run as it and
 * policies that name it link to this asset. A policy the caller may not read keeps the account,
 * without its grants, and makes the task PARTIAL.
 */
export const gcpServiceAccountsTask: GcpTask = {
  name: 'gcp_service_accounts',
  async run(ctx) {
    const api = ctx.iam();
    const accounts = await listPages<GcpServiceAccount>(ctx, 'iam', async (pageToken) => {
      const page = await api.listServiceAccounts(ctx.project, pageToken, ctx.signal);
      return [page.accounts ?? [], page.nextPageToken ? { pageToken: page.nextPageToken } : null, page];
    });
    const assets = accounts.flatMap((account) => {
      const asset = serviceAccountAsset(ctx.project, account);
      return asset ? [asset] : [];
    });
    const binder = new PolicyBinder([...ctx.collected, ...assets]);
    const edges: NetworkEdge[] = [];
    for (const asset of assets) {
      ctx.signal.throwIfAborted();
      const email = String(asset.metadata.email);
      let policy: GcpIamPolicy | null = null;
      try {
        policy = await ctx.call('iam', (signal) =>
          api.getServiceAccountIamPolicy(ctx.project, email, signal),
        );
      } catch (error) {
        if (ctx.signal.aborted) throw error;
        ctx.partial(`getIamPolicy ${email}: ${errorCode(error)}`);
      }
      asset.metadata.iam_policy_read = policy !== null;
      const open = binder.bind(asset.arn ?? '', policy?.bindings, { serviceAccount: true });
      edges.push(...markPublic(asset, open, 'service account IAM policy'));
    }
    return { assets: [...assets, ...binder.finish()], edges };
  },
};

function serviceAccountAsset(project: string, account: GcpServiceAccount): CloudAsset | null {
  const email = account.email;
  if (!email) return null;
  const home = account.projectId || project;
  return buildAsset({
    arn: serviceAccountName(home, email),
    name: email,
    asset_type: 'SERVICE_ACCOUNT',
    provider: 'GCP',
    region: 'global',
    account_id: home,
    metadata: {
      email,
      display_name: account.displayName || undefined,
      unique_id: account.uniqueId,
      disabled: account.disabled ?? false,
      principal_type: 'serviceAccount',
    },
    aliases: [
      email,
      `serviceAccount:${email}`,
      `gcp-principal:serviceAccount:${email}`,
      `projects/${home}/serviceAccounts/${email}`,
      `projects/-/serviceAccounts/${email}`,
      ...(account.uniqueId
        ? [`//iam.googleapis.com/projects/${home}/serviceAccounts/${account.uniqueId}`]
        : []),
    ],
  });
}

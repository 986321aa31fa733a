import type { AuthClient, GoogleAuth } from 'google-auth-library';
import { googleJson } from './json-api.js';

/**
 * The IAM API's service-account reads (`iam.googleapis.com/v1`). No official `@google-cloud`
 * client covers them (`@google-cloud/iam` serves deny policies and the troubleshooter), so they go
 * through the collector's own signed JSON requests, as Cloud Storage does. The shapes are the
 * API's documented resources.
 */
export interface GcpServiceAccount {
  name?: string;
  projectId?: string;
  uniqueId?: string;
  email?: string;
  displayName?: string;
  description?: string;
  disabled?: boolean;
  oauth2ClientId?: string;
}

export interface GcpServiceAccountList {
  accounts?: GcpServiceAccount[];
  nextPageToken?: string;
}

export interface GcpIamPolicy {
  bindings?: { role?: string; members?: string[]; condition?: { title?: string } | null }[];
}

export const IAM_ENDPOINT = 'https://iam.googleapis.com';

/** An email as a path segment: `@` stays readable (Google's own clients send it so), the rest is escaped. */
const segment = (email: string) => encodeURIComponent(email).replace(/%40/g, '@');

export class IamJsonApi {
  constructor(
    private readonly base: string,
    private readonly auth: AuthClient | GoogleAuth | null,
  ) {}

  listServiceAccounts(
    project: string,
    pageToken: string | undefined,
    signal: AbortSignal,
  ): Promise<GcpServiceAccountList> {
    return googleJson(
      this.base,
      this.auth,
      {
        path: `/v1/projects/${encodeURIComponent(project)}/serviceAccounts`,
        query: { pageSize: '100', ...(pageToken ? { pageToken } : {}) },
      },
      signal,
    );
  }

  /** `getIamPolicy` is a POST in the IAM API, but a read: it changes nothing. */
  getServiceAccountIamPolicy(project: string, email: string, signal: AbortSignal): Promise<GcpIamPolicy> {
    return googleJson(
      this.base,
      this.auth,
      {
        method: 'POST',
        path: `/v1/projects/${encodeURIComponent(project)}/serviceAccounts/${segment(email)}:getIamPolicy`,
        body: { options: { requestedPolicyVersion: 3 } },
      },
      signal,
    );
  }
}

import type { AuthClient, GoogleAuth } from 'google-auth-library';
import { googleJson, standInBase } from './json-api.js';

/**
 * The Cloud Storage JSON API, the two reads the collector needs, through the collector's own
 * google-auth-library client. Why not `@google-cloud/storage`: its 8.x releases require Node 22,
 * and 7.x is built on google-auth-library 9, whose request signing does not accept the v10 auth
 * clients every other Google client here uses (v10 returns `Headers`, v9 copies plain objects),
 * so an injected credential would silently send unauthenticated requests. The JSON API is the
 * one that library calls; the shapes below are its documented resources.
 */
export interface GcsBucket {
  name?: string;
  id?: string;
  location?: string;
  locationType?: string;
  storageClass?: string;
  projectNumber?: string;
  timeCreated?: string;
  labels?: Record<string, string>;
  iamConfiguration?: {
    uniformBucketLevelAccess?: { enabled?: boolean; lockedTime?: string };
    publicAccessPrevention?: string;
  };
  encryption?: { defaultKmsKeyName?: string };
  versioning?: { enabled?: boolean };
  logging?: { logBucket?: string; logObjectPrefix?: string };
  retentionPolicy?: { retentionPeriod?: string; isLocked?: boolean };
  softDeletePolicy?: { retentionDurationSeconds?: string };
}

export interface GcsBucketList {
  items?: GcsBucket[];
  nextPageToken?: string;
}

export interface GcsIamPolicy {
  bindings?: { role?: string; members?: string[]; condition?: unknown }[];
}

export const STORAGE_ENDPOINT = 'https://storage.googleapis.com';

export class StorageJsonApi {
  /**
   * `base` is the API root (`https://storage.googleapis.com`, a stand-in); `auth` signs each
   * request, or null for an emulator, which takes unauthenticated requests as the official
   * library sends them to one (`STORAGE_EMULATOR_HOST`).
   */
  constructor(
    private readonly base: string,
    private readonly auth: AuthClient | GoogleAuth | null,
  ) {}

  listBuckets(project: string, pageToken: string | undefined, signal: AbortSignal): Promise<GcsBucketList> {
    return this.#get(
      '/storage/v1/b',
      { project, maxResults: '500', projection: 'noAcl', ...(pageToken ? { pageToken } : {}) },
      signal,
    );
  }

  getIamPolicy(bucket: string, signal: AbortSignal): Promise<GcsIamPolicy> {
    return this.#get(`/storage/v1/b/${encodeURIComponent(bucket)}/iam`, {}, signal);
  }

  #get<T>(path: string, query: Record<string, string>, signal: AbortSignal): Promise<T> {
    return googleJson<T>(this.base, this.auth, { path, query }, signal);
  }
}

/** Where Storage requests go: a stand-in's settings, else `STORAGE_EMULATOR_HOST`, else Google. */
export function storageBase(
  settings: { apiEndpoint?: string; port?: number; protocol?: 'http' | 'https' },
  env: NodeJS.ProcessEnv = process.env,
): { base: string; emulator: boolean } {
  const standIn = standInBase(settings);
  if (standIn) return { base: standIn, emulator: false };
  const emulator = env.STORAGE_EMULATOR_HOST?.trim();
  if (emulator)
    return { base: /^https?:\/\//.test(emulator) ? emulator : `http://${emulator}`, emulator: true };
  return { base: STORAGE_ENDPOINT, emulator: false };
}

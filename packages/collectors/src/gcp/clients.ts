import { FirewallsClient, InstancesClient, NetworksClient, SubnetworksClient } from '@google-cloud/compute';
import { ProjectsClient } from '@google-cloud/resource-manager';
import { SqlInstancesServiceClient } from '@google-cloud/sql';
import type { AuthClient, GoogleAuth } from 'google-auth-library';
import { IAM_ENDPOINT, IamJsonApi } from './iam-api.js';
import { standInBase } from './json-api.js';
import { StorageJsonApi, storageBase } from './storage-api.js';

/** How the Google Cloud clients are built. */
export interface GcpClientSettings {
  /** Credentials: a GoogleAuth (key file or application default credentials) or a ready client. */
  auth?: GoogleAuth;
  authClient?: AuthClient;
  /** Host, port and protocol of a stand-in API (tests); default the public endpoints over https. */
  apiEndpoint?: string;
  port?: number;
  protocol?: 'http' | 'https';
}

const CONSTRUCTORS = {
  firewalls: FirewallsClient,
  instances: InstancesClient,
  networks: NetworksClient,
  subnetworks: SubnetworksClient,
  projects: ProjectsClient,
  sqlInstances: SqlInstancesServiceClient,
} as const;

export type GcpClientName = keyof typeof CONSTRUCTORS;
export type GcpClientOf<S extends GcpClientName> = InstanceType<(typeof CONSTRUCTORS)[S]>;

/**
 * One client per API, all on the REST transport (`fallback: true`): no gRPC, no native module,
 * plain HTTPS like the other clouds. Built lazily, closed at the end of a run.
 */
export class GcpClients {
  readonly #cache = new Map<string, { close(): Promise<void> }>();
  #storage: StorageJsonApi | undefined;
  #iam: IamJsonApi | undefined;

  constructor(private readonly settings: GcpClientSettings) {}

  get<S extends GcpClientName>(name: S): GcpClientOf<S> {
    const cached = this.#cache.get(name);
    if (cached) return cached as unknown as GcpClientOf<S>;
    const Ctor = CONSTRUCTORS[name] as unknown as new (options: Record<string, unknown>) => GcpClientOf<S>;
    const options: Record<string, unknown> = { fallback: true };
    if (this.settings.authClient) options.authClient = this.settings.authClient;
    else if (this.settings.auth) options.auth = this.settings.auth;
    if (this.settings.apiEndpoint) options.apiEndpoint = this.settings.apiEndpoint;
    if (this.settings.port) options.port = this.settings.port;
    if (this.settings.protocol) options.protocol = this.settings.protocol;
    const client = new Ctor(options);
    this.#cache.set(name, client as unknown as { close(): Promise<void> });
    return client;
  }

  /** The Cloud Storage JSON API (see storage-api.ts for why it is not a gax client). */
  storage(): StorageJsonApi {
    if (this.#storage) return this.#storage;
    const { base, emulator } = storageBase(this.settings);
    this.#storage = new StorageJsonApi(
      base,
      emulator ? null : (this.settings.authClient ?? this.settings.auth ?? null),
    );
    return this.#storage;
  }

  /** The IAM API's service-account reads (see iam-api.ts for why it is not a gax client). */
  iam(): IamJsonApi {
    this.#iam ??= new IamJsonApi(
      standInBase(this.settings) ?? IAM_ENDPOINT,
      this.settings.authClient ?? this.settings.auth ?? null,
    );
    return this.#iam;
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.#cache.values()].map((c) => c.close()));
    this.#cache.clear();
  }
}

import { AuthorizationManagementClient } from '@azure/arm-authorization';
import { ComputeManagementClient } from '@azure/arm-compute';
import { CosmosDBManagementClient } from '@azure/arm-cosmosdb';
import { KeyVaultManagementClient } from '@azure/arm-keyvault';
import { NetworkManagementClient } from '@azure/arm-network';
import { SqlManagementClient } from '@azure/arm-sql';
import { StorageManagementClient } from '@azure/arm-storage';
import type { TokenCredential } from '@azure/core-auth';
import type { HttpClient } from '@azure/core-rest-pipeline';

/** How ARM clients are built for every subscription. */
export interface AzureClientSettings {
  credential: TokenCredential;
  /** The ARM endpoint (sovereign clouds); default `https://management.azure.com`. */
  endpoint?: string;
  /** An HTTP client for every request (tests send them to a local handler with it). */
  httpClient?: HttpClient;
}

const CONSTRUCTORS = {
  authorization: AuthorizationManagementClient,
  compute: ComputeManagementClient,
  cosmosdb: CosmosDBManagementClient,
  keyvault: KeyVaultManagementClient,
  network: NetworkManagementClient,
  sql: SqlManagementClient,
  storage: StorageManagementClient,
} as const;

export type AzureServiceName = keyof typeof CONSTRUCTORS;
export type AzureClientOf<S extends AzureServiceName> = InstanceType<(typeof CONSTRUCTORS)[S]>;

/**
 * One ARM client per service and subscription. The SDK's own retries are off (`maxRetries: 0`)
 * because the governor retries, paces and counts every call, 429s with Retry-After included.
 */
export class AzureClients {
  readonly #cache = new Map<string, unknown>();

  constructor(private readonly settings: AzureClientSettings) {}

  get<S extends AzureServiceName>(service: S, subscription: string): AzureClientOf<S> {
    const key = `${service}/${subscription}`;
    const cached = this.#cache.get(key);
    if (cached) return cached as AzureClientOf<S>;
    const Ctor = CONSTRUCTORS[service] as unknown as new (
      credential: TokenCredential,
      subscriptionId: string,
      options: Record<string, unknown>,
    ) => AzureClientOf<S>;
    const options: Record<string, unknown> = { retryOptions: { maxRetries: 0 } };
    if (this.settings.endpoint) options.endpoint = this.settings.endpoint;
    if (this.settings.httpClient) options.httpClient = this.settings.httpClient;
    const client = new Ctor(this.settings.credential, subscription, options);
    this.#cache.set(key, client);
    return client;
  }
}

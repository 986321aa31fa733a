/**
 * What the stacks of one account share: the account's encryption key (or key vault), its log
 * destination and container registry, and the lists later passes draw on (identities for
 * cross-account trust, crown jewels for grants, machines for disks and scans).
 */
import type { CloudAsset } from '../../src/model/asset.js';
import type { EstateBuilder } from './builder.js';
import { type Account, KITS, type Kit } from './clouds.js';
import type { Network } from './network.js';

export interface AccountContext {
  b: EstateBuilder;
  account: Account;
  kit: Kit;
  networks: Network[];
  key: CloudAsset;
  logs: CloudAsset;
  registry: CloudAsset;
  /** Roles, managed identities and service accounts that workloads run as. */
  identities: CloudAsset[];
  /** Crown-jewel stores created in the account. */
  jewels: CloudAsset[];
  /** Virtual machines (for disks, Trivy scans). */
  machines: CloudAsset[];
  /** Kubernetes workloads and container services (Checkov's Kubernetes report). */
  workloads: CloudAsset[];
}

export function accountContext(b: EstateBuilder, account: Account, networks: Network[]): AccountContext {
  const kit = KITS[account.cloud];
  const region = account.regions[0] ?? 'global';
  const base = account.role === 'workload' ? (account.apps[0] ?? 'app') : account.role;
  const key = b.add({
    type: kit.key,
    account,
    region,
    base: `${base}-${account.cloud === 'AZURE' ? 'kv' : 'cmk'}`,
    tags: { env: account.env, 'data-classification': 'restricted' },
    metadata: { key_rotation_enabled: b.rng.chance(0.6), key_manager: 'CUSTOMER' },
  });
  const logs = b.add({
    type: kit.logs,
    account,
    region,
    base: `${base}-logs`,
    tags: { env: account.env },
    metadata: { retention_in_days: b.rng.pick([30, 90, 365, null]) },
  });
  const registry = b.add({
    type: 'CONTAINER_REGISTRY',
    account,
    region,
    base: `${base}-images`,
    tags: { env: account.env },
    metadata: { scan_on_push: b.rng.chance(0.5), image_tag_mutability: b.rng.pick(['MUTABLE', 'IMMUTABLE']) },
  });
  b.link(registry, 'REFERENCES', key, { relationship: 'ENCRYPTED_BY_KMS' });
  b.link(logs, 'REFERENCES', key, { relationship: 'ENCRYPTED_BY_KMS' });
  return {
    b,
    account,
    kit,
    networks,
    key,
    logs,
    registry,
    identities: [],
    jewels: [key],
    machines: [],
    workloads: [],
  };
}

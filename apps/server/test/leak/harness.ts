/**
 * Drives one policy over the planted estate: every tool the layer lists for the principal (with
 * arguments derived from its input schema), every resource, resource template, prompt and
 * completion, with real values and, when the policy pseudonymises, with the pseudonyms an earlier
 * result handed out. Everything the client reads is captured for the checks in leak.test.ts.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { type Dataset, Workspace } from '@cloudg/catalog';
import { type JsonObject, type Layer, Principal, resourceContentsToWire } from '@cloudg/core';
import type { PolicySourceValue } from '@cloudg/policy';
import { Policy } from '@cloudg/policy';
import { createLayerFromOptions } from '../../src/index.js';
import {
  type JsonSchema,
  type Kind,
  kindOf,
  promptSchema,
  type ToolInfo,
  toolVariants,
  type Values,
  type Variant,
} from './arguments.js';
import { brief, Capture } from './capture.js';
import {
  AWS_ACCOUNT,
  AZURE_SUBSCRIPTION,
  DRIFT_DATASET,
  GCP_PROJECT,
  MAIN_DATASET,
  PLANTED_ASSETS,
  PLANTED_FINDINGS,
  PLANTED_REPORT,
  PREVIEW_DATA,
  plantedEstate,
  TEAM_TAG,
} from './estate.js';
import { liveCredentials, plantedEngine } from './live-engine.js';
import { snapshot, writtenSince } from './written-files.js';

/** Fixed so pseudonyms repeat from run to run (the privacy reference's key). */
const VAULT_KEY = 'docs-example-key';
/** How many datasets created by tools stay loaded at a time. */
const KEEP_CREATED = 2;

export interface PolicyCase {
  label: string;
  profile: string;
  /** A policy document to load instead of the built-in profile (a profile extended). */
  policy?: PolicySourceValue;
  principal: Principal;
  /** Identifiers must not reach this caller in clear. */
  pseudonymises: boolean;
}

export type PrimitiveKind = 'tool' | 'resource' | 'template' | 'prompt' | 'completion' | 'listing';
type Phase = 'real' | 'pseudo';

export interface Op {
  kind: PrimitiveKind;
  /** Tool or prompt name, resource URI or URI template. */
  name: string;
  where: string;
  phase: Phase;
  slot: string;
  invalid: boolean;
  ok: boolean;
  /** The varied property's kind, for the pseudonym comparison. */
  argKind?: Kind;
  /** First text of an error, for failure messages. */
  error?: string;
  /** The arguments as JSON. */
  args: string;
}

export interface Visible {
  tool: string[];
  resource: string[];
  template: string[];
  prompt: string[];
}

export interface Run {
  case: PolicyCase;
  capture: Capture;
  ops: Op[];
  /** Every dataset the run had loaded, for the identifier rule. */
  datasets: Dataset[];
  /** Dataset names the run created (they are the caller's names, identifiers too). */
  createdNames: string[];
  /** Display names the policy's operator configured for values (alias/substitute maps). */
  aliases: string[];
  visible: Visible;
  /** Problems of the harness itself (a pseudonym it could not obtain...). */
  problems: string[];
  /** `kind:name` of every registered primitive with sensitivity `restricted`. */
  restricted: string[];
}

interface PlantedView {
  id: string;
  name: string;
  arn: string;
  account_id: string;
  tags: Record<string, string>;
  dataset: string;
}

function errorWire(error: unknown): JsonObject {
  if (error instanceof Error) {
    const e = error as Error & { code?: unknown; data?: unknown };
    return JSON.parse(
      JSON.stringify({ type: e.name, message: e.message, code: e.code, data: e.data }),
    ) as JsonObject;
  }
  return { message: String(error) };
}

function firstText(wire: JsonObject): string | undefined {
  const content = wire.content as { type: string; text?: string }[] | undefined;
  return content?.find((c) => c.type === 'text')?.text;
}

export async function runCase(c: PolicyCase): Promise<Run> {
  const estate = await plantedEstate();
  try {
    return await drive(c, estate.dir);
  } finally {
    await estate.cleanup();
  }
}

async function drive(c: PolicyCase, dir: string): Promise<Run> {
  // A second copy of the planted inventory under a distinctive directory name: a dataset loaded
  // from it without a name is named after it (a name like `inventory` would be an ordinary word).
  const mirror = join(dir, 'acme-payments-mirror');
  await cp(join(dir, 'inventory'), mirror, { recursive: true });

  const ws = new Workspace({ allowedRoots: [dir], outputDir: join(dir, 'out'), cwd: dir });
  await ws.preload(join(dir, 'after'), { name: DRIFT_DATASET });
  await ws.preload(join(dir, 'inventory'), { name: MAIN_DATASET });
  ws.select(MAIN_DATASET);
  const vault = { vaultEnv: { CLOUDG_MCP_VAULT_KEY: VAULT_KEY } };
  const policy = c.policy ? Policy.load(c.policy, vault) : Policy.fromProfile(c.profile, vault);
  const outputDir = ws.outputDir;
  // A short deadline: a tool a later issue adds that waits on a cloud API must not stall the run.
  liveCredentials(ws);
  const server = await createLayerFromOptions({
    policy,
    workspace: ws,
    defaultTimeout: 15,
    engine: plantedEngine(dir),
  });
  const layer: Layer<Workspace> = server.layer;
  const principal = c.principal;

  const capture = new Capture();
  const ops: Op[] = [];
  const problems: string[] = [];
  const datasets = new Map<string, Dataset>();
  const createdNames = new Set<string>();
  const remember = () => {
    for (const name of ws.names()) {
      const d = ws.get(name);
      if (!datasets.has(`${name}@${d.loadId}`)) datasets.set(`${name}@${d.loadId}`, d);
      if (name !== MAIN_DATASET && name !== DRIFT_DATASET) createdNames.add(name);
    }
  };
  remember();
  // Side effects stay meaningful: after a tool that writes, the planted dataset is active again,
  // and datasets created beyond the first few are dropped (by the harness, not through a tool),
  // so the workspace never evicts the planted ones and the calls do not multiply.
  const restoreActive = () => {
    remember();
    const created = ws.names().filter((n) => createdNames.has(n));
    for (const name of created.slice(KEEP_CREATED)) ws.remove(name);
    if (ws.has(MAIN_DATASET) && ws.activeName !== MAIN_DATASET) ws.select(MAIN_DATASET);
  };

  const options = (where: string) => ({
    principal,
    onLog: (level: string, data: unknown, logger: string) =>
      capture.add(where, 'log', { level, data, logger }),
    onProgress: (progress: number, total: number | undefined, message: string | undefined) =>
      capture.add(where, 'progress', { progress, total: total ?? null, message: message ?? null }),
  });
  let counter = 0;
  const label = (kind: string, name: string, args: unknown, phase: Phase) =>
    `${kind} ${name} #${++counter}${phase === 'pseudo' ? ' (pseudonyms)' : ''} ${brief(args)}`;

  // ---- the four entry points, captured ------------------------------------------------------

  async function callTool(name: string, v: Variant, phase: Phase): Promise<JsonObject | undefined> {
    policy.resetRateLimits();
    const where = label('tool', name, v.args, phase);
    const op: Op = {
      kind: 'tool',
      name,
      where,
      phase,
      slot: v.slot,
      invalid: v.invalid,
      ok: false,
      args: JSON.stringify(v.args),
    };
    if (v.kind) op.argKind = v.kind;
    ops.push(op);
    const before = fileWriters.has(name) ? await snapshot(outputDir) : undefined;
    try {
      const result = await layer.callTool(name, v.args, options(where));
      const wire = result.toWire();
      capture.add(where, 'result', wire);
      if (before) {
        for (const [path, content] of await writtenSince(outputDir, before))
          capture.add(where, `file ${path}`, content);
      }
      op.ok = !result.isError;
      if (result.isError) op.error = firstText(wire);
      return result.isError ? undefined : (result.structured ?? {});
    } catch (error) {
      capture.add(where, 'thrown', errorWire(error));
      op.error = error instanceof Error ? error.message : String(error);
      return undefined;
    }
  }

  async function read(kind: 'resource' | 'template', name: string, uri: string, v: Variant, phase: Phase) {
    policy.resetRateLimits();
    const where = label(kind, uri, v.args, phase);
    const op: Op = {
      kind,
      name,
      where,
      phase,
      slot: v.slot,
      invalid: v.invalid,
      ok: false,
      args: JSON.stringify(v.args),
    };
    if (v.kind) op.argKind = v.kind;
    ops.push(op);
    try {
      const contents = await layer.readResource(uri, options(where));
      capture.add(where, 'contents', contents.map(resourceContentsToWire));
      op.ok = true;
    } catch (error) {
      capture.add(where, 'thrown', errorWire(error));
      op.error = error instanceof Error ? error.message : String(error);
    }
  }

  async function getPrompt(name: string, v: Variant, phase: Phase) {
    policy.resetRateLimits();
    const where = label('prompt', name, v.args, phase);
    const op: Op = {
      kind: 'prompt',
      name,
      where,
      phase,
      slot: v.slot,
      invalid: v.invalid,
      ok: false,
      args: JSON.stringify(v.args),
    };
    if (v.kind) op.argKind = v.kind;
    ops.push(op);
    try {
      const result = await layer.getPrompt(name, v.args, options(where));
      capture.add(where, 'prompt', result.toWire());
      op.ok = true;
    } catch (error) {
      capture.add(where, 'thrown', errorWire(error));
      op.error = error instanceof Error ? error.message : String(error);
    }
  }

  async function complete(
    ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
    argument: string,
    prefix: string,
    phase: Phase,
    contextArguments: Record<string, string>,
  ) {
    policy.resetRateLimits();
    const name = ref.type === 'ref/prompt' ? ref.name : ref.uri;
    const where = label(
      'completion',
      `${name} ${argument}`,
      { value: prefix, context: contextArguments },
      phase,
    );
    const op: Op = {
      kind: 'completion',
      name,
      where,
      phase,
      slot: argument,
      invalid: false,
      ok: false,
      args: JSON.stringify({ value: prefix }),
    };
    ops.push(op);
    try {
      const result = await layer.complete(
        ref,
        { name: argument, value: prefix },
        { ...options(where), contextArguments },
      );
      capture.add(where, 'completion', result);
      op.ok = true;
    } catch (error) {
      capture.add(where, 'thrown', errorWire(error));
      op.error = error instanceof Error ? error.message : String(error);
    }
  }

  // ---- what the layer lists for this caller -------------------------------------------------

  const toolSpecs = layer.listTools(principal);
  const fileWriters = new Set(
    toolSpecs.filter((s) => s.capabilities.has('write_fs')).map((s) => layer.exposedName(s.name)),
  );
  const toolWire = new Map(layer.toolsWire(principal).map((t) => [t.name as string, t]));
  const promptWire = new Map(layer.promptsWire(principal).map((p) => [p.name as string, p]));
  const resources = layer.listResources(principal);
  const templates = layer.listResourceTemplates(principal);
  const prompts = layer.listPrompts(principal);
  const visible: Visible = {
    tool: toolSpecs.map((s) => layer.exposedName(s.name)),
    resource: resources.map((r) => r.uri),
    template: templates.map((t) => t.uriTemplate),
    prompt: prompts.map((p) => layer.exposedName(p.name)),
  };
  const restricted = [
    ...[...layer.registry.tools.values()].map((s) => ['tool', layer.exposedName(s.name), s.sensitivity]),
    ...[...layer.registry.resources.values()].map((s) => ['resource', s.uri, s.sensitivity]),
    ...[...layer.registry.templates.values()].map((s) => ['template', s.uriTemplate, s.sensitivity]),
    ...[...layer.registry.prompts.values()].map((s) => ['prompt', layer.exposedName(s.name), s.sensitivity]),
  ]
    .filter(([, , sensitivity]) => sensitivity === 'restricted')
    .map(([kind, name]) => `${kind}:${name}`);

  // Definitions come from code, but a client reads them too.
  const listingWhere = 'listing tools/resources/templates/prompts/instructions';
  capture.add(listingWhere, 'listing', {
    tools: [...toolWire.values()],
    resources: layer.resourcesWire(principal),
    templates: layer.resourceTemplatesWire(principal),
    prompts: [...promptWire.values()],
    instructions: layer.identity.instructions,
  });

  const tools = toolSpecs.map((spec) => {
    const info: ToolInfo = {
      name: layer.exposedName(spec.name),
      writes: spec.annotations.readOnlyHint !== true,
      destructive: spec.annotations.destructiveHint === true,
    };
    return { info, schema: (toolWire.get(info.name)?.inputSchema ?? {}) as JsonSchema };
  });

  // ---- values -------------------------------------------------------------------------------

  const { ledger, vm, bucket } = PLANTED_ASSETS;
  const otherDatasets = () => ws.names().filter((n) => n !== MAIN_DATASET);
  const throwawayReal = () =>
    ws
      .names()
      .filter((n) => createdNames.has(n))
      .at(-1);
  const real: Values = {
    assetRefs: [ledger.name, ledger.id, ledger.arn, vm.name, vm.arn, bucket.name],
    queries: [ledger.name, 'ledger', TEAM_TAG],
    datasets: () => [MAIN_DATASET, ...otherDatasets()],
    newDatasets: ['acme-payments-copy-a', 'acme-payments-copy-b'],
    throwaway: throwawayReal,
    accounts: [AWS_ACCOUNT, AZURE_SUBSCRIPTION, GCP_PROJECT],
    tagFilters: [`team=${TEAM_TAG}`, 'team', 'env=prod'],
    tagKeys: ['team', 'env', 'Description', 'pipeline'],
    providers: ['aws', 'azure', 'gcp'],
    regions: ['us-east-1', 'westeurope'],
    severities: ['HIGH', 'critical'],
    findingIds: [PLANTED_FINDINGS.public, PLANTED_FINDINGS.injected],
    frameworks: ['PCI-DSS', 'CIS-AWS'],
    controlIds: ['1.3.1', '5.2'],
    assetTypes: [ledger.type, vm.type, bucket.type],
    edgeTypes: ['REFERENCES', 'ASSUMES_ROLE'],
    metadataKeys: [
      ['db_password', 'environment', 'blob'],
      ['startup_script', 'connection', 'last_session'],
    ],
    paths: [mirror],
    reportPaths: [join(dir, PLANTED_REPORT)],
    tokens: [ledger.name, 'res-0000000000'],
    toolNames: ['get_asset'],
    json: [PREVIEW_DATA, JSON.stringify(PREVIEW_DATA)],
    changes: ['restrict ingress to port 5432'],
    invalid: {
      assetRefs: [`${ledger.name}.old`, `arn:aws:rds:us-east-1:${AWS_ACCOUNT}:db:ledger-missing`],
      datasets: [`${MAIN_DATASET}.old`],
      enumValue: TEAM_TAG,
      assetTypes: [ledger.name],
      fields: ['name', ledger.name],
    },
  };

  // ---- phases -------------------------------------------------------------------------------

  const writers = tools.filter((t) => t.info.writes && !t.info.destructive);
  const readers = tools.filter((t) => !t.info.writes);
  const destroyers = tools.filter((t) => t.info.destructive);

  async function runTools(list: typeof tools, values: Values, phase: Phase) {
    for (const { info, schema } of list) {
      for (const variant of toolVariants(schema, values, info)) {
        const structured = await callTool(info.name, variant, phase);
        // Follow one cursor, so second pages are read too.
        const next = structured?.next_cursor;
        if (typeof next === 'string' && next && schema.properties?.cursor) {
          await callTool(
            info.name,
            { ...variant, args: { ...variant.args, cursor: next }, slot: `${variant.slot}+page` },
            phase,
          );
        }
        if (info.writes) restoreActive();
      }
    }
  }

  /** What a template variable's completion offers for an empty prefix (nothing on failure). */
  async function offered(uriTemplate: string, variable: string): Promise<string[]> {
    policy.resetRateLimits();
    try {
      const result = await layer.complete(
        { type: 'ref/resource', uri: uriTemplate },
        { name: variable, value: '' },
        {
          principal,
        },
      );
      return result.values.map(String);
    } catch {
      return [];
    }
  }

  async function runResourcesAndPrompts(values: Values, phase: Phase) {
    for (const r of resources)
      await read('resource', r.uri, r.uri, { args: {}, slot: 'base', invalid: false }, phase);
    for (const t of templates) {
      // A variable nothing else classifies takes the values its completion offers (a format...).
      const properties: Record<string, JsonSchema> = {};
      for (const name of t.variables)
        properties[name] = { type: 'string', examples: await offered(t.uriTemplate, name) };
      const schema: JsonSchema = { type: 'object', properties, required: [...t.variables] };
      for (const variant of toolVariants(schema, values)) {
        const vars = Object.fromEntries(Object.entries(variant.args).map(([k, val]) => [k, String(val)]));
        await read('template', t.uriTemplate, t.expand(vars), variant, phase);
      }
    }
    for (const p of prompts) {
      const name = layer.exposedName(p.name);
      const args = (promptWire.get(name)?.arguments ?? []) as {
        name: string;
        required?: boolean;
        description?: string;
      }[];
      for (const variant of toolVariants(promptSchema(args), values)) await getPrompt(name, variant, phase);
    }
    // Completions: every prompt argument and every template variable, from a prefix of a value.
    const context = { dataset: values.datasets()[0] ?? '' };
    const prefixes = (argument: string, description: string): string[] => {
      const kind = kindOf(argument, { type: 'string', description });
      const firsts = kind === 'assetRef' ? values.assetRefs.slice(0, 2) : [];
      const sample =
        kind === 'dataset' || kind === 'baseDataset'
          ? values.datasets()
          : kind === 'findingId'
            ? values.findingIds
            : kind === 'framework'
              ? values.frameworks
              : kind === 'severity'
                ? values.severities
                : kind === 'change'
                  ? values.changes
                  : values.assetRefs;
      const all = [...firsts, sample[0] ?? ''].map((s) => s.slice(0, Math.max(1, Math.min(8, s.length - 2))));
      return [...new Set(['', ...all])];
    };
    for (const p of prompts) {
      const name = layer.exposedName(p.name);
      const args = (promptWire.get(name)?.arguments ?? []) as { name: string; description?: string }[];
      for (const a of args) {
        for (const prefix of prefixes(a.name, a.description ?? '')) {
          await complete({ type: 'ref/prompt', name }, a.name, prefix, phase, context);
        }
      }
    }
    for (const t of templates) {
      for (const variable of t.variables) {
        for (const prefix of prefixes(variable, '')) {
          await complete({ type: 'ref/resource', uri: t.uriTemplate }, variable, prefix, phase, context);
        }
      }
    }
  }

  // 1. Tools that write (create and select datasets), so the reads that follow see their results.
  await runTools(writers, real, 'real');
  // 2. Every read-only tool, resource, template, prompt and completion.
  await runTools(readers, real, 'real');
  await runResourcesAndPrompts(real, 'real');

  // 3. The same again with the pseudonyms a strict client was given.
  let pseudo: Values | undefined;
  const datasetPseudonyms = new Map<string, string>();
  const viewOf = async (ref: string, dataset: string): Promise<PlantedView | undefined> => {
    if (!toolWire.has(layer.exposedName('get_asset'))) return undefined;
    policy.resetRateLimits();
    const result = await layer.callTool(layer.exposedName('get_asset'), { ref, dataset }, { principal });
    return result.isError ? undefined : (result.structured as unknown as PlantedView);
  };
  const harvestDatasets = async () => {
    for (const name of ws.names()) {
      if (datasetPseudonyms.has(name)) continue;
      const seen = await viewOf(ledger.id, name);
      if (seen?.dataset) datasetPseudonyms.set(name, seen.dataset);
      else problems.push(`no pseudonym obtained for dataset ${name} (get_asset in that dataset failed)`);
    }
  };
  if (c.pseudonymises) {
    const [pl, pv, pb] = [
      await viewOf(ledger.id, MAIN_DATASET),
      await viewOf(vm.id, MAIN_DATASET),
      await viewOf(bucket.id, MAIN_DATASET),
    ];
    if (!pl || !pv || !pb) {
      problems.push('get_asset did not return the planted assets, so no pseudonyms could be obtained');
    } else {
      for (const [real, seen] of [
        [ledger.name, pl.name],
        [ledger.id, pl.id],
        [AWS_ACCOUNT, pl.account_id],
        [MAIN_DATASET, pl.dataset],
      ] as const) {
        if (real === seen) problems.push(`expected a pseudonym for ${real}, got it in clear`);
      }
      await harvestDatasets();
      const pds = (name: string) => datasetPseudonyms.get(name) ?? name;
      pseudo = {
        ...real,
        assetRefs: [pl.name, pl.id, pl.arn, pv.name, pv.arn, pb.name],
        queries: [pl.name, 'ledger', pl.tags.team ?? ''],
        datasets: () => real.datasets().map(pds),
        newDatasets: ['acme-payments-copy-c', 'acme-payments-copy-d'],
        throwaway: () => {
          const name = throwawayReal();
          return name ? pds(name) : undefined;
        },
        accounts: [pl.account_id, pv.account_id, pb.account_id],
        tagFilters: [`team=${pl.tags.team}`, 'team', `env=${pl.tags.env}`],
        changes: [`restrict ingress to ${pl.name} on port 5432`],
        // Pseudonyms in the wrong place: the layer restores them, the handler refuses them, and
        // the error must not carry the restored value back in clear.
        invalid: {
          assetRefs: [pl.dataset, pl.account_id],
          datasets: [pl.name],
          enumValue: pl.tags.team ?? pl.name,
          assetTypes: [pl.name],
          fields: ['name', pl.name],
        },
      };
      await runTools(writers, pseudo, 'pseudo');
      await harvestDatasets();
      await runTools(readers, pseudo, 'pseudo');
      await runResourcesAndPrompts(pseudo, 'pseudo');
    }
  }

  // 4. Destructive tools last, on a dataset the run created (by pseudonym first when there is one).
  remember();
  if (pseudo) {
    await harvestDatasets();
    await runTools(destroyers, pseudo, 'pseudo');
  }
  await runTools(destroyers, real, 'real');
  // The workspace as it ends, read once more.
  for (const r of resources)
    await read('resource', r.uri, r.uri, { args: {}, slot: 'end', invalid: false }, 'real');

  return {
    case: c,
    capture,
    ops,
    datasets: [...datasets.values()],
    createdNames: [...createdNames],
    aliases: configuredAliases(policy.config),
    visible,
    problems,
    restricted,
  };
}

/** Every string an `aliases` map of the policy's configuration shows instead of a real value. */
function configuredAliases(config: unknown): string[] {
  const out: string[] = [];
  const leaves = (v: unknown): void => {
    if (typeof v === 'string') out.push(v);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) leaves(x);
  };
  const walk = (v: unknown): void => {
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) (k === 'aliases' ? leaves : walk)(x);
  };
  walk(config);
  return out;
}

export const ANALYST = new Principal({ id: 'ann', roles: ['analyst'] });
export const ADMIN = new Principal({ id: 'root', roles: ['admin'] });
export const LOCAL = Principal.local();

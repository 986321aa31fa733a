/**
 * A replica of a shared workspace with the live tools over the sample engine, for tests of
 * several replicas over one in-memory log: every replica's output directory is `<dir>/out`,
 * the one directory replicas share.
 */
import { join } from 'node:path';
import { createLogger } from '@cloudg/core';
import { expect } from 'vitest';
import {
  configureLive,
  createCatalogLayer,
  defaultRegistry,
  SharedWorkspace,
  type SharedWorkspaceOptions,
  sampleEstateDir,
  Workspace,
} from '../../src/index.js';
import { SampleEngine } from '../live/sample-engine.js';
import type { MemoryLog } from './memory-log.js';

export const CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'AKIAEXAMPLEEXAMPLE00',
  AWS_SECRET_ACCESS_KEY: 'example',
  PATH: '',
};

export interface LiveReplicaOptions extends SharedWorkspaceOptions {
  engine?: SampleEngine;
  /** Runs on the workspace before the shared workspace starts (a replica's own preloads). */
  before?: (workspace: Workspace) => Promise<void>;
  /** The replica's own state directory (suppressions kept by dataset name). */
  stateDir?: string;
  /** Keep live collections for a restart (`--restore-live`); off unless asked. */
  persist?: boolean;
}

export async function liveReplica(log: MemoryLog, dir: string, options: LiveReplicaOptions = {}) {
  const { engine = new SampleEngine(), before, stateDir, persist = false, ...shared } = options;
  const workspace = new Workspace({
    allowedRoots: [sampleEstateDir(), dir],
    outputDir: join(dir, 'out'),
    cwd: dir,
    ...(stateDir ? { stateDir } : {}),
  });
  configureLive(workspace, {
    persist,
    preflight: { env: CREDENTIALS, homeDir: dir, probe: async () => null },
  });
  await before?.(workspace);
  const follower = new SharedWorkspace(workspace, log, { pollMs: 60_000, ...shared });
  await follower.start();
  const layer = createCatalogLayer({
    workspace,
    registry: defaultRegistry({ live: { engine } }),
    middleware: [follower.middleware],
    logger: createLogger({ level: 'silent' }),
  });
  return { workspace, shared: follower, layer };
}

export type LiveReplica = Awaited<ReturnType<typeof liveReplica>>;

/** Call `tool` on replica `r`, expect it to succeed, and give its structured result. */
export async function ok(r: LiveReplica, tool: string, args: Record<string, unknown>) {
  const result = await r.layer.callTool(tool, args);
  expect(result.isError, JSON.stringify(result.content)).toBe(false);
  return result.structured as Record<string, unknown>;
}

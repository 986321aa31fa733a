/**
 * Tasks of three `serve` replicas with --redis-url, as the CLI composes them: the official client
 * (2025-11-25 experimental tasks) behind a round-robin balancer starts `run_scanners` as a task on
 * one replica, and follows it with `tasks/get`, `tasks/list` and `tasks/result` answered by the
 * others, from the task records the replicas share in Redis.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleEstateDir } from '@cloudg/catalog';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Replica, startReplica, stopReplicas } from './support/http-replica.js';
import { startRedis } from './support/redis-server.js';
import { roundRobin } from './support/round-robin.js';

const MAP = join(sampleEstateDir(), 'inventory', 'inventory-map.json');
const POLICY = { extends: 'open', vault: { key: 'replica-tasks-test-key-0123456789' } };

let redis: Awaited<ReturnType<typeof startRedis>>;
let outputDir: string;
const replicas: Replica[] = [];

beforeAll(async () => {
  redis = await startRedis();
  outputDir = await mkdtemp(join(tmpdir(), 'cloudg-replicas-out-'));
  for (let i = 0; i < 3; i++)
    replicas.push(
      await startReplica(redis.url, { policy: POLICY, keyPrefix: 'server-tasks-test:', outputDir }),
    );
});
afterAll(async () => {
  await stopReplicas(replicas);
  await redis?.stop();
  await rm(outputDir, { recursive: true, force: true });
});

/** A result schema for the client's generic `request` that takes the answer as it comes. */
function asIs<T>() {
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'cloudg-test',
      validate: (value: unknown) => ({ value: value as T }),
      types: undefined as unknown as { input: unknown; output: T },
    },
  };
}
type TaskShape = { taskId: string; status: string };
const Task = asIs<TaskShape>();
const CreateTask = asIs<{ task: TaskShape }>();
const TaskList = asIs<{ tasks: TaskShape[] }>();
const AnyResult = asIs<Record<string, unknown>>();

describe('tasks behind a round-robin balancer', () => {
  it('2025-11-25: a task started on one replica is read, listed and fetched on the others', async () => {
    const balancer = await roundRobin(replicas.map((r) => r.port));
    const client = new Client(
      { name: 'balanced-tasks', version: '1.0.0' },
      { versionNegotiation: { mode: 'legacy' } },
    );
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(balancer.url)));
      const loaded = await client.callTool({ name: 'load_dataset', arguments: { path: MAP, name: 'tasks' } });
      expect(loaded.isError).toBeFalsy();
      const { task } = await client.request(
        {
          method: 'tools/call',
          params: {
            name: 'run_scanners',
            arguments: { scanners: ['iam'], dataset: 'tasks' },
            task: { ttl: 60_000 },
          },
        },
        CreateTask,
      );
      let status = task.status;
      for (let i = 0; i < 200 && status === 'working'; i++) {
        status = (await client.request({ method: 'tasks/get', params: { taskId: task.taskId } }, Task))
          .status;
        await new Promise((r) => setTimeout(r, 20));
      }
      expect(status).toBe('completed');
      const listed = await client.request({ method: 'tasks/list', params: {} }, TaskList);
      expect(listed.tasks.map((t) => t.taskId)).toContain(task.taskId);
      const result = await client.request(
        { method: 'tasks/result', params: { taskId: task.taskId } },
        AnyResult,
      );
      // The scan's own answer (the sample map keeps no IAM documents for the linter to check).
      expect(result).toMatchObject({
        structuredContent: { errors: ['iam: no IAM policy documents in the dataset to check'] },
      });
      // Every replica answered part of it.
      expect(balancer.served.every((n) => n > 1)).toBe(true);
    } finally {
      await client.close();
      balancer.server.closeAllConnections();
      balancer.server.close();
    }
  });
});

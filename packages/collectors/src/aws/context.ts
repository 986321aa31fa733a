import type { CloudAsset, NetworkEdge, OrganizationTopology } from '@cloudg/catalog';
import type { Governor, TaskLedger } from '../governor/governor.js';
import type { AwsClientOf, AwsClients, AwsServiceName } from './clients.js';

/** What one service task gets: where it runs, its clients, and the governed way to call them. */
export interface AwsTaskContext {
  account: string;
  region: string;
  partition: string;
  signal: AbortSignal;
  client<S extends AwsServiceName>(service: S): AwsClientOf<S>;
  /** Send one request through the governor (pacing, retries, breaker), counted in the task's ledger. */
  call<T>(service: AwsServiceName, operation: string, fn: (signal: AbortSignal) => Promise<T>): Promise<T>;
  progress(message: string): void;
  /**
   * Record a failure of a sub-call the task chose to survive (one bucket's policy denied): the
   * task becomes PARTIAL with this text instead of failing whole.
   */
  partial(message: string): void;
}

export interface TaskOutput {
  assets: CloudAsset[];
  /** Collector network edges (security group rules, internet exposure) between ids and CIDRs. */
  edges?: NetworkEdge[];
  /** The organization's topology (the `organizations` task). */
  organization?: OrganizationTopology;
}

/**
 * One collector task: a part of a service the coverage reports on its own. Which `services`
 * families select it is SERVICE_FAMILY_TASKS' business (src/families.ts), not the task's.
 */
export interface AwsTask {
  name: string;
  /** Global tasks run once per account (in the home region); regional ones per region. */
  scope: 'global' | 'regional';
  run(ctx: AwsTaskContext): Promise<TaskOutput>;
}

export function makeContext(options: {
  account: string;
  region: string;
  partition: string;
  clients: AwsClients;
  governor: Governor;
  signal: AbortSignal;
  ledger: TaskLedger;
  partials: string[];
  progress: (message: string) => void;
}): AwsTaskContext {
  const { account, region, clients, governor, signal, ledger, partials } = options;
  return {
    account,
    region,
    partition: options.partition,
    signal,
    client: (service) => clients.get(service, region),
    call: (service, operation, fn) =>
      governor.call(
        { provider: 'aws', account, region, service, operation },
        () => fn(signal),
        signal,
        ledger,
      ),
    progress: options.progress,
    partial: (message) => partials.push(message),
  };
}

/**
 * Pages of a paginated API, one governed request each, checking cancellation between pages.
 * `token` reads the next-page token of a response; `limit` guards against an API that keeps
 * returning the same token.
 */
export async function* pages<T>(
  ctx: AwsTaskContext,
  service: AwsServiceName,
  operation: string,
  send: (token: string | undefined, signal: AbortSignal) => Promise<T>,
  token: (page: T) => string | undefined,
  limit = 10_000,
): AsyncGenerator<T> {
  let next: string | undefined;
  const seen = new Set<string>();
  for (let i = 0; i < limit; i += 1) {
    ctx.signal.throwIfAborted();
    const current = next;
    const page = await ctx.call(service, operation, (signal) => send(current, signal));
    yield page;
    next = token(page);
    if (!next || seen.has(next)) return;
    seen.add(next);
  }
}

export function arnOf(ctx: AwsTaskContext, service: string, resource: string, region = ctx.region): string {
  return `arn:${ctx.partition}:${service}:${region}:${ctx.account}:${resource}`;
}

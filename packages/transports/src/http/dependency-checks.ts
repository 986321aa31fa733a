/**
 * What the health and readiness endpoints say about the services a server depends on (Redis for
 * shared state, say). Liveness reports them but stays 200, since restarting a replica does not
 * bring Redis back; readiness answers 503 while one is down, so a load balancer sends requests
 * to the replicas that can serve them.
 */

/** One dependency's state, as the application measured it. */
export interface DependencyCheck {
  ok: boolean;
  /** Round trip of the probe in milliseconds, when it answered. */
  latency_ms?: number;
  /** Why not, when it failed. */
  error?: string;
}

/** Probes every dependency; keyed by a short name (`redis`). Should not throw and should time out on its own. */
export type DependencyChecks = () => Promise<Record<string, DependencyCheck>>;

/** Run the probes; a probe that throws counts as a failed check rather than a failed endpoint. */
export async function runDependencyChecks(
  checks: DependencyChecks | undefined,
): Promise<{ ok: boolean; checks?: Record<string, DependencyCheck> }> {
  if (!checks) return { ok: true };
  let results: Record<string, DependencyCheck>;
  try {
    results = await checks();
  } catch (error) {
    results = { checks: { ok: false, error: error instanceof Error ? error.message : String(error) } };
  }
  return { ok: Object.values(results).every((c) => c.ok), checks: results };
}

import type { ToolContext } from '@cloudg/core';
import type { EnginePhase } from '../../live/engine.js';

/** The progress step of each engine phase (MCP_TOOLS.md "Progress"). */
export const PHASE_STEP: Record<EnginePhase, number> = {
  inventory_mapping: 1,
  collection: 1,
  scanning: 2,
  ingest: 2,
  analysis: 3,
  normalisation: 4,
  reporting: 5,
};

/**
 * Sends a live call's progress: a phase's step, capped just below `total` so only the final
 * `done` reaches it. Notifications are best effort and never fail the call.
 */
export class LiveProgress<TApp> {
  constructor(
    private readonly ctx: ToolContext<TApp>,
    readonly total: number,
  ) {}

  send(step: number, message: string): void {
    void this.ctx.reportProgress(Math.min(step, this.total - 0.01), this.total, message);
  }

  phase(phase: EnginePhase): void {
    this.send(PHASE_STEP[phase], `phase: ${phase}`);
  }

  async done(): Promise<void> {
    await this.ctx.reportProgress(this.total, this.total, 'done');
  }
}

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
  #step = 0;
  #messages = 0;

  constructor(
    private readonly ctx: ToolContext<TApp>,
    readonly total: number,
  ) {}

  send(step: number, message: string): void {
    this.#step = Math.max(this.#step, step);
    void this.ctx.reportProgress(Math.min(step, this.total - 0.01), this.total, message);
  }

  phase(phase: EnginePhase): void {
    this.#messages = 0;
    this.send(PHASE_STEP[phase], `phase: ${phase}`);
  }

  /**
   * An engine's message inside the current phase. MCP progress must increase, so each message
   * moves a hundredth past the phase's step (never reaching the next one).
   */
  message(text: string): void {
    this.#messages = Math.min(this.#messages + 1, 90);
    const value = Math.min(Math.floor(this.#step) + this.#messages / 100, this.total - 0.01);
    void this.ctx.reportProgress(value, this.total, text);
  }

  async done(): Promise<void> {
    await this.ctx.reportProgress(this.total, this.total, 'done');
  }
}

/**
 * The port through which a call asks its client. Core knows no transport: the transport serving
 * a request fills this in for that request. Two shapes exist behind the one interface:
 *
 * - handshake era (2025-11-25): `ask` sends a server-to-client request on the request's stream
 *   and resolves with the client's answer;
 * - 2026-07-28 (multi round-trip requests): answers arrive with a *new* request. `ask` resolves at
 *   once when the retry carries the answer under the question's key, and otherwise throws
 *   `InputRequiredSignal`, which ends this attempt; the transport answers `input_required`.
 */
import { ErrorCode, McpLayerError } from '../errors.js';
import type { JsonValue } from '../json.js';
import type { ClientCapabilityName, ClientQuestion } from './types.js';

export interface ClientPort {
  /** Whether the client declared the capability (in `initialize` or the request's envelope). */
  supports(capability: ClientCapabilityName): boolean;
  /**
   * Ask questions under keys that are stable across reruns of the same call, all in one round;
   * resolves with the answers by key. Honour `signal`: a cancelled call must not wait.
   */
  ask(questions: Record<string, ClientQuestion>, signal: AbortSignal): Promise<Record<string, JsonValue>>;
}

/**
 * A call needs a client capability the client did not declare (MCP
 * `MissingRequiredClientCapabilityError`, -32021). `data.requiredCapabilities` is a
 * `ClientCapabilities` object, e.g. `{ "elicitation": {} }`. It fails the request itself, not
 * just the tool: the layer lets it through instead of turning it into an error result.
 */
export class MissingClientCapabilityError extends McpLayerError {
  override readonly code: number = ErrorCode.MissingRequiredClientCapability;

  constructor(capability: ClientCapabilityName) {
    super(`The client did not declare the ${capability} capability this request needs`, {
      data: { requiredCapabilities: { [capability]: {} } },
    });
  }
}

/**
 * Thrown by a 2026 port when the call needs answers it does not have yet. Not a failure: the
 * transport turns it into an `input_required` result carrying `requests` and the request state.
 */
export class InputRequiredSignal extends McpLayerError {
  override readonly code: string = 'input_required';
  readonly requests: Record<string, ClientQuestion>;

  constructor(requests: Record<string, ClientQuestion>) {
    super('The client must answer questions before this request can complete');
    this.requests = requests;
  }
}

/** The client did not answer within the question's timeout. */
export class ClientAnswerTimeoutError extends McpLayerError {
  override readonly code: string = 'client_timeout';
}

/** Errors a tool call lets through as a protocol outcome instead of an error result. */
export function escapesToolResult(error: unknown): boolean {
  return error instanceof InputRequiredSignal || error instanceof MissingClientCapabilityError;
}

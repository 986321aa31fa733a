/**
 * How a request asks its client, in each era, as the `ClientPort` core hands to the tool:
 *
 * - handshake era: a server-to-client JSON-RPC request on the request's own channel (its SSE
 *   stream, or the stdio connection); the client's response comes back as a message without a
 *   method and settles the question (`OutgoingRequests`);
 * - 2026-07-28: no server-to-client requests at all. The answers arrive with the client's retry
 *   (`inputResponses`, with the signed `requestState` of earlier rounds); a question without an
 *   answer ends the attempt with `InputRequiredSignal`, answered as an `input_required` result.
 */
import {
  CancelledError,
  type ClientCapabilityName,
  type ClientPort,
  type ClientQuestion,
  ErrorCode,
  InputRequiredSignal,
  type JsonValue,
} from '@cloudg/core';
import { ProtocolError } from '../jsonrpc/errors.js';
import { isObject, type JsonRpcMessage, notification, type RequestId } from '../jsonrpc/messages.js';
import { ClientUnreachableError } from './client-unreachable.js';
import type { RequestContext } from './request-context.js';
import type { RequestStateBinding } from './request-state.js';

/** Methods that may answer `input_required` (MRTR "Supported Requests"). */
export const ASKING_METHODS: ReadonlySet<string> = new Set(['tools/call', 'resources/read', 'prompts/get']);

interface Waiting {
  resolve(value: JsonValue): void;
  reject(error: unknown): void;
}

/** The server-to-client requests of one handshake-era session that still wait for a response. */
export class OutgoingRequests {
  private next = 0;
  private readonly waiting = new Map<RequestId, Waiting>();

  /** `prefix` starts every id (a replica's id goes in it, so its answers can be routed back). */
  constructor(private readonly prefix = 'cloudg-') {}

  /** Send `method` through `send` and wait for the client's response, or `signal`. */
  request(
    method: string,
    params: Record<string, unknown>,
    send: (message: JsonRpcMessage) => void,
    signal: AbortSignal,
  ): Promise<JsonValue> {
    this.next += 1;
    // A prefix the client's own ids are unlikely to share, so its responses are easy to tell apart.
    const id = `${this.prefix}${this.next}`;
    return new Promise<JsonValue>((resolve, reject) => {
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      const onAbort = () => {
        this.waiting.delete(id);
        // Tell the client to stop asking the person; its late answer is then ignored.
        send(notification('notifications/cancelled', { requestId: id, reason: 'The request was cancelled' }));
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(id, {
        resolve: (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** Settle the question a response answers; false when it answers nothing this session asked. */
  settle(message: Record<string, unknown>): boolean {
    const id = message.id;
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    const waiting = this.waiting.get(id);
    if (!waiting) return false;
    this.waiting.delete(id);
    if (isObject(message.error)) {
      const { code, message: text } = message.error;
      waiting.reject(
        new ProtocolError(
          typeof code === 'number' ? code : ErrorCode.InternalError,
          `The client refused the request: ${typeof text === 'string' ? text : 'no reason given'}`,
        ),
      );
    } else {
      waiting.resolve((isObject(message.result) ? message.result : {}) as JsonValue);
    }
    return true;
  }

  /** The session ends: nobody will answer. */
  rejectAll(): void {
    for (const waiting of this.waiting.values()) waiting.reject(new CancelledError('The session closed'));
    this.waiting.clear();
  }
}

function declares(capabilities: Record<string, unknown> | undefined, name: ClientCapabilityName): boolean {
  return isObject(capabilities?.[name]);
}

/** The port of a handshake-era request: questions go out as requests on the request's channel. */
export function handshakePort(rc: RequestContext): ClientPort {
  return {
    supports: (capability) => declares(rc.session.clientCapabilities, capability),
    ask: async (questions, signal) => {
      // Without a stream of its own (a JSON answer), the question can only take the session's
      // GET stream; refused at once when that is closed rather than queued for a stream that
      // may never open.
      if (!rc.ownStream && !rc.session.reachesClient) throw new ClientUnreachableError();
      const entries = Object.entries(questions);
      const answers = await Promise.all(
        entries.map(([, question]) =>
          rc.session.outgoing.request(
            question.method,
            question.params as Record<string, unknown>,
            rc.notify,
            signal,
          ),
        ),
      );
      return Object.fromEntries(entries.map(([key], i) => [key, answers[i] as JsonValue]));
    },
  };
}

/** What a 2026 attempt knows and gathers: earlier answers, this retry's answers, the keys used. */
export interface ModernAsking {
  port: ClientPort;
  /** The answers the handler asked for and got, by key: carried into the next round's state. */
  used: Record<string, JsonValue>;
  binding: RequestStateBinding;
}

/**
 * The port of a 2026 request. The request's state is verified first (a tampered, expired or
 * misdirected state refuses the request with -32602 before anything runs); answers the handler
 * never asks for are ignored, as are malformed ones, which are asked again.
 */
export function modernAsking(rc: RequestContext): ModernAsking {
  const binding: RequestStateBinding = { principal: rc.principal.id, method: rc.method, params: rc.params };
  const { params } = rc;
  if (params.inputResponses !== undefined && !isObject(params.inputResponses)) {
    throw new ProtocolError(ErrorCode.InvalidParams, 'inputResponses must be an object');
  }
  const earlier =
    params.requestState === undefined
      ? {}
      : rc.session.server.requestState.open(params.requestState, binding);
  const given = isObject(params.inputResponses) ? params.inputResponses : {};
  const used: Record<string, JsonValue> = {};
  const port: ClientPort = {
    supports: (capability) => declares(rc.envelope?.clientCapabilities, capability),
    ask: async (questions) => {
      const missing: Record<string, ClientQuestion> = {};
      for (const [key, question] of Object.entries(questions)) {
        const answer = Object.hasOwn(given, key) ? given[key] : earlier[key];
        if (isObject(answer)) used[key] = answer as JsonValue;
        else missing[key] = question;
      }
      if (Object.keys(missing).length > 0) throw new InputRequiredSignal(missing);
      return Object.fromEntries(Object.keys(questions).map((key) => [key, used[key] as JsonValue]));
    },
  };
  return { port, used, binding };
}

/**
 * Run a method that may ask its client, with the era's port in `rc.client`. In 2026, questions
 * left unanswered become the `input_required` result, with the signed state of what was answered.
 */
export async function withClientPort(
  rc: RequestContext,
  run: () => Promise<Record<string, unknown>>,
): Promise<Record<string, unknown>> {
  if (rc.era !== 'modern') {
    rc.client = handshakePort(rc);
    return run();
  }
  const asking = modernAsking(rc);
  rc.client = asking.port;
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof InputRequiredSignal)) throw error;
    return inputRequiredResult(rc, asking, error);
  }
}

/** The `input_required` answer of a 2026 attempt: the open questions and the signed state so far. */
export function inputRequiredResult(
  rc: RequestContext,
  asking: ModernAsking,
  signal: InputRequiredSignal,
): Record<string, unknown> {
  return {
    resultType: 'input_required',
    inputRequests: signal.requests,
    requestState: rc.session.server.requestState.seal(asking.binding, asking.used),
  };
}

/** How long the server waits for the client's `roots/list` answer before keeping the roots it has. */
const ROOTS_TIMEOUT_MS = 30_000;

/**
 * The client's roots as URIs, asked outside any call (handshake era, a client that declared
 * `roots`); undefined when the client cannot or did not answer, which leaves the roots as they were.
 */
export async function fetchClientRoots(
  session: { clientCapabilities: Record<string, unknown> | undefined; outgoing: OutgoingRequests },
  send: (message: JsonRpcMessage) => void,
  logger: { debug(fields: object, message: string): void },
): Promise<string[] | undefined> {
  if (!declares(session.clientCapabilities, 'roots')) return undefined;
  try {
    const answer = await session.outgoing.request(
      'roots/list',
      {},
      send,
      AbortSignal.timeout(ROOTS_TIMEOUT_MS),
    );
    const roots = isObject(answer) && Array.isArray(answer.roots) ? answer.roots : [];
    return roots.flatMap((root) => (isObject(root) && typeof root.uri === 'string' ? [root.uri] : []));
  } catch (error) {
    logger.debug({ err: error }, 'roots/list failed; keeping the allowed roots');
    return undefined;
  }
}

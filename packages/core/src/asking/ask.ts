/**
 * The asking half of ToolContext, kept out of context.ts: capability checks, the question's own
 * timeout, the policy on what is asked (output pipeline) and answered (input pipeline), and the
 * checks on what comes back.
 */
import { InvalidArgumentsError } from '../errors.js';
import { isPlainObject, type JsonValue } from '../json.js';
import { ClientAnswerTimeoutError, type ClientPort, MissingClientCapabilityError } from './port.js';
import { CAPABILITY_OF, type ClientQuestion } from './types.js';

/** How long a question waits for its answer unless the caller says otherwise: a person reads it. */
export const DEFAULT_ANSWER_TIMEOUT_MS = 10 * 60_000;

export interface AskFilters {
  /** The caller's output pipeline (what the person or the client's model is shown). */
  outbound: (value: JsonValue) => Promise<JsonValue>;
  /** The caller's input pipeline (pseudonyms the person typed become real values again). */
  inbound: (value: JsonValue) => Promise<JsonValue>;
}

export interface AskOptions {
  /** Milliseconds to wait for the answers (handshake era); default ten minutes. */
  timeoutMs?: number;
}

/** The text fields of a question, passed through the output pipeline; the rest unchanged. */
async function shownQuestion(question: ClientQuestion, filters: AskFilters): Promise<ClientQuestion> {
  if (question.method === 'elicitation/create') {
    const message = await filters.outbound(question.params.message);
    return {
      method: question.method,
      params: { ...question.params, message: typeof message === 'string' ? message : '' },
    };
  }
  if (question.method === 'sampling/createMessage') {
    const shown = await filters.outbound(question.params as unknown as JsonValue);
    return { method: question.method, params: shown as unknown as typeof question.params };
  }
  return question;
}

export async function askClient(
  port: ClientPort | undefined,
  questions: Record<string, ClientQuestion>,
  signal: AbortSignal,
  filters: AskFilters,
  options: AskOptions = {},
): Promise<Record<string, JsonValue>> {
  // Every capability is checked before anything is asked, so a refusal leaves nothing half-asked.
  for (const question of Object.values(questions)) {
    const capability = CAPABILITY_OF[question.method];
    if (!port?.supports(capability)) throw new MissingClientCapabilityError(capability);
  }
  const shown: Record<string, ClientQuestion> = {};
  for (const [key, question] of Object.entries(questions))
    shown[key] = await shownQuestion(question, filters);
  const ms = options.timeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(ms);
  const both = AbortSignal.any([signal, timeout]);
  let answers: Record<string, JsonValue>;
  try {
    answers = await (port as ClientPort).ask(shown, both);
  } catch (error) {
    if (timeout.aborted && !signal.aborted) {
      throw new ClientAnswerTimeoutError(`The client did not answer within ${ms} ms`);
    }
    throw error;
  }
  const out: Record<string, JsonValue> = {};
  for (const [key, question] of Object.entries(questions)) {
    const answer = answers[key];
    checkAnswer(question, answer);
    out[key] = await filters.inbound(answer as JsonValue);
  }
  return out;
}

/** A malformed answer is the client's error (-32602), never a crash further down. */
function checkAnswer(question: ClientQuestion, answer: JsonValue | undefined): void {
  const bad = (what: string) =>
    new InvalidArgumentsError(`The client's answer to ${question.method} is not valid: ${what}`);
  if (!isPlainObject(answer)) throw bad('expected an object');
  if (question.method === 'elicitation/create') {
    if (!['accept', 'decline', 'cancel'].includes(String(answer.action))) throw bad('unknown action');
    if (answer.content !== undefined && !isPlainObject(answer.content)) throw bad('content is not an object');
  } else if (question.method === 'sampling/createMessage') {
    if (!isPlainObject(answer.content) && !Array.isArray(answer.content)) throw bad('no content');
  } else if (!Array.isArray(answer.roots)) {
    throw bad('no roots list');
  }
}

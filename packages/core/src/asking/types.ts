/**
 * What a handler can ask the client mid-call (MCP `elicitation/create`, `sampling/createMessage`,
 * `roots/list`), in the shapes of the 2025-11-25 and 2026-07-28 schemas. Only the fields cloudg
 * sends or reads are typed; a client's extra fields pass through untouched.
 */
import type { JsonObject, JsonValue } from '../json.js';

/** A primitive property of an elicitation form (the schema allows only flat objects). */
export interface ElicitProperty {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  title?: string;
  description?: string;
  default?: JsonValue;
  enum?: string[];
  [extra: string]: JsonValue | undefined;
}

export interface ElicitParams {
  /** What the person is asked; passes through the caller's output pipeline before it is sent. */
  message: string;
  requestedSchema: {
    type: 'object';
    properties: Record<string, ElicitProperty>;
    required?: string[];
  };
}

export type ElicitAction = 'accept' | 'decline' | 'cancel';

export interface ElicitResult {
  action: ElicitAction;
  /** The form's values, present when `action` is `accept`. */
  content?: Record<string, string | number | boolean | string[]>;
}

export interface SamplingTextContent {
  type: 'text';
  text: string;
}

export interface SamplingMessage {
  role: 'user' | 'assistant';
  content: SamplingTextContent | JsonObject;
}

export interface SampleParams {
  messages: SamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: JsonObject;
  includeContext?: 'none' | 'thisServer' | 'allServers';
}

export interface SampleResult {
  role: 'user' | 'assistant';
  content: SamplingTextContent | JsonObject;
  model: string;
  stopReason?: string;
}

export interface Root {
  uri: string;
  name?: string;
}

/** One question, as it goes on the wire (the value of an `inputRequests` entry). */
export type ClientQuestion =
  | { method: 'elicitation/create'; params: { mode: 'form' } & ElicitParams }
  | { method: 'sampling/createMessage'; params: SampleParams }
  | { method: 'roots/list'; params: JsonObject };

/** The client capability each question needs (its key in `ClientCapabilities`). */
export const CAPABILITY_OF: Record<ClientQuestion['method'], 'elicitation' | 'sampling' | 'roots'> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

export type ClientCapabilityName = (typeof CAPABILITY_OF)[keyof typeof CAPABILITY_OF];

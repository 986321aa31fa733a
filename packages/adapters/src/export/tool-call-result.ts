/**
 * A tool call as an agent framework wants it: always a result, never a throw. The layer already
 * returns tool failures as `isError` results; the two things it throws (an unknown or hidden
 * tool name, arguments that are not an object) become error results here too, with the same
 * message the wire would carry, because a model can read and correct those. Anything else (a
 * bug) still throws.
 */
import { isMcpLayerError, type JsonObject } from '@cloudg/core';
import type { ExportedDefinitions } from './export-definitions.js';
import type { DispatchOptions } from './layer-methods.js';

export function errorResult(message: string, data?: unknown): JsonObject {
  const result: JsonObject = { content: [{ type: 'text', text: message }], isError: true };
  if (data !== undefined) result._meta = { 'cloudg/error': data as JsonObject };
  return result;
}

/** Arguments as a framework hands them over: an object, or a JSON text of one (OpenAI). */
export function parseArguments(raw: unknown): Record<string, unknown> | string {
  let value = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return {};
    try {
      value = JSON.parse(raw);
    } catch {
      return 'Tool arguments are not valid JSON: send one JSON object';
    }
  }
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) return 'Tool arguments must be a JSON object';
  return value as Record<string, unknown>;
}

export async function callToolForAgent(
  defs: ExportedDefinitions,
  name: string,
  rawArguments: unknown,
  options: DispatchOptions = {},
): Promise<JsonObject> {
  const args = parseArguments(rawArguments);
  if (typeof args === 'string') return errorResult(args);
  try {
    return await defs.handlers['tools/call']({ name, arguments: args }, options);
  } catch (error) {
    if (isMcpLayerError(error)) return errorResult(error.message, error.data);
    throw error;
  }
}

/**
 * What a model reads of a result: its text blocks, one per line; resource links by URI; the
 * structured content as JSON when there is no text at all.
 */
export function resultText(result: JsonObject): string {
  const parts: string[] = [];
  const content = Array.isArray(result.content) ? result.content : [];
  for (const block of content) {
    if (typeof block !== 'object' || block === null || Array.isArray(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') parts.push(block.text);
    else if (block.type === 'resource_link' && typeof block.uri === 'string') parts.push(block.uri);
    else if (block.type === 'resource' && typeof block.resource === 'object' && block.resource !== null) {
      const resource = block.resource as JsonObject;
      if (typeof resource.text === 'string') parts.push(resource.text);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent);
  }
  return parts.join('\n');
}

/** The tools of a layer or an export, as `{ name, description, inputSchema }`. */
export function toolDefinitions(defs: ExportedDefinitions): {
  name: string;
  description: string;
  inputSchema: JsonObject;
}[] {
  return defs.tools.map((tool) => ({
    name: String(tool.name),
    description: typeof tool.description === 'string' ? tool.description : '',
    inputSchema: (tool.inputSchema ?? { type: 'object', properties: {} }) as JsonObject,
  }));
}

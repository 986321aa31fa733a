/**
 * The `requestState` of 2026-07-28 `input_required` results (multi round-trip requests). The
 * client echoes it on its retry, so it is attacker-controlled input: it is signed with HMAC-SHA256
 * under a server key and checked before anything in it is believed. It binds the answers gathered
 * so far to the caller, the method, a digest of the request's salient parameters and a short
 * expiry, so state cannot be edited, presented by another principal, reused on another request,
 * or kept past its expiry. Nothing is stored on the server: any replica holding the same key
 * (configured, not generated, when several replicas serve) can verify it.
 *
 * Not single-use: a client may retry the same request with the same state until it expires, which
 * repeats only questions already answered. Work with side effects happens after the questions.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ErrorCode, type JsonValue } from '@cloudg/core';
import { ProtocolError } from '../jsonrpc/errors.js';
import { isObject } from '../jsonrpc/messages.js';

/** How long a state stays valid: long enough for a person to read and answer a form. */
export const DEFAULT_REQUEST_STATE_TTL_MS = 15 * 60_000;

/** What the signed state carries. */
interface StatePayload {
  v: 1;
  /** The principal that was asked. */
  p: string;
  /** The method and a digest of the request's salient parameters. */
  m: string;
  d: string;
  /** Expiry, epoch milliseconds. */
  x: number;
  /** Answers gathered in earlier rounds, by question key. */
  a: Record<string, JsonValue>;
}

export interface RequestStateBinding {
  principal: string;
  method: string;
  /** The request's parameters without the MRTR fields and `_meta`. */
  params: Record<string, unknown>;
}

/** A stable JSON text (sorted keys) so the digest does not depend on key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isObject(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The fields that identify a request: everything but `_meta`, `inputResponses` and `requestState`. */
export function salientParams(params: Record<string, unknown>): Record<string, unknown> {
  const { _meta, inputResponses, requestState, ...rest } = params;
  return rest;
}

function digest(params: Record<string, unknown>): string {
  return createHash('sha256').update(canonical(params)).digest('base64url');
}

function refused(reason: string): ProtocolError {
  return new ProtocolError(ErrorCode.InvalidParams, `Invalid requestState: ${reason}`);
}

export class RequestStateCodec {
  private readonly key: Buffer;
  private readonly ttlMs: number;
  private readonly now: () => number;

  /**
   * `key` is the HMAC key, at least 32 bytes; replicas that serve one client share it. Without
   * one a random key is made, valid only for this process.
   */
  constructor(options: { key?: string | Uint8Array; ttlMs?: number; now?: () => number } = {}) {
    const key = options.key === undefined ? randomBytes(32) : Buffer.from(options.key);
    if (key.length < 32) throw new RangeError('requestStateKey must be at least 32 bytes');
    this.key = key;
    this.ttlMs = options.ttlMs ?? DEFAULT_REQUEST_STATE_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  private mac(body: string): Buffer {
    return createHmac('sha256', this.key).update(body).digest();
  }

  seal(binding: RequestStateBinding, answers: Record<string, JsonValue>): string {
    const payload: StatePayload = {
      v: 1,
      p: binding.principal,
      m: binding.method,
      d: digest(salientParams(binding.params)),
      x: this.now() + this.ttlMs,
      a: answers,
    };
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.mac(body).toString('base64url')}`;
  }

  /** The answers of a state that passes every check; a -32602 ProtocolError otherwise. */
  open(state: unknown, binding: RequestStateBinding): Record<string, JsonValue> {
    if (typeof state !== 'string') throw refused('must be a string');
    const dot = state.indexOf('.');
    if (dot <= 0) throw refused('integrity check failed');
    const body = state.slice(0, dot);
    const given = Buffer.from(state.slice(dot + 1), 'base64url');
    const expected = this.mac(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw refused('integrity check failed');
    }
    let payload: StatePayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as StatePayload;
    } catch {
      throw refused('integrity check failed');
    }
    if (payload.v !== 1 || !isObject(payload.a)) throw refused('integrity check failed');
    if (payload.x < this.now()) throw refused('expired; call again without it');
    if (payload.p !== binding.principal) throw refused('issued to another caller');
    if (payload.m !== binding.method || payload.d !== digest(salientParams(binding.params))) {
      throw refused('issued for another request');
    }
    return payload.a;
  }
}

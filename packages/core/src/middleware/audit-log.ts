/**
 * `AuditLogMiddleware`: one JSON line per call (tools, resources, prompts, completions), cache
 * hits and rejected calls included. Argument values never reach the log, only keyed hashes.
 */
import { createHmac, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { canonicalJson, type JsonObject } from '../json.js';
import type { AppAgnosticMiddleware } from './app-agnostic.js';
import {
  type CallOutcome,
  describeError,
  isErrorResult,
  isoUtc,
  outcomeOfError,
  round2,
  transformReportOf,
} from './outcome.js';
import type { CallInfo, CallResult, NextFn } from './types.js';

export const AUDIT_LOGGER_NAME = 'cloudg.mcp.audit';
export const AUDIT_SALT_ENV = 'CLOUDG_MCP_AUDIT_SALT';

export interface AuditLogOptions {
  /** JSONL file to append to; created with mode 0600, its directory created if needed. */
  path?: string;
  /** Alternatively, a stream that receives the lines. */
  stream?: Writable;
  /** HMAC key for argument hashes. Default `$CLOUDG_MCP_AUDIT_SALT`, else random per process. */
  salt?: string | Uint8Array;
  /** `false` records argument keys only. Default true. */
  hashValues?: boolean;
}

/** One audit line, before serialisation. Keys are written in sorted order. */
export interface AuditRecord {
  argument_hashes?: Record<string, string>;
  argument_keys: string[];
  duration_ms: number;
  error?: { code: number | string | null; type?: string };
  event: 'mcp.call';
  kind: string;
  name: string;
  outcome: CallOutcome;
  principal: { id: string; roles: string[] };
  request_id: string | number | null;
  sensitivity: string;
  transforms?: JsonObject;
  ts: string;
}

/** A random salt lives as long as the process, so hashes are comparable within one run. */
let processSalt: Buffer | undefined;

function defaultSalt(): string | Buffer {
  const fromEnv = process.env[AUDIT_SALT_ENV];
  if (fromEnv) return fromEnv;
  processSalt ??= randomBytes(32);
  return processSalt;
}

/** First 16 hex characters of HMAC-SHA256(salt, canonical JSON of the value). */
export function auditHash(salt: string | Uint8Array | KeyObject, value: unknown): string {
  return createHmac('sha256', salt).update(canonicalText(value)).digest('hex').slice(0, 16);
}

function canonicalText(value: unknown): string {
  // Strings, booleans and finite numbers have one JSON form already: skip the generic walk.
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number' && Number.isFinite(value)) return JSON.stringify(value);
  try {
    return canonicalJson(value);
  } catch {
    // A value JSON cannot represent (a cycle) still gets a hash rather than breaking the call.
    return String(value);
  }
}

/**
 * One line of JSON with keys sorted at every depth. The record is built in key order, so only
 * the transform report, whose keys come from the policy, needs the canonical walk.
 */
function serialise(record: AuditRecord): string {
  if (record.transforms === undefined) return `${JSON.stringify(record)}\n`;
  return `${JSON.stringify({ ...record, transforms: JSON.parse(canonicalJson(record.transforms)) })}\n`;
}

export class AuditLogMiddleware {
  /** Pass this to the layer (`middleware: [audit.middleware]` or `layer.use(audit.middleware)`). */
  readonly middleware: AppAgnosticMiddleware;
  /** The salt as a key object: importing the raw key on every hash costs more than the hash. */
  private readonly salt: KeyObject;
  private readonly hashValues: boolean;
  private readonly stream: Writable | undefined;
  private fd: number | undefined;
  /** Set by `close()` on a file-backed instance: later lines are dropped, not sent elsewhere. */
  private closed = false;
  private readonly children = new WeakMap<Logger, Logger>();
  /** The last layer logger seen, for reporting write failures. */
  private logger: Logger | undefined;

  constructor(options: AuditLogOptions = {}) {
    const salt = options.salt ?? defaultSalt();
    this.salt = createSecretKey(typeof salt === 'string' ? Buffer.from(salt, 'utf8') : salt);
    this.hashValues = options.hashValues ?? true;
    this.stream = options.stream;
    if (options.path !== undefined) {
      mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
      this.fd = openSync(options.path, 'a', 0o600);
    }
    // A stream reports write errors as events; without a listener they would crash the process.
    this.stream?.on('error', (error) => this.logger?.error({ err: error }, 'audit log write failed'));
    this.middleware = (info, next) => this.handle(info, next);
  }

  private async handle<TApp>(info: CallInfo<TApp>, next: NextFn<TApp>): Promise<CallResult> {
    const started = performance.now();
    let result: CallResult;
    try {
      result = await next(info);
    } catch (error) {
      const { type, code } = describeError(error);
      this.write(info, started, outcomeOfError(error), { code, type }, undefined);
      throw error;
    }
    if (isErrorResult(result)) {
      this.write(info, started, 'error', { code: result.errorCode ?? null }, transformReportOf(result));
    } else {
      this.write(info, started, 'ok', undefined, transformReportOf(result));
    }
    return result;
  }

  private record<TApp>(
    info: CallInfo<TApp>,
    durationMs: number,
    outcome: CallOutcome,
    error?: AuditRecord['error'],
    transforms?: JsonObject,
  ): AuditRecord {
    const keys = Object.keys(info.arguments).sort();
    let hashes: Record<string, string> | undefined;
    if (this.hashValues && keys.length > 0) {
      hashes = {};
      for (const key of keys) hashes[key] = auditHash(this.salt, info.arguments[key]);
    }
    const reported = transforms && Object.keys(transforms).length > 0 ? transforms : undefined;
    // Keys inserted in sorted order, which `serialise` relies on. Plain assignments: object
    // spreads here were the most expensive step of an audited call.
    const record = {} as AuditRecord;
    if (hashes) record.argument_hashes = hashes;
    record.argument_keys = keys;
    record.duration_ms = round2(durationMs);
    if (error) record.error = error;
    record.event = 'mcp.call';
    record.kind = info.kind;
    record.name = info.name;
    record.outcome = outcome;
    record.principal = { id: info.principal.id, roles: info.principal.sortedRoles() };
    record.request_id = info.context.requestId;
    record.sensitivity = info.spec.sensitivity;
    if (reported) record.transforms = reported;
    record.ts = isoUtc(new Date());
    return record;
  }

  /** Never throws: an audit failure is logged and the call goes on. */
  private write<TApp>(
    info: CallInfo<TApp>,
    started: number,
    outcome: CallOutcome,
    error: AuditRecord['error'],
    transforms: JsonObject | undefined,
  ): void {
    const logger = info.context.layer.logger;
    this.logger = logger;
    if (this.closed) return;
    try {
      const record = this.record(info, performance.now() - started, outcome, error, transforms);
      if (this.fd !== undefined) {
        writeSync(this.fd, serialise(record));
      } else if (this.stream) {
        this.stream.write(serialise(record));
      } else {
        this.auditLogger(logger).info({ audit: JSON.parse(serialise(record)) }, 'mcp.call');
      }
    } catch (err) {
      logger.error({ err }, 'audit log write failed');
    }
  }

  private auditLogger(parent: Logger): Logger {
    let child = this.children.get(parent);
    if (!child) {
      child = parent.child({ name: AUDIT_LOGGER_NAME });
      this.children.set(parent, child);
    }
    return child;
  }

  /** Close the file opened for `path`. Later calls are still served; their lines are dropped. */
  close(): void {
    if (this.fd === undefined) return;
    const fd = this.fd;
    this.fd = undefined;
    this.closed = true;
    closeSync(fd);
  }
}

/**
 * `AuditLogMiddleware`: one JSON line per request that reaches the layer (tools, resources,
 * prompts, completions), cache hits, rejected calls and requests refused before the chain
 * (unknown or hidden names) included. Argument values never reach the log, only keyed hashes,
 * and neither do URIs the caller wrote: a resource is named by its registry URI or template.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Writable } from 'node:stream';
import type { Logger } from 'pino';
import type { CallKind } from '../context.js';
import { NotFoundError } from '../errors.js';
import { canonicalJson, type JsonObject } from '../json.js';
import type { AnySpec } from '../specs/index.js';
import type { AppAgnosticMiddleware } from './app-agnostic.js';
import { AUDIT_HASH_LENGTH, type AuditHasher, createAuditHasher } from './audit-hash.js';
import {
  type CallOutcome,
  describeError,
  isErrorResult,
  isoUtc,
  outcomeOfError,
  round2,
  transformReportOf,
} from './outcome.js';
import type { CallInfo, CallResult, NextFn, RefusedCall } from './types.js';

export { AUDIT_HASH_LENGTH, type AuditHasher, auditHash, createAuditHasher } from './audit-hash.js';

export const AUDIT_LOGGER_NAME = 'cloudg.mcp.audit';
export const AUDIT_SALT_ENV = 'CLOUDG_MCP_AUDIT_SALT';

export interface AuditLogOptions {
  /** JSONL file to append to; created with mode 0600, its directory created if needed. */
  path?: string;
  /** Alternatively, a stream that receives the lines. */
  stream?: Writable;
  /** HMAC key for argument hashes. Default `$CLOUDG_MCP_AUDIT_SALT`, else random per process. */
  salt?: string | Uint8Array;
  /**
   * The keyed hash to use instead of one built from `salt`: pass the policy's (`Policy.auditHasher`)
   * so this log's 16-hex hashes start with the decision log's 12-hex ones for the same value.
   */
  hasher?: AuditHasher;
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
  /**
   * Who called. `client_id` is the OAuth client a signed-in caller used (the principal's
   * `client_id` attribute, set from the access token); the token itself is never recorded.
   */
  principal: { client_id?: string; id: string; roles: string[] };
  request_id: string | number | null;
  /** Absent for a request that matched no primitive. */
  sensitivity?: string;
  transforms?: JsonObject;
  ts: string;
  /** Keyed hash of the URI the caller wrote, when `name` is a template or `UNMATCHED_URI`. */
  uri_hash?: string;
}

/** The `name` of a request for a URI that matched no resource or template the caller may see. */
export const UNMATCHED_URI = '(unmatched uri)';

/** Who and what one audit line is about. */
interface Subject {
  kind: CallKind;
  name: string;
  /** A URI the caller wrote, recorded only as a hash. */
  uri?: string;
  sensitivity?: string;
  arguments: Record<string, unknown>;
  principal: { id: string; sortedRoles(): string[]; attributes?: Readonly<Record<string, unknown>> };
  requestId: string | number | null;
}

/**
 * The name a line records: the registry's own (a tool or prompt name, a static resource's URI,
 * a template's URI template), never a URI the caller wrote, which may carry asset references.
 */
function naming(
  kind: CallKind,
  sent: string,
  spec: AnySpec | undefined,
  nameIsUri: boolean,
): { name: string; uri?: string } {
  if (!spec) return nameIsUri ? { name: UNMATCHED_URI, uri: sent } : { name: sent };
  switch (spec.kind) {
    case 'template':
      return kind === 'resource' ? { name: spec.uriTemplate, uri: sent } : { name: spec.uriTemplate };
    case 'resource':
      return { name: spec.uri };
    default:
      return kind === 'completion' ? { name: sent } : { name: spec.name };
  }
}

/** A random salt lives as long as the process, so hashes are comparable within one run. */
let processSalt: Buffer | undefined;

function defaultSalt(): string | Buffer {
  const fromEnv = process.env[AUDIT_SALT_ENV];
  if (fromEnv) return fromEnv;
  processSalt ??= randomBytes(32);
  return processSalt;
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
  /**
   * Pass this to the layer (`middleware: [audit.middleware]` or `layer.use(audit.middleware)`). It
   * carries `refused`, through which the layer reports the requests it answers before the chain.
   */
  readonly middleware: AppAgnosticMiddleware;
  private readonly hasher: AuditHasher;
  private readonly hashValues: boolean;
  private readonly stream: Writable | undefined;
  private fd: number | undefined;
  /** Set by `close()` on a file-backed instance: later lines are dropped, not sent elsewhere. */
  private closed = false;
  private readonly children = new WeakMap<Logger, Logger>();
  /** The last layer logger seen, for reporting write failures. */
  private logger: Logger | undefined;

  constructor(options: AuditLogOptions = {}) {
    this.hasher = options.hasher ?? createAuditHasher(options.salt ?? defaultSalt());
    this.hashValues = options.hashValues ?? true;
    this.stream = options.stream;
    if (options.path !== undefined) {
      mkdirSync(dirname(options.path), { recursive: true, mode: 0o700 });
      this.fd = openSync(options.path, 'a', 0o600);
    }
    // A stream reports write errors as events; without a listener they would crash the process.
    this.stream?.on('error', (error) => this.logger?.error({ err: error }, 'audit log write failed'));
    const middleware = (<TApp>(info: CallInfo<TApp>, next: NextFn<TApp>) =>
      this.handle(info, next)) as AppAgnosticMiddleware;
    this.middleware = Object.assign(middleware, { refused: (call: RefusedCall) => this.refused(call) });
  }

  private async handle<TApp>(info: CallInfo<TApp>, next: NextFn<TApp>): Promise<CallResult> {
    const started = performance.now();
    const subject = () => this.subjectOfCall(info);
    const logger = info.context.layer.logger;
    let result: CallResult;
    try {
      result = await next(info);
    } catch (error) {
      const { type, code } = describeError(error);
      this.write(logger, subject, started, outcomeOfError(error), { code, type }, undefined);
      throw error;
    }
    if (isErrorResult(result)) {
      this.write(
        logger,
        subject,
        started,
        'error',
        { code: result.errorCode ?? null },
        transformReportOf(result),
      );
    } else {
      this.write(logger, subject, started, 'ok', undefined, transformReportOf(result));
    }
    return result;
  }

  /**
   * A request the layer answered before the chain: `not_found` when it matched nothing the caller
   * may see (or, for a completion, nothing to complete), else the outcome of its error.
   */
  private refused(call: RefusedCall): void {
    const notFound = !call.spec || call.error === undefined || call.error instanceof NotFoundError;
    const outcome: CallOutcome = notFound ? 'not_found' : outcomeOfError(call.error);
    let error: AuditRecord['error'];
    if (call.error !== undefined) {
      const { type, code } = describeError(call.error);
      error = { code, type };
    }
    this.write(call.logger, () => this.subjectOfRefusal(call), call.started, outcome, error, undefined);
  }

  private subjectOfCall<TApp>(info: CallInfo<TApp>): Subject {
    const spec = info.spec as AnySpec;
    // Plain assignments, not spreads: this runs on every audited call.
    const named = naming(info.kind, info.name, spec, false);
    const subject: Subject = {
      kind: info.kind,
      name: named.name,
      sensitivity: spec.sensitivity,
      arguments: info.arguments,
      principal: info.principal,
      requestId: info.context.requestId,
    };
    if (named.uri !== undefined) subject.uri = named.uri;
    return subject;
  }

  private subjectOfRefusal(call: RefusedCall): Subject {
    const named = naming(call.kind, call.name, call.spec, call.nameIsUri);
    const subject: Subject = {
      kind: call.kind,
      name: named.name,
      arguments: call.arguments,
      principal: call.principal,
      requestId: call.requestId,
    };
    if (named.uri !== undefined) subject.uri = named.uri;
    if (call.spec) subject.sensitivity = call.spec.sensitivity;
    return subject;
  }

  private hash(value: unknown): string {
    return this.hasher(value).slice(0, AUDIT_HASH_LENGTH);
  }

  private record(
    subject: Subject,
    durationMs: number,
    outcome: CallOutcome,
    error?: AuditRecord['error'],
    transforms?: JsonObject,
  ): AuditRecord {
    const keys = Object.keys(subject.arguments).sort();
    let hashes: Record<string, string> | undefined;
    if (this.hashValues && keys.length > 0) {
      hashes = {};
      for (const key of keys) hashes[key] = this.hash(subject.arguments[key]);
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
    record.kind = subject.kind;
    record.name = subject.name;
    record.outcome = outcome;
    const clientId = subject.principal.attributes?.client_id;
    record.principal =
      typeof clientId === 'string'
        ? { client_id: clientId, id: subject.principal.id, roles: subject.principal.sortedRoles() }
        : { id: subject.principal.id, roles: subject.principal.sortedRoles() };
    record.request_id = subject.requestId;
    if (subject.sensitivity !== undefined) record.sensitivity = subject.sensitivity;
    if (reported) record.transforms = reported;
    record.ts = isoUtc(new Date());
    if (subject.uri !== undefined && this.hashValues) record.uri_hash = this.hash(subject.uri);
    return record;
  }

  /** Never throws: an audit failure is logged and the call goes on. */
  private write(
    logger: Logger,
    subject: () => Subject,
    started: number,
    outcome: CallOutcome,
    error: AuditRecord['error'],
    transforms: JsonObject | undefined,
  ): void {
    this.logger = logger;
    if (this.closed) return;
    try {
      const record = this.record(subject(), performance.now() - started, outcome, error, transforms);
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

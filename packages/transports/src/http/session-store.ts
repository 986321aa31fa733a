/**
 * Handshake-era HTTP sessions: 32 random hex characters, bound to the principal id and roles that
 * created them, expired after an idle period unless a stream is open or a request is running,
 * capped in number overall and per principal id.
 */
import { randomBytes } from 'node:crypto';
import type { Principal } from '@cloudg/core';
import type { JsonRpcMessage } from '../jsonrpc/messages.js';
import type { McpProtocolServer } from '../protocol/server.js';
import type { Session, SessionRelay } from '../protocol/session.js';
import { cancelSessionTasks } from '../tasks/session-tasks.js';
import type { SseStream } from './sse-stream.js';

/** Notifications kept for a session without an open GET stream. */
const OUTBOX_LIMIT = 1024;

export type SessionKind = 'streamable' | 'sse';

let useCounter = 0;

/** What a session is bound to: the principal id and its exact set of roles. */
export function bindingOf(principal: Principal): string {
  // JSON of [id, sorted roles]: no separator inside an id or a role can make two bindings equal.
  return JSON.stringify([principal.id, principal.sortedRoles()]);
}

/** A view of a session shared by replicas (see shared-sessions.ts). */
export interface SharedView {
  /** The session's id, from the shared store. */
  id: string;
  /** Where its server-initiated messages go: the shared store, which routes them to its stream. */
  deliver: (message: JsonRpcMessage | JsonRpcMessage[]) => void;
  relay: SessionRelay;
  questionPrefix: string;
}

export class HttpSession {
  readonly id: string;
  readonly principalId: string;
  readonly binding: string;
  /** Set for the view of a session shared by replicas. */
  private readonly deliver: ((message: JsonRpcMessage | JsonRpcMessage[]) => void) | undefined;
  readonly session: Session;
  lastSeen = Date.now();
  /** Order of last use (many uses share a millisecond), for ending the least recently used. */
  lastUse = ++useCounter;
  stream: SseStream | undefined;
  private readonly outbox: Array<JsonRpcMessage | JsonRpcMessage[]> = [];

  /**
   * A new session id with its protocol session, whose server-initiated messages go through `send`;
   * or, with `shared`, this replica's view of a session the replicas share. A view hears no
   * change notifications itself: the shared store writes them to the session's stream once.
   */
  constructor(
    protocol: McpProtocolServer,
    readonly kind: SessionKind,
    principal: Principal,
    shared?: SharedView,
  ) {
    this.id = shared?.id ?? randomBytes(16).toString('hex');
    this.principalId = principal.id;
    this.binding = bindingOf(principal);
    this.deliver = shared?.deliver;
    this.session = protocol.createSession({
      transport: kind === 'sse' ? 'sse' : 'http',
      principal,
      id: this.id,
      send: (message) => this.send(message),
      // A shared session's messages go wherever its GET stream is; a local one's only to an open one.
      reachable: () => this.deliver !== undefined || (this.stream !== undefined && !this.stream.closed),
      ...(shared ? { register: false, relay: shared.relay, questionPrefix: shared.questionPrefix } : {}),
    });
  }

  /** Whether this is a replica's view of a session shared by replicas. */
  get isSharedView(): boolean {
    return this.deliver !== undefined;
  }

  /** Deliver a server-initiated message: on the open stream, or queued until one opens. */
  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.deliver) {
      this.deliver(message);
      return;
    }
    if (this.stream && !this.stream.closed) {
      this.stream.send(message);
      return;
    }
    if (this.kind === 'sse') return;
    if (this.outbox.length >= OUTBOX_LIMIT) this.outbox.shift();
    this.outbox.push(message);
  }

  attach(stream: SseStream): void {
    this.stream = stream;
    for (const message of this.outbox.splice(0)) stream.send(message);
  }

  touch(): void {
    this.lastSeen = Date.now();
    this.lastUse = ++useCounter;
  }

  /** Whether this caller may use the session: the same principal id with exactly the same roles. */
  boundTo(principal: Principal): boolean {
    return principal.id === this.principalId && bindingOf(principal) === this.binding;
  }

  /** No open stream and no request running: ending it interrupts nothing. */
  get idle(): boolean {
    return (this.stream === undefined || this.stream.closed) && this.session.pending === 0;
  }
}

/** The outcome of asking for room for one more session. */
export type Admission = 'ok' | 'full' | 'quota';

export class SessionStore {
  private readonly sessions = new Map<string, HttpSession>();
  private readonly byPrincipal = new Map<string, Set<HttpSession>>();
  private reaper: NodeJS.Timeout | undefined;

  constructor(
    readonly maxSessions: number,
    readonly idleMs: number,
    readonly maxPerPrincipal: number = maxSessions,
  ) {}

  get full(): boolean {
    return this.sessions.size >= this.maxSessions;
  }

  /** Live sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /** Live sessions of one principal id. */
  countOf(principalId: string): number {
    return this.byPrincipal.get(principalId)?.size ?? 0;
  }

  /**
   * Room for one more session of this principal. At its quota, the principal's least recently
   * used idle session (no open stream, no request running) is ended to make room; with none idle
   * the answer is `quota`. Then `full` when the global cap is reached. Only the principal's own
   * sessions are ever ended, so one credential cannot push anyone else out.
   */
  admit(principalId: string): Admission {
    const own = this.byPrincipal.get(principalId);
    if (own && own.size >= this.maxPerPrincipal) {
      let oldest: HttpSession | undefined;
      for (const entry of own) {
        if (entry.idle && (!oldest || entry.lastUse < oldest.lastUse)) oldest = entry;
      }
      if (!oldest) return 'quota';
      this.end(oldest);
    }
    return this.full ? 'full' : 'ok';
  }

  add(entry: HttpSession): void {
    this.sessions.set(entry.id, entry);
    let own = this.byPrincipal.get(entry.principalId);
    if (!own) {
      own = new Set();
      this.byPrincipal.set(entry.principalId, own);
    }
    own.add(entry);
  }

  /** The local session or view with this id, whoever it belongs to. */
  get(id: string): HttpSession | undefined {
    return this.sessions.get(id);
  }

  /**
   * The session of this kind bound to this caller. Another principal's session, or one opened
   * with different roles, looks unknown.
   */
  find(id: string, kind: SessionKind, principal: Principal): HttpSession | undefined {
    const entry = this.sessions.get(id);
    if (!entry || entry.kind !== kind || !entry.boundTo(principal)) return undefined;
    return entry;
  }

  delete(id: string): void {
    const entry = this.sessions.get(id);
    if (!entry) return;
    this.sessions.delete(id);
    const own = this.byPrincipal.get(entry.principalId);
    own?.delete(entry);
    if (own?.size === 0) this.byPrincipal.delete(entry.principalId);
    entry.session.close();
    entry.stream?.end();
  }

  /**
   * Remove sessions unused for longer than the timeout that have no open stream and no request
   * running: a request that waits for hours (a 2025-11-25 `tasks/result`, a long live call) keeps
   * its session, and ending the session would cancel its tasks.
   */
  private reap(): void {
    const now = Date.now();
    for (const entry of [...this.sessions.values()]) {
      if (entry.idle && now - entry.lastSeen > this.idleMs) this.end(entry);
    }
  }

  /**
   * Drop a session this store ends by itself (idle, or pushed out by its principal's quota). A
   * session of this replica alone has then ended, and its tasks with it; a view of a shared
   * session has not (it may be in use on another replica), so its tasks go on.
   */
  private end(entry: HttpSession): void {
    this.delete(entry.id);
    if (!entry.isSharedView) cancelSessionTasks(entry.session.server, entry.binding, entry.id);
  }

  start(): void {
    const every = Math.max(1000, Math.min(60_000, Math.floor(this.idleMs / 4)));
    this.reaper = setInterval(() => this.reap(), every);
    this.reaper.unref();
  }

  closeAll(): void {
    if (this.reaper) clearInterval(this.reaper);
    for (const id of [...this.sessions.keys()]) this.delete(id);
  }
}

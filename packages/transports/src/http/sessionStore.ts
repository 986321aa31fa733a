/**
 * Handshake-era HTTP sessions: 32 random hex characters, bound to the principal that created
 * them, expired after an idle period unless a stream is open, capped in number.
 */
import { randomBytes } from 'node:crypto';
import type { Principal } from '@cloudg/core';
import type { JsonRpcMessage } from '../jsonrpc/messages.js';
import type { McpProtocolServer } from '../protocol/server.js';
import type { Session } from '../protocol/session.js';
import type { SseStream } from './sseStream.js';

/** Notifications kept for a session without an open GET stream. */
const OUTBOX_LIMIT = 1024;

export type SessionKind = 'streamable' | 'sse';

export class HttpSession {
  readonly id = randomBytes(16).toString('hex');
  readonly principalId: string;
  readonly session: Session;
  lastSeen = Date.now();
  stream: SseStream | undefined;
  private readonly outbox: Array<JsonRpcMessage | JsonRpcMessage[]> = [];

  /** A new session id with its protocol session, whose server-initiated messages go through `send`. */
  constructor(
    protocol: McpProtocolServer,
    readonly kind: SessionKind,
    principal: Principal,
  ) {
    this.principalId = principal.id;
    this.session = protocol.createSession({
      transport: kind === 'sse' ? 'sse' : 'http',
      principal,
      id: this.id,
      send: (message) => this.send(message),
    });
  }

  /** Deliver a server-initiated message: on the open stream, or queued until one opens. */
  send(message: JsonRpcMessage | JsonRpcMessage[]): void {
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
  }
}

export class SessionStore {
  private readonly sessions = new Map<string, HttpSession>();
  private reaper: NodeJS.Timeout | undefined;

  constructor(
    readonly maxSessions: number,
    readonly idleMs: number,
  ) {}

  get full(): boolean {
    return this.sessions.size >= this.maxSessions;
  }

  add(entry: HttpSession): void {
    this.sessions.set(entry.id, entry);
  }

  /** The session of this kind and principal; another principal's session looks unknown. */
  find(id: string, kind: SessionKind, principalId: string): HttpSession | undefined {
    const entry = this.sessions.get(id);
    if (!entry || entry.kind !== kind || entry.principalId !== principalId) return undefined;
    return entry;
  }

  delete(id: string): void {
    const entry = this.sessions.get(id);
    if (!entry) return;
    this.sessions.delete(id);
    entry.session.close();
    entry.stream?.end();
  }

  /** Remove sessions idle for longer than the timeout that have no open stream. */
  private reap(): void {
    const now = Date.now();
    for (const entry of [...this.sessions.values()]) {
      const streaming = entry.stream !== undefined && !entry.stream.closed;
      if (!streaming && now - entry.lastSeen > this.idleMs) this.delete(entry.id);
    }
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

/**
 * Handshake-era sessions in Redis, for @cloudg/transports' SharedSessionStore port: the state a
 * session needs to continue on another replica, the per-principal quota counted across replicas,
 * the stream's event log for `Last-Event-ID`, and the routing of stream messages and signals
 * through pub/sub. Each operation is one script (session-scripts.ts), so it is atomic and one
 * round trip; the consistency model is the port's. A replica proves it is alive by a heartbeat
 * key (three beats long): a stream claim or quota exemption of a replica that died lapses with
 * it, and its sessions expire `idleMs` after its last beat.
 */
import type { LogLevel } from '@cloudg/core';
import type {
  JsonRpcMessage,
  SharedSessionAdmission,
  SharedSessionChange,
  SharedSessionClaim,
  SharedSessionEvent,
  SharedSessionLimits,
  SharedSessionSignal,
  SharedSessionState,
  SharedSessionStore,
} from '@cloudg/transports';
import type { Redis } from 'ioredis';
import { shared } from './errors.js';
import type { ReplicaBus } from './replica-bus.js';
import type { LuaScript } from './script.js';
import { LOG_LENGTH } from './session-lua.js';
import { APPEND, CLAIM, DELETE, HEARTBEAT, LOAD, OPEN, RELEASE, REPLAY, UPDATE } from './session-scripts.js';

const STATE = 'sessions';

/** A Redis stream id, the only `Last-Event-ID` this store ever hands out. */
const EVENT_ID = /^\d+-\d+$/;

function pairs(flat: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) out[flat[i] as string] = flat[i + 1] as string;
  return out;
}

/** Log entries as events. */
function events(entries: [string, string[]][]): SharedSessionEvent[] {
  return entries.map(([id, fields]) => ({
    id,
    message: JSON.parse(pairs(fields).m ?? 'null') as JsonRpcMessage,
  }));
}

function json(text: string | undefined): Record<string, unknown> | undefined {
  return text === undefined ? undefined : (JSON.parse(text) as Record<string, unknown>);
}

export interface RedisSessionStoreOptions {
  /** How often this replica proves it is alive and keeps its streamed sessions. Default 2000 ms. */
  heartbeatMs?: number;
}

export class RedisSessionStore implements SharedSessionStore {
  readonly replica: string;
  private readonly held = new Set<string>();
  private readonly listeners = new Set<(signal: SharedSessionSignal) => void>();
  private readonly heartbeatMs: number;
  private timer: NodeJS.Timeout | undefined;
  private beating: Promise<void> | undefined;

  constructor(
    private readonly client: Redis,
    private readonly prefix: string,
    private readonly bus: ReplicaBus,
    options: RedisSessionStoreOptions = {},
  ) {
    this.replica = bus.replica;
    this.heartbeatMs = options.heartbeatMs ?? 2000;
    const hear = (text: string) => {
      const signal = JSON.parse(text) as SharedSessionSignal;
      for (const listener of [...this.listeners]) listener(signal);
    };
    bus.on(bus.direct, hear);
    bus.on(bus.broadcast, hear);
    bus.onResubscribed(() => {
      for (const listener of [...this.listeners]) listener({ type: 'resync' });
    });
  }

  private run(script: LuaScript, args: (string | number)[]): Promise<unknown> {
    return shared(STATE, async () => {
      await this.bus.ready;
      await this.alive();
      return script.run(this.client, [], [this.prefix, ...args]);
    });
  }

  /** The first beat before anything else: a claim is only as good as the claimant's heartbeat. */
  private alive(): Promise<void> {
    if (!this.beating) {
      this.beating = this.beat();
      this.timer = setInterval(() => {
        this.beat().catch(() => {});
      }, this.heartbeatMs);
      this.timer.unref();
      // Started again on the next operation when the first beat failed.
      this.beating.catch(() => {
        this.stopBeating();
      });
    }
    return this.beating;
  }

  private stopBeating(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.beating = undefined;
  }

  private async beat(): Promise<void> {
    const gone = (await HEARTBEAT.run(
      this.client,
      [],
      [this.prefix, this.replica, this.heartbeatMs * 3, ...this.held],
    )) as string[];
    for (const session of gone) {
      this.held.delete(session);
      for (const listener of [...this.listeners]) listener({ type: 'ended', session });
    }
  }

  /**
   * Resolves once this replica hears its signals and has proved it is alive; rejects when Redis
   * did not let it. createRedisSharedState waits for it before a replica serves.
   */
  async ready(): Promise<void> {
    await this.bus.ready;
    await this.alive();
  }

  async open(
    id: string,
    state: SharedSessionState,
    limits: SharedSessionLimits,
  ): Promise<SharedSessionAdmission> {
    return (await this.run(OPEN, [
      id,
      state.principalId,
      state.binding,
      limits.maxSessions,
      limits.maxPerPrincipal,
      limits.idleMs,
      state.logLevel,
    ])) as SharedSessionAdmission;
  }

  async load(id: string): Promise<SharedSessionState | undefined> {
    const answer = (await this.run(LOAD, [id])) as [string[], string[]] | null;
    if (!answer) return undefined;
    const fields = pairs(answer[0]);
    const clientInfo = json(fields.ci);
    const clientCapabilities = json(fields.cc);
    return {
      binding: fields.b ?? '',
      principalId: fields.pid ?? '',
      ...(fields.v === undefined ? {} : { protocolVersion: fields.v }),
      initialized: fields.i === '1',
      ...(clientInfo === undefined ? {} : { clientInfo }),
      ...(clientCapabilities === undefined ? {} : { clientCapabilities }),
      logLevel: (fields.ll ?? 'info') as LogLevel,
      subscriptions: pairs(answer[1]),
    };
  }

  async update(id: string, change: SharedSessionChange): Promise<void> {
    const fields: Record<string, string> = {};
    if (change.protocolVersion !== undefined) fields.v = change.protocolVersion;
    if (change.initialized !== undefined) fields.i = change.initialized ? '1' : '0';
    if (change.clientInfo !== undefined) fields.ci = JSON.stringify(change.clientInfo);
    if (change.clientCapabilities !== undefined) fields.cc = JSON.stringify(change.clientCapabilities);
    if (change.logLevel !== undefined) fields.ll = change.logLevel;
    // An empty list must not travel as `{}`: cjson would read it back as an object, not a list.
    const removed = change.unsubscribed ?? [];
    await this.run(UPDATE, [
      id,
      JSON.stringify(fields),
      JSON.stringify(change.subscribed ?? {}),
      removed.length === 0 ? '[]' : JSON.stringify(removed),
    ]);
  }

  async delete(id: string): Promise<void> {
    await this.run(DELETE, [id]);
  }

  async claimStream(id: string, lastEventId: string | undefined): Promise<SharedSessionClaim | undefined> {
    // Anything else was never an id of this log: resume from what no stream was handed.
    const after = lastEventId !== undefined && EVENT_ID.test(lastEventId) ? lastEventId : '';
    const answer = (await this.run(CLAIM, [id, this.replica, this.heartbeatMs * 3, after])) as
      | [1, string, [string, string[]][]]
      | [0 | -1];
    if (answer[0] !== 1) return undefined;
    this.held.add(id);
    return { tail: answer[1], events: events(answer[2]) };
  }

  async releaseStream(id: string): Promise<void> {
    this.held.delete(id);
    await this.run(RELEASE, [id, this.replica]);
  }

  async append(id: string, message: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    await this.run(APPEND, [id, JSON.stringify(message), LOG_LENGTH]);
  }

  async replay(id: string, after: string): Promise<SharedSessionEvent[]> {
    if (!EVENT_ID.test(after)) return [];
    return events((await this.run(REPLAY, [id, after])) as [string, string[]][]);
  }

  async signal(replica: string | undefined, signal: SharedSessionSignal): Promise<void> {
    const channel = replica === undefined ? this.bus.broadcast : `${this.prefix}replica:${replica}`;
    await shared(STATE, () => this.client.publish(channel, JSON.stringify(signal)));
  }

  onSignal(listener: (signal: SharedSessionSignal) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stop the heartbeat and retire this replica: its stream claims lapse at once. */
  async close(): Promise<void> {
    this.stopBeating();
    this.listeners.clear();
    this.held.clear();
    await this.client.del(`${this.prefix}replica:${this.replica}`).catch(() => {});
  }
}

/**
 * How the shared sessions' values travel through Redis: sealed (AES-256-GCM) with the vault key,
 * so that someone who can read or write Redis but lacks the key learns no identifier and plants
 * nothing a replica accepts. Each sealed value names the session it belongs to inside the
 * sealed text (a per-session label would grow the sealer's label cache without bound), so a
 * value copied into another session's hash, log or signal is refused like a forged one. Lookups
 * (a subscription's real URI, a principal's quota) are keyed digests: equal for every replica,
 * nothing else shows.
 *
 * Authentic is not enough for what may be copied again later within the same session: a log
 * entry also names its own event id (copied to a later place in the log, it no longer matches
 * its id), and a signal carries its send time and a random nonce, which the receiving replica
 * checks for freshness (session-freshness.ts).
 */
import { randomBytes } from 'node:crypto';
import type { VaultSealer } from '@cloudg/privacy';
import type { JsonRpcMessage, SharedSessionSignal } from '@cloudg/transports';

const FIELD = 'session-field';
const ENTRY = 'session-log';
const SIGNAL = 'session-signal';
const CHANGE = 'change';

/** A signal opened, with what proves it fresh: when it was sent (sender's clock) and its nonce. */
export interface OpenedSignal {
  signal: SharedSessionSignal;
  sentAt: number;
  nonce: string;
}

/**
 * A change as the changes channel carries it. Its epoch and number are sealed in, so it holds
 * only at that place of the numbered changes (change-replay.ts), wherever it is published or kept.
 */
export interface SealedChange {
  epoch: string;
  seq: number;
  origin: string;
  kind: string;
  uri?: string;
}

export class SessionSeal {
  constructor(private readonly sealer: VaultSealer) {}

  /** A value of session `session`'s hash. */
  field(session: string, value: unknown): string {
    return this.sealer.seal(JSON.stringify({ s: session, v: value }), FIELD);
  }

  /** The value sealed by `field` for this session; undefined for anything else. */
  openField<T>(session: string, sealed: string | undefined): T | undefined {
    return sealed === undefined ? undefined : this.#open<T>(session, sealed, FIELD);
  }

  /**
   * A message of the session's log at event id `eventId` (and of the event that routes it to the
   * stream's holder): the id is sealed in, so the entry holds only at that place of the log.
   */
  entry(session: string, eventId: string, message: JsonRpcMessage | JsonRpcMessage[]): string {
    return this.sealer.seal(JSON.stringify({ s: session, e: eventId, v: message }), ENTRY);
  }

  /** The message sealed by `entry` for this session at this event id; undefined for anything else. */
  openEntry(session: string, eventId: string, sealed: string): JsonRpcMessage | JsonRpcMessage[] | undefined {
    try {
      const body = JSON.parse(this.sealer.open(sealed, ENTRY)) as { s?: unknown; e?: unknown; v?: unknown };
      if (body.s !== session || body.e !== eventId || body.v === undefined) return undefined;
      return body.v as JsonRpcMessage | JsonRpcMessage[];
    } catch {
      return undefined;
    }
  }

  /** A signal, stamped with this replica's clock and a nonce of 96 random bits. */
  signal(signal: SharedSessionSignal): string {
    const body = { t: Date.now(), n: randomBytes(12).toString('base64url'), g: signal };
    return JSON.stringify({ x: this.sealer.seal(JSON.stringify(body), SIGNAL) });
  }

  /**
   * A signal sealed by `signal`, with its time and nonce (freshness is the receiver's to judge);
   * undefined for a forged, damaged or foreign one, or one sealed without them (an earlier version).
   */
  openSignal(sealed: string): OpenedSignal | undefined {
    try {
      const body = JSON.parse(this.sealer.open(sealed, SIGNAL)) as { t?: unknown; n?: unknown; g?: unknown };
      const { t, n, g } = body;
      if (typeof t !== 'number' || !Number.isFinite(t) || typeof n !== 'string' || n === '') return undefined;
      if (!g || typeof g !== 'object' || typeof (g as { type?: unknown }).type !== 'string') return undefined;
      return { signal: g as SharedSessionSignal, sentAt: t, nonce: n };
    } catch {
      return undefined;
    }
  }

  change(change: SealedChange): string {
    return this.sealer.seal(JSON.stringify(change), CHANGE);
  }

  /** The change sealed by `change` at this epoch and number; undefined for anything else. */
  openChange(epoch: string, seq: number, sealed: string): SealedChange | undefined {
    try {
      const change = JSON.parse(this.sealer.open(sealed, CHANGE)) as Partial<SealedChange>;
      if (change.epoch !== epoch || change.seq !== seq) return undefined;
      if (typeof change.origin !== 'string' || typeof change.kind !== 'string') return undefined;
      return change as SealedChange;
    } catch {
      return undefined;
    }
  }

  /** The field of a subscription to `realUri` in every session's subscriptions hash. */
  subscription(realUri: string): string {
    return this.sealer.lookup(`sub\u0000${realUri}`);
  }

  /** The principal as the quota's keys name it. */
  principal(principalId: string): string {
    return this.sealer.lookup(`principal\u0000${principalId}`);
  }

  #open<T>(session: string, sealed: string, label: string): T | undefined {
    try {
      const body = JSON.parse(this.sealer.open(sealed, label)) as { s?: unknown; v?: T };
      return body.s === session ? body.v : undefined;
    } catch {
      return undefined;
    }
  }
}

/** Thrown by a session store or fan-out used before `sealWith`: it never writes in clear. */
export function unsealed(what: string): Error {
  return new Error(`${what} is not sealed: call sealWith(sealer) with the vault's sealer first`);
}

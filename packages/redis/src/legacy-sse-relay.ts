/**
 * The deprecated HTTP+SSE transport behind several replicas, for @cloudg/transports'
 * LegacySseRelay port: which replica holds each session's stream, and the POSTs other replicas
 * forward to it.
 *
 * Keys (P the prefix): `P legacy-sse:<id>` a hash, `h` the replica holding the stream (in clear,
 * a random hex id, for the lookup script), `p` the principal's digest (in clear, as the 2025
 * sessions' `pid`, for the count) and `b` the session's binding (principal id and roles) with the
 * holder again, sealed for that session: a record whose `h` was changed, or whose `b` came from
 * another session, is no one's, so a forger gets POSTs refused (404), never sent to a replica
 * that would take them and drop them. It expires three heartbeats after this replica last
 * renewed it, like the 2025 sessions' stream claims, and a lookup also wants the holder's own
 * heartbeat (`P replica:<id>`, kept by RedisSessionStore), so a replica that closes or dies takes
 * its sessions with it at once or within three beats. A renewal writes the record again whole, so
 * sessions whose stream is still open come back after a Redis that lost its data.
 *
 * The session also counts in the 2025 sessions' cap and quota (`P sessions`,
 * `P sessions:principal:<digest>`, as `sse:<id>`; legacy-sse-scripts.ts): admitted by the same
 * script logic when it is recorded, renewed and expiring with its record, removed with it.
 *
 * A forwarded POST goes to the holder's own channel (`P replica:<id>`, which the 2025 sessions'
 * signals use too; each side ignores the other's messages) as `{"l": sealed}`: the message,
 * the caller's principal, a nonce and the time it was sent, sealed with the vault key. The holder
 * refuses a post it cannot open, and keeps the 2025 signals' freshness rule (session-freshness.ts:
 * at most 30 s old by its clock, each nonce once), so someone who can publish on Redis can
 * neither plant a message nor make a replica run a captured one again.
 */
import { randomBytes } from 'node:crypto';
import type { VaultSealer } from '@cloudg/privacy';
import type {
  LegacySseHolder,
  LegacySsePost,
  LegacySseQuota,
  LegacySseRelay,
  SharedSessionAdmission,
} from '@cloudg/transports';
import type { Redis } from 'ioredis';
import { shared } from './errors.js';
import { HOLD, LOCATE, RELEASE, RENEW } from './legacy-sse-scripts.js';
import type { ReplicaBus } from './replica-bus.js';
import { SignalFreshness } from './session-freshness.js';
import { SessionSeal, unsealed } from './session-seal.js';

const STATE = 'sessions';
const BINDING = 'legacy-sse-binding';
const POST = 'legacy-sse-post';

/** What the sealed post holds besides the post itself. */
interface SealedPost extends LegacySsePost {
  /** Nonce: a post is taken once. */
  n: string;
  /** When it was sent (ms, the sender's clock). */
  t: number;
}

export interface RedisLegacySseRelayOptions {
  /** How often the records of the sessions held here are renewed. Default 2000 ms. */
  heartbeatMs?: number;
}

export class RedisLegacySseRelay implements LegacySseRelay {
  readonly replica: string;
  readonly #client: Redis;
  readonly #prefix: string;
  readonly #bus: ReplicaBus;
  /** Resolves once this replica's heartbeat runs (RedisSessionStore keeps it). */
  readonly #alive: () => Promise<void>;
  readonly #heartbeatMs: number;
  /** Sessions held here → their sealed binding and principal digest, written again at every renewal. */
  readonly #held = new Map<string, { sealed: string; principal: string }>();
  readonly #listeners = new Set<(post: LegacySsePost) => void>();
  /** A post is taken once, and only while young: the 2025 sessions' signals' rule. */
  readonly #freshness = new SignalFreshness();
  readonly #stop: () => void;
  #sealer: VaultSealer | undefined;
  /** The 2025 sessions' seal: the quota's principal digests and the signal ending a session. */
  #sessionSeal: SessionSeal | undefined;
  #timer: NodeJS.Timeout | undefined;

  /** @internal Built by `sharedStateOn`, on that state's bus and heartbeat. */
  constructor(
    client: Redis,
    prefix: string,
    bus: ReplicaBus,
    alive: () => Promise<void>,
    options: RedisLegacySseRelayOptions = {},
  ) {
    this.#client = client;
    this.#prefix = prefix;
    this.#bus = bus;
    this.#alive = alive;
    this.replica = bus.replica;
    this.#heartbeatMs = options.heartbeatMs ?? 2000;
    this.#stop = bus.on(bus.direct, (text) => this.#hear(text));
  }

  /** Seal and open with `sealer` (the policy vault's): required before the first session. */
  sealWith(sealer: VaultSealer): void {
    this.#sealer = sealer;
    this.#sessionSeal = new SessionSeal(sealer);
  }

  get #seal(): VaultSealer {
    if (!this.#sealer) throw unsealed('RedisLegacySseRelay');
    return this.#sealer;
  }

  get #ttl(): number {
    return this.#heartbeatMs * 3;
  }

  async hold(id: string, binding: string, quota: LegacySseQuota): Promise<SharedSessionAdmission> {
    const sealed = this.#seal.seal(JSON.stringify({ s: id, h: this.replica, v: binding }), BINDING);
    const sessionSeal = this.#sessionSeal as SessionSeal;
    const principal = sessionSeal.principal(quota.principalId);
    const [admission, ended] = (await shared(STATE, async () => {
      await this.#bus.ready;
      // A record is only as good as its holder's heartbeat: the first beat comes first.
      await this.#alive();
      return HOLD.run(
        this.#client,
        [],
        [
          this.#prefix,
          this.replica,
          this.#ttl,
          id,
          sealed,
          principal,
          quota.maxSessions,
          quota.maxPerPrincipal,
        ],
      );
    })) as [SharedSessionAdmission, string?];
    if (admission !== 'ok') return admission;
    this.#held.set(id, { sealed, principal });
    this.#beat();
    // A 2025 session ended to make room: its views on every replica drop it, as after DELETE.
    if (ended) await this.#ended(sessionSeal, ended).catch(() => {});
    return admission;
  }

  async release(id: string): Promise<void> {
    const principal = this.#held.get(id)?.principal ?? '';
    this.#held.delete(id);
    await shared(STATE, () => RELEASE.run(this.#client, [], [this.#prefix, this.replica, id, principal]));
  }

  async locate(id: string): Promise<LegacySseHolder | undefined> {
    const seal = this.#seal;
    const found = (await shared(STATE, () => LOCATE.run(this.#client, [], [this.#prefix, id]))) as
      | [string, string]
      | null;
    if (!found) return undefined;
    const binding = this.#openBinding(seal, id, found[0], found[1]);
    // Forged, damaged, copied from another session or naming another holder: no one's session.
    return binding === undefined ? undefined : { replica: found[0], binding };
  }

  async forward(replica: string, post: LegacySsePost): Promise<boolean> {
    const body: SealedPost = { ...post, n: randomBytes(12).toString('base64url'), t: Date.now() };
    const message = JSON.stringify({ l: this.#seal.seal(JSON.stringify(body), POST) });
    const heard = await shared(STATE, async () => {
      await this.#bus.ready;
      return this.#client.publish(`${this.#prefix}replica:${replica}`, message);
    });
    return heard > 0;
  }

  onPost(listener: (post: LegacySsePost) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stop renewing and hearing, and end the sessions held here for every replica at once. */
  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    this.#stop();
    this.#listeners.clear();
    const args: string[] = [this.#prefix, this.replica];
    for (const [id, { principal }] of this.#held) args.push(id, principal);
    this.#held.clear();
    if (args.length > 2) await RELEASE.run(this.#client, [], args).catch(() => {});
  }

  /** Tell every replica that a 2025 session has ended, as RedisSessionStore does for its own. */
  #ended(seal: SessionSeal, session: string): Promise<number> {
    return this.#client.publish(this.#bus.broadcast, seal.signal({ type: 'ended', session }));
  }

  #openBinding(seal: VaultSealer, id: string, holder: string, sealed: string): string | undefined {
    try {
      const body = JSON.parse(seal.open(sealed, BINDING)) as { s?: unknown; h?: unknown; v?: unknown };
      return body.s === id && body.h === holder && typeof body.v === 'string' ? body.v : undefined;
    } catch {
      return undefined;
    }
  }

  /** Renew every record held here each heartbeat, while there is one. */
  #beat(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      if (this.#held.size === 0) return;
      const args: (string | number)[] = [this.#prefix, this.replica, this.#ttl];
      for (const [id, { sealed, principal }] of this.#held) args.push(id, sealed, principal);
      // A missed renewal is made good by the next one; three missed and the sessions are gone
      // (and count no more).
      RENEW.run(this.#client, [], args).catch(() => {});
    }, this.#heartbeatMs);
    this.#timer.unref();
  }

  #hear(text: string): void {
    // The 2025 sessions' signals share the channel: only `{"l": …}` is a forwarded post.
    if (!text.startsWith('{"l":') || !this.#sealer) return;
    let post: SealedPost;
    try {
      const envelope = JSON.parse(text) as { l?: unknown };
      if (typeof envelope.l !== 'string') return;
      post = JSON.parse(this.#sealer.open(envelope.l, POST)) as SealedPost;
    } catch {
      // Another vault key, damaged or forged: nothing this replica can act on.
      return;
    }
    if (typeof post.n !== 'string' || typeof post.t !== 'number' || !this.#freshness.accept(post.t, post.n))
      return;
    const { n: _n, t: _t, ...forwarded } = post;
    for (const listener of [...this.#listeners]) {
      try {
        listener(forwarded);
      } catch {
        // One failing listener does not keep the others from hearing.
      }
    }
  }
}

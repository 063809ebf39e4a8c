import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';

/**
 * Which gateways' streams this instance writes (docs/architecture.md, "Scale-out"). Every
 * instance hears every gateway message and keeps its live state; only a gateway's owner writes
 * its messages and acknowledges them. Ownership only says who should write: the fenced watermark
 * (telemetry/repository.ts) is what makes a write by a stale owner impossible.
 */
export interface StreamOwnership {
  owns(gatewayId: string): boolean;
  /** Gateways this instance owns now (the operator's metric). */
  readonly owned: number;
  start(streams: OwnedStreams): Promise<void>;
  /** Gives up every gateway (graceful stop: another instance takes them at once). */
  stop(): Promise<void>;
}

/** What ownership is told and asks of ingest. */
export interface OwnedStreams {
  /** Every gateway ingest has a stream for. */
  ids(): Iterable<string>;
  /** Now this instance's to write (ingest reconciles each with the database first). */
  gained(ids: string[]): void;
  /** No longer to be written here; resolves once no write of theirs is in progress. */
  releasing(ids: string[]): Promise<void>;
  /** Gone without a release (the lock connection broke): another may own them already. */
  lost(ids: string[]): void;
}

/** One process: the embedded database (one opener) or a single instance. */
export const ownEverything = (): StreamOwnership => {
  let streams: OwnedStreams | null = null;
  return {
    owns: () => true,
    get owned() {
      return streams ? [...streams.ids()].length : 0;
    },
    start: async (s) => {
      streams = s;
    },
    stop: async () => undefined,
  };
};

/** FNV-1a, 31 bits: an advisory lock key (int4, never negative) from a name. */
export const lockKeyOf = (text: string): number => {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) & 0x7fffffff;
};

const TICK_MS = 1000;

/**
 * Ownership by PostgreSQL advisory locks, held on a connection of their own: one lock per gateway
 * (two-key form: the schema's gateway namespace, the gateway's key) and one per live instance
 * (the schema's instance namespace, a random key). A lock is released by PostgreSQL the moment its
 * connection ends, so an instance killed with SIGKILL frees its gateways at once, and the others
 * take them at their next tick (about a second). Each tick every instance counts the live instances
 * in pg_locks and owns its share, ceil(gateways / instances): it claims unheld gateways up to it,
 * and gives back what is over it after writing what it holds of them. Gateways whose keys collide
 * are simply owned together.
 */
export class AdvisoryLockOwnership implements StreamOwnership {
  readonly #gatewaySpace: number;
  readonly #instanceSpace: number;
  #client: pg.Client | null = null;
  #streams: OwnedStreams | null = null;
  readonly #keys = new Set<number>();
  #timer: NodeJS.Timeout | null = null;
  #ticking: Promise<void> | null = null;
  #stopped = false;

  constructor(
    private readonly connect: () => pg.Client,
    /** Keeps schemas (tenants, test runs) sharing one database apart. */
    namespace: string,
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>,
    private readonly tickMs = TICK_MS,
  ) {
    this.#gatewaySpace = lockKeyOf(`${namespace}:linewatch:gateway`);
    this.#instanceSpace = lockKeyOf(`${namespace}:linewatch:instance`);
  }

  owns(gatewayId: string): boolean {
    return this.#keys.has(lockKeyOf(gatewayId));
  }

  get owned(): number {
    let n = 0;
    for (const id of this.#streams?.ids() ?? []) if (this.owns(id)) n++;
    return n;
  }

  async start(streams: OwnedStreams): Promise<void> {
    this.#streams = streams;
    await this.tick();
    this.#schedule();
  }

  #schedule() {
    if (this.#stopped) return;
    // Jittered, so instances started together do not claim in lockstep.
    const delay = this.tickMs * (0.8 + Math.random() * 0.4);
    this.#timer = setTimeout(() => {
      void this.tick().finally(() => this.#schedule());
    }, delay);
    this.#timer.unref();
  }

  /** One round: connect if needed, count instances, claim up to the share or give back the excess. */
  tick(): Promise<void> {
    this.#ticking ??= this.#tick().finally(() => (this.#ticking = null));
    return this.#ticking;
  }

  async #tick(): Promise<void> {
    if (this.#stopped || !this.#streams) return;
    try {
      const client = this.#client ?? (await this.#open());
      const byKey = new Map<number, string[]>();
      for (const id of this.#streams.ids()) {
        const key = lockKeyOf(id);
        const ids = byKey.get(key);
        if (ids) ids.push(id);
        else byKey.set(key, [id]);
      }
      const { rows } = await client.query<{ space: string; key: string }>(
        `SELECT classid::text AS space, objid::text AS key FROM pg_locks
         WHERE locktype = 'advisory' AND objsubid = 2 AND granted
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND classid::text IN ($1, $2)`,
        [String(this.#gatewaySpace), String(this.#instanceSpace)],
      );
      const instances = rows.filter((r) => r.space === String(this.#instanceSpace)).length;
      const held = new Set(
        rows.filter((r) => r.space === String(this.#gatewaySpace)).map((r) => Number(r.key)),
      );
      const share = Math.ceil(byKey.size / Math.max(1, instances));
      const gone = [...this.#keys].filter((k) => !byKey.has(k));
      const mine = [...this.#keys].filter((k) => byKey.has(k));
      if (mine.length > share || gone.length > 0) {
        const excess = shuffle(mine).slice(0, Math.max(0, mine.length - share));
        await this.#release([...gone, ...excess], byKey);
      } else if (mine.length < share) {
        const candidates = shuffle([...byKey.keys()].filter((k) => !held.has(k))).slice(
          0,
          share - mine.length,
        );
        if (candidates.length > 0) {
          const claimed = await client.query<{ key: number }>(
            `SELECT k AS key FROM unnest($2::int4[]) AS k WHERE pg_try_advisory_lock($1::int4, k)`,
            [this.#gatewaySpace, candidates],
          );
          const ids: string[] = [];
          for (const { key } of claimed.rows) {
            this.#keys.add(key);
            ids.push(...(byKey.get(key) ?? []));
          }
          if (ids.length > 0) this.#streams.gained(ids);
        }
      }
    } catch (error) {
      this.log.warn({ err: error }, 'gateway ownership: the lock connection failed; reconnecting');
      this.#drop();
    }
  }

  async #release(keys: number[], byKey: Map<number, string[]>) {
    if (keys.length === 0) return;
    for (const key of keys) this.#keys.delete(key);
    await this.#streams!.releasing(keys.flatMap((k) => byKey.get(k) ?? []));
    await this.#client?.query(
      `SELECT pg_advisory_unlock($1::int4, k) FROM unnest($2::int4[]) AS k`,
      [this.#gatewaySpace, keys],
    );
  }

  async #open(): Promise<pg.Client> {
    const client = this.connect();
    client.on('error', (error) => {
      if (this.#client !== client) return;
      this.log.warn({ err: error }, 'gateway ownership: the lock connection broke');
      this.#drop();
    });
    await client.connect();
    // This instance's presence: counted by every instance to size its share.
    for (;;) {
      const key = Math.floor(Math.random() * 0x7fffffff);
      const { rows } = await client.query<{ ok: boolean }>(
        'SELECT pg_try_advisory_lock($1::int4, $2::int4) AS ok',
        [this.#instanceSpace, key],
      );
      if (rows[0]?.ok) break;
    }
    this.#client = client;
    return client;
  }

  /** The connection is gone, and with it every lock: what was owned is owned no more. */
  #drop() {
    const client = this.#client;
    this.#client = null;
    if (client) void client.end().catch(() => undefined);
    if (this.#keys.size === 0) return;
    const ids = [...(this.#streams?.ids() ?? [])].filter((id) => this.owns(id));
    this.#keys.clear();
    this.#streams?.lost(ids);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#ticking;
    const ids = [...(this.#streams?.ids() ?? [])].filter((id) => this.owns(id));
    this.#keys.clear();
    if (ids.length > 0) await this.#streams?.releasing(ids);
    const client = this.#client;
    this.#client = null;
    // Ending the session releases every lock it held.
    await client?.end().catch(() => undefined);
  }
}

const shuffle = <T>(items: T[]): T[] => {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
};

import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import type { NoticeFields } from '../notifications/service.ts';
import { UndeliverableError, type Channel, type Confirmation } from './channels/channel.ts';

export interface OutboxOptions {
  /** How long a claimed row is this worker's: after it (the worker died) another may take it. */
  leaseMs?: number;
  /** First retry after this long, doubling per attempt up to maxDelayMs. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** After this many attempts a row is `failed` and stays so (visible with its last error). */
  maxAttempts?: number;
  pollMs?: number;
  batch?: number;
  now?: () => number;
  /** Builds the absolute link of a message from its app path. */
  urlOf?: (link: string | null) => string | null;
}

interface Claimed {
  id: string;
  /** 'pending': to send; 'accepted': sent, its receipt to confirm. */
  status: 'pending' | 'accepted';
  receipt: string | null;
  accepted_at: Date | null;
  channel: string;
  target: string;
  attempts: number;
  kind: string;
  title: string;
  body: string;
  link: string | null;
  fields: NoticeFields | null;
  created_at: Date;
}

/** Undelivered rows of one channel: due now, or waiting out a retry's backoff. */
export interface OutboxBacklog {
  channel: string;
  due: number;
  waiting: number;
}

/** DingTalk keeps a task's result for 24 hours: a receipt not confirmed by then never will be. */
const RECEIPT_LIFETIME_MS = 24 * 3_600_000;

/** The delay before attempt n+1 after n failed ones: base × 2^(n−1), capped. */
export const backoffMs = (attempts: number, base: number, max: number) =>
  Math.min(max, base * 2 ** Math.max(0, attempts - 1));

/**
 * Delivers the outbox: claims due rows (FOR UPDATE SKIP LOCKED, then a lease in the row, so two
 * instances never hold one row), sends each through its channel, and marks it sent, or due
 * again after a backoff, or failed after maxAttempts (at once when the channel says no retry can
 * help: `UndeliverableError`). A worker that dies after the service took a
 * message but before marking it leaves the row to be sent again after the lease: the repeat
 * carries the same deliveryId, which the services use to drop it (channels/channel.ts).
 */
export class Outbox {
  /**
   * Deliveries since start by channel (operator's metrics): sent, attempts that failed, and
   * messages a service took but says did not reach their person (DingTalk's send result).
   */
  readonly delivered: Map<string, number>;
  readonly failures: Map<string, number>;
  readonly notReached: Map<string, number>;
  readonly #channels: Map<string, Channel>;
  readonly #o: Required<Omit<OutboxOptions, 'now' | 'urlOf'>>;
  readonly #now: () => number;
  readonly #urlOf: (link: string | null) => string | null;
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  #again = false;
  #closed = false;

  constructor(
    private readonly db: Db,
    channels: readonly Channel[],
    private readonly log: Pick<FastifyBaseLogger, 'warn' | 'error'>,
    options: OutboxOptions = {},
  ) {
    this.#channels = new Map(channels.map((c) => [c.name, c]));
    // Every configured channel reports from the start, so a rate over its first failure is seen.
    this.delivered = new Map(channels.map((c) => [c.name, 0]));
    this.failures = new Map(channels.map((c) => [c.name, 0]));
    this.notReached = new Map(channels.map((c) => [c.name, 0]));
    this.#o = {
      leaseMs: options.leaseMs ?? 60_000,
      baseDelayMs: options.baseDelayMs ?? 5_000,
      maxDelayMs: options.maxDelayMs ?? 3_600_000,
      maxAttempts: options.maxAttempts ?? 10,
      pollMs: options.pollMs ?? 1_000,
      batch: options.batch ?? 20,
    };
    this.#now = options.now ?? Date.now;
    this.#urlOf = options.urlOf ?? ((link) => link);
  }

  /** Polls every pollMs; `kick` looks at once. */
  start() {
    const tick = () => {
      if (this.#closed) return;
      void this.kick();
      this.#timer = setTimeout(tick, this.#o.pollMs);
      this.#timer.unref();
    };
    tick();
  }

  /** Runs a delivery round now, or right after the one in progress. */
  kick(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      try {
        do {
          this.#again = false;
          while (!this.#closed && (await this.deliverDue()) > 0);
        } while (this.#again && !this.#closed);
      } catch (error) {
        this.log.error({ err: error }, 'outbox round failed');
      } finally {
        this.#running = null;
      }
    })();
    return this.#running;
  }

  /** Claims and delivers one batch of due rows; returns how many it claimed. */
  async deliverDue(): Promise<number> {
    const now = new Date(this.#now());
    const leaseEnd = new Date(now.getTime() + this.#o.leaseMs);
    const names = [...this.#channels.keys()];
    if (names.length === 0) return 0;
    const claimed = await sql<Claimed>`
      WITH due AS (
        SELECT id FROM outbox
        WHERE status IN ('pending', 'accepted') AND next_attempt_at <= ${now}
          AND (locked_until IS NULL OR locked_until < ${now})
          AND channel IN (${sql.join(names)})
        ORDER BY id LIMIT ${this.#o.batch}
        FOR UPDATE SKIP LOCKED
      )
      UPDATE outbox o SET locked_until = ${leaseEnd},
        attempts = o.attempts + CASE WHEN o.status = 'pending' THEN 1 ELSE 0 END
      FROM due, notifications n
      WHERE o.id = due.id AND n.id = o.notification_id
      RETURNING o.id, o.status, o.receipt, o.accepted_at, o.channel, o.target, o.attempts,
        n.kind, n.title, n.body, n.link, n.fields, n.created_at`.execute(this.db);
    await Promise.all(claimed.rows.map((row) => this.#deliver(row)));
    return claimed.rows.length;
  }

  async #deliver(row: Claimed) {
    const channel = this.#channels.get(row.channel)!;
    if (row.status === 'accepted') return this.#confirm(channel, row);
    try {
      const receipt = await channel.send({
        deliveryId: `lw-${row.id}`,
        target: row.target,
        kind: row.kind,
        title: row.title,
        body: row.body,
        fields: row.fields ?? {},
        url: this.#urlOf(row.link),
        createdAt: new Date(row.created_at),
      });
      if (typeof receipt === 'string' && channel.confirm) {
        await this.db
          .updateTable('outbox')
          .set({
            status: 'accepted',
            receipt,
            accepted_at: new Date(this.#now()),
            next_attempt_at: new Date(this.#now() + this.#o.baseDelayMs),
            locked_until: null,
            last_error: null,
          })
          .where('id', '=', row.id)
          .execute();
        return;
      }
      await this.#sent(row, null);
    } catch (error) {
      this.failures.set(row.channel, (this.failures.get(row.channel) ?? 0) + 1);
      const message = (error as Error).message.slice(0, 500);
      const failed = row.attempts >= this.#o.maxAttempts || error instanceof UndeliverableError;
      if (failed) this.log.warn({ outbox: row.id, err: message }, 'notification not delivered');
      await this.db
        .updateTable('outbox')
        .set({
          status: failed ? 'failed' : 'pending',
          last_error: message,
          locked_until: null,
          next_attempt_at: new Date(
            this.#now() + backoffMs(row.attempts, this.#o.baseDelayMs, this.#o.maxDelayMs),
          ),
        })
        .where('id', '=', row.id)
        .execute();
    }
  }

  async #sent(row: Claimed, note: string | null) {
    await this.db
      .updateTable('outbox')
      .set({ status: 'sent', sent_at: new Date(this.#now()), locked_until: null, last_error: note })
      .where('id', '=', row.id)
      .execute();
    if (note === null) this.delivered.set(row.channel, (this.delivered.get(row.channel) ?? 0) + 1);
  }

  /**
   * Asks the service what became of a message it took: reached (sent), not reached (failed, and
   * counted: resending would not reach them either), or not known yet (asked again after as long
   * again as it has waited, up to maxDelayMs), until the service no longer keeps the result.
   */
  async #confirm(channel: Channel, row: Claimed) {
    const now = this.#now();
    let confirmation: Confirmation = null;
    let problem: string | null = null;
    try {
      confirmation = await channel.confirm!(row.receipt ?? '', row.target);
    } catch (error) {
      problem = (error as Error).message.slice(0, 500);
    }
    if (confirmation?.reached) return this.#sent(row, null);
    if (confirmation) {
      this.notReached.set(row.channel, (this.notReached.get(row.channel) ?? 0) + 1);
      const reason = `${row.channel}: not reached (${confirmation.reason})`;
      this.log.warn({ outbox: row.id, reason }, 'notification not delivered');
      await this.db
        .updateTable('outbox')
        .set({ status: 'failed', locked_until: null, last_error: reason })
        .where('id', '=', row.id)
        .execute();
      return;
    }
    const waited = now - (row.accepted_at ? new Date(row.accepted_at).getTime() : now);
    if (waited >= RECEIPT_LIFETIME_MS) return this.#sent(row, `${row.channel}: never confirmed`);
    await this.db
      .updateTable('outbox')
      .set({
        locked_until: null,
        last_error: problem,
        next_attempt_at: new Date(
          now + Math.min(this.#o.maxDelayMs, Math.max(this.#o.baseDelayMs, waited)),
        ),
      })
      .where('id', '=', row.id)
      .execute();
  }

  /**
   * What is still to deliver, by channel. Runs at each metrics scrape: it reads only the partial
   * index of pending rows (outbox_due_idx), however many rows were sent.
   */
  async backlog(): Promise<OutboxBacklog[]> {
    const now = new Date(this.#now());
    const { rows } = await sql<OutboxBacklog>`
      SELECT channel,
        (count(*) FILTER (WHERE next_attempt_at <= ${now}))::int AS due,
        (count(*) FILTER (WHERE next_attempt_at > ${now}))::int AS waiting
      FROM outbox WHERE status = 'pending' GROUP BY channel`.execute(this.db);
    return rows;
  }

  /** Stops polling and waits for the round in flight: what it sent is marked before the database closes. */
  async close() {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running;
  }
}

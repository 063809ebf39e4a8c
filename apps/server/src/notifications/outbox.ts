import type { FastifyBaseLogger } from 'fastify';
import { UndeliverableError, type Channel, type Confirmation } from './channels/channel.ts';
import type { ClaimedDelivery, NotificationsRepository, OutboxBacklog } from './repository.ts';

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
    private readonly repo: NotificationsRepository,
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
    const claimed = await this.repo.claimDue(names, now, leaseEnd, this.#o.batch);
    await Promise.all(claimed.map((row) => this.#deliver(row)));
    return claimed.length;
  }

  async #deliver(row: ClaimedDelivery) {
    const channel = this.#channels.get(row.channel)!;
    if (row.status === 'accepted') return this.#confirm(channel, row);
    try {
      const receipt = await channel.send({
        deliveryId: `lw-${row.id}`,
        target: row.target,
        kind: row.kind,
        title: row.title,
        body: row.body,
        fields: row.fields,
        url: this.#urlOf(row.link),
        createdAt: row.createdAt,
      });
      if (typeof receipt === 'string' && channel.confirm) {
        await this.repo.release(row.id, {
          status: 'accepted',
          receipt,
          acceptedAt: new Date(this.#now()),
          nextAttemptAt: new Date(this.#now() + this.#o.baseDelayMs),
          lastError: null,
        });
        return;
      }
      await this.#sent(row, null);
    } catch (error) {
      this.failures.set(row.channel, (this.failures.get(row.channel) ?? 0) + 1);
      const message = (error as Error).message.slice(0, 500);
      const failed = row.attempts >= this.#o.maxAttempts || error instanceof UndeliverableError;
      if (failed) this.log.warn({ outbox: row.id, err: message }, 'notification not delivered');
      await this.repo.release(row.id, {
        status: failed ? 'failed' : 'pending',
        lastError: message,
        nextAttemptAt: new Date(
          this.#now() + backoffMs(row.attempts, this.#o.baseDelayMs, this.#o.maxDelayMs),
        ),
      });
    }
  }

  async #sent(row: ClaimedDelivery, note: string | null) {
    await this.repo.release(row.id, {
      status: 'sent',
      sentAt: new Date(this.#now()),
      lastError: note,
    });
    if (note === null) this.delivered.set(row.channel, (this.delivered.get(row.channel) ?? 0) + 1);
  }

  /**
   * Asks the service what became of a message it took: reached (sent), not reached (failed, and
   * counted: resending would not reach them either), or not known yet (asked again after as long
   * again as it has waited, up to maxDelayMs), until the service no longer keeps the result.
   */
  async #confirm(channel: Channel, row: ClaimedDelivery) {
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
      await this.repo.release(row.id, { status: 'failed', lastError: reason });
      return;
    }
    const waited = now - (row.acceptedAt ? row.acceptedAt.getTime() : now);
    if (waited >= RECEIPT_LIFETIME_MS) return this.#sent(row, `${row.channel}: never confirmed`);
    await this.repo.release(row.id, {
      lastError: problem,
      nextAttemptAt: new Date(
        now + Math.min(this.#o.maxDelayMs, Math.max(this.#o.baseDelayMs, waited)),
      ),
    });
  }

  /**
   * What is still to deliver, by channel. Runs at each metrics scrape: it reads only the partial
   * index of pending rows (outbox_due_idx), however many rows were sent.
   */
  backlog(): Promise<OutboxBacklog[]> {
    return this.repo.backlog(new Date(this.#now()));
  }

  /** Stops polling and waits for the round in flight: what it sent is marked before the database closes. */
  async close() {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    await this.#running;
  }
}

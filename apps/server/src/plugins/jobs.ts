import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import type { Db } from '../foundation/db/database.ts';

export interface JobOptions {
  /** Unique across the system: the claim row's key. */
  name: string;
  /** The job runs once per period of this length (periods start at the epoch). */
  everyMs: number;
  run: () => Promise<void>;
  /** A claimed run not finished after this long (its instance died) may be run again. */
  leaseMs?: number;
}

const DEFAULT_LEASE_MS = 10 * 60_000;
/** Instances do not all wake at the same instant at a period's start. */
const MAX_JITTER_MS = 1_000;

/**
 * Periodic work that runs once per period across every server instance sharing the database
 * (reports, outbox, overdue checks, session purge). An instance runs a period only if it claims
 * it: one upsert that advances the job's row, atomic on PostgreSQL and PGlite alike. A claim
 * whose instance died before finishing is taken over after the lease, so a period is run at
 * least once and, while instances live, exactly once.
 */
export class Jobs {
  readonly #timers = new Set<NodeJS.Timeout>();
  readonly #running = new Set<Promise<unknown>>();
  #closed = false;

  constructor(
    private readonly db: Db,
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Schedules a job: a first attempt now, then at the start of every period. */
  every(job: JobOptions): void {
    const tick = () => {
      if (this.#closed) return;
      const running = this.runDue(job).finally(() => this.#running.delete(running));
      this.#running.add(running);
      const delay = job.everyMs - (this.now() % job.everyMs) + Math.random() * MAX_JITTER_MS;
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        tick();
      }, delay);
      timer.unref();
      this.#timers.add(timer);
    };
    tick();
  }

  /** Runs the current period of a job if this instance can claim it; true when it ran. */
  async runDue(job: JobOptions): Promise<boolean> {
    const period = Math.floor(this.now() / job.everyMs);
    const now = new Date(this.now());
    const staleBefore = new Date(this.now() - (job.leaseMs ?? DEFAULT_LEASE_MS));
    const claimed = await sql<{ name: string }>`
      INSERT INTO job_runs AS r (name, period, started_at) VALUES (${job.name}, ${period}, ${now})
      ON CONFLICT (name) DO UPDATE SET period = excluded.period, started_at = excluded.started_at,
        finished_at = NULL
      WHERE r.period < excluded.period
        OR (r.period = excluded.period AND r.finished_at IS NULL AND r.started_at < ${staleBefore})
      RETURNING r.name`.execute(this.db);
    if (claimed.rows.length === 0) return false;
    try {
      await job.run();
      await this.db
        .updateTable('job_runs')
        .set({ finished_at: new Date(this.now()) })
        .where('name', '=', job.name)
        .where('period', '=', period)
        .execute();
    } catch (error) {
      // Left unfinished: this or another instance retries it once the lease has passed.
      this.log.error({ err: error, job: job.name }, 'job failed');
    }
    return true;
  }

  /** Stops scheduling and waits for runs in progress (before the database closes). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    await Promise.allSettled([...this.#running]);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    jobs: Jobs;
  }
}

/** Decorates the app with `jobs`; modules schedule their periodic work on it. */
export const jobsPlugin = fp(
  async (app: FastifyInstance, { db }: { db: Db }) => {
    const jobs = new Jobs(db, app.log);
    app.decorate('jobs', jobs);
    app.addHook('onClose', () => jobs.close());
  },
  { name: 'jobs' },
);

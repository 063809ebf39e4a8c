import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDb, type TestDb } from '../test/test-db.ts';
import { Jobs, type JobOptions } from './jobs.ts';

const HOUR = 3_600_000;
const log = { error: () => undefined };

describe('jobs that run once per period across instances', () => {
  let testDb: TestDb;
  beforeAll(async () => {
    testDb = await openTestDb();
  });
  afterAll(() => testDb?.close());

  const counting = (name: string) => {
    const job = { name, everyMs: HOUR, runs: 0, run: async () => void job.runs++ };
    return job satisfies JobOptions;
  };

  it('runs a period once however many instances try it, and again in the next period', async () => {
    let now = 10 * HOUR + 5;
    const instances = [1, 2, 3].map(() => new Jobs(testDb.db, log, () => now));
    const job = counting('once-per-period');
    const ran = await Promise.all(instances.map((jobs) => jobs.runDue(job)));
    expect(ran.filter(Boolean)).toHaveLength(1);
    expect(job.runs).toBe(1);
    expect(await instances[0]!.runDue(job)).toBe(false);

    now += HOUR;
    await Promise.all(instances.map((jobs) => jobs.runDue(job)));
    expect(job.runs).toBe(2);
  });

  it('retries a failed or abandoned run once its lease has passed, not before', async () => {
    let now = 20 * HOUR;
    const jobs = new Jobs(testDb.db, log, () => now);
    let attempts = 0;
    const failing: JobOptions = {
      name: 'fails-once',
      everyMs: HOUR,
      leaseMs: 60_000,
      run: async () => {
        if (++attempts === 1) throw new Error('channel down');
      },
    };
    expect(await jobs.runDue(failing)).toBe(true);
    expect(await jobs.runDue(failing)).toBe(false);
    now += 61_000;
    expect(await jobs.runDue(failing)).toBe(true);
    expect(attempts).toBe(2);
    now += 61_000;
    expect(await jobs.runDue(failing)).toBe(false);
  });

  it('schedules the first attempt at once and stops on close', async () => {
    const jobs = new Jobs(testDb.db, log);
    const job = counting('scheduled');
    jobs.every(job);
    await jobs.close();
    expect(job.runs).toBe(1);
  });
});

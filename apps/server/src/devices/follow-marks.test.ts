import { describe, expect, it } from 'vitest';
import { FollowMarks } from './follow-marks.ts';

/** user_follows stand-in: what `load` answers, and how often it was asked. */
const follows = () => {
  const stored = new Map<number, string[]>([[1, ['A']]]);
  let reads = 0;
  const load = async (userId: number) => {
    reads++;
    return new Set(stored.get(userId) ?? []);
  };
  return { stored, load, reads: () => reads };
};

describe('follow marks kept between list requests', () => {
  it('reads a user’s follows once, and again after they changed', async () => {
    const db = follows();
    const marks = new FollowMarks(db.load, () => 1);
    expect([...(await marks.of(1, 0))]).toEqual(['A']);
    expect([...(await marks.of(1, 1))]).toEqual(['A']);
    expect(db.reads()).toBe(1);
    db.stored.set(1, ['A', 'B']);
    marks.forget(1);
    expect([...(await marks.of(1, 2))]).toEqual(['A', 'B']);
  });

  it('keeps nothing read while the follows changed (the read may predate the change)', async () => {
    const db = follows();
    let changeDuringRead = true;
    const marks = new FollowMarks(
      async (userId) => {
        const before = await db.load(userId);
        if (changeDuringRead) {
          changeDuringRead = false;
          db.stored.set(1, []);
          marks.forget(1);
        }
        return before;
      },
      () => 1,
    );
    expect([...(await marks.of(1, 0))]).toEqual(['A']);
    expect([...(await marks.of(1, 1))]).toEqual([]);
  });

  it('reads again when the machines change, and after ten seconds', async () => {
    const db = follows();
    let version = 1;
    const marks = new FollowMarks(db.load, () => version);
    await marks.of(1, 0);
    version = 2;
    await marks.of(1, 1);
    expect(db.reads()).toBe(2);
    await marks.of(1, 9_999);
    expect(db.reads()).toBe(2);
    await marks.of(1, 10_001);
    expect(db.reads()).toBe(3);
  });
});

describe('follow marks told about changes elsewhere', () => {
  it('forgets everyone when notices may have been lost, and keeps no read spanning it', async () => {
    const db = follows();
    db.stored.set(2, ['C']);
    const marks = new FollowMarks(db.load, () => 1, 3_600_000);
    await marks.of(1, 0);
    await marks.of(2, 0);
    db.stored.set(1, []);
    db.stored.set(2, []);
    marks.forgetAll();
    expect([...(await marks.of(1, 1))]).toEqual([]);
    expect([...(await marks.of(2, 1))]).toEqual([]);
    expect(db.reads()).toBe(4);
    // Kept as long as it was asked to be: only a notice makes it read again.
    await marks.of(1, 3_599_999);
    expect(db.reads()).toBe(4);
  });
});

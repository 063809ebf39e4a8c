import { describe, expect, it } from 'vitest';
import { emptyFigures, type Figures } from '../foundation/shared/metrics.ts';
import { PastSums } from './past-sums.ts';

const DAYS = { key: 'days 2026-11-01|2026-11-10', past: true };
const produced = (n: number): Figures => ({ ...emptyFigures(), produced: n });

/** A rollup_day stand-in: what `load` answers, and which machines it was asked for. */
const rollups = () => {
  const stored = new Map<string, number>([
    ['A', 10],
    ['B', 20],
  ]);
  const asked: string[][] = [];
  const load = async (sns: string[]) => {
    asked.push(sns);
    return new Map(
      sns.flatMap((sn): [string, Figures][] =>
        stored.has(sn) ? [[sn, produced(stored.get(sn)!)]] : [],
      ),
    );
  };
  return { stored, asked, load };
};

const producedOf = (sums: Map<string, Readonly<Figures>>) =>
  Object.fromEntries([...sums].map(([sn, f]) => [sn, f.produced]));

describe('past sums kept between statistics requests', () => {
  it('reads each machine once, and a machine with no rollup as empty figures', async () => {
    const db = rollups();
    const sums = new PastSums(() => 1);
    const first = await sums.read(['A', 'B', 'C'], DAYS, db.load, 0);
    const again = await sums.read(['A', 'B', 'C'], DAYS, db.load, 1_000);
    expect(producedOf(first)).toEqual({ A: 10, B: 20, C: 0 });
    expect(producedOf(again)).toEqual({ A: 10, B: 20, C: 0 });
    expect(db.asked).toEqual([['A', 'B', 'C']]);
  });

  it('reads a machine again after a past day of it was written', async () => {
    const db = rollups();
    const sums = new PastSums(() => 1);
    await sums.read(['A', 'B'], DAYS, db.load, 0);
    db.stored.set('A', 15);
    sums.forget('A');
    expect(producedOf(await sums.read(['A', 'B'], DAYS, db.load, 1))).toEqual({
      A: 15,
      B: 20,
    });
    expect(db.asked).toEqual([['A', 'B'], ['A']]);
  });

  it('keeps nothing read while a past day was written (the read may predate the write)', async () => {
    const db = rollups();
    const sums = new PastSums(() => 1);
    const during = await sums.read(
      ['A'],
      DAYS,
      async (sns) => {
        const before = await db.load(sns);
        db.stored.set('A', 15);
        sums.forget('A');
        return before;
      },
      0,
    );
    expect(producedOf(during)).toEqual({ A: 10 });
    expect(producedOf(await sums.read(['A'], DAYS, db.load, 1))).toEqual({ A: 15 });
  });

  it('starts again when the machines change (a machine deleted and made again)', async () => {
    const db = rollups();
    let version = 1;
    const sums = new PastSums(() => version);
    await sums.read(['A'], DAYS, db.load, 0);
    db.stored.delete('A');
    version = 2;
    expect(producedOf(await sums.read(['A'], DAYS, db.load, 1))).toEqual({ A: 0 });
  });

  it('never keeps a run that reaches today, and keeps none past a minute', async () => {
    const db = rollups();
    const sums = new PastSums(() => 1);
    const untilToday = { key: 'days 2026-11-01|2026-11-23', past: false };
    await sums.read(['A'], untilToday, db.load, 0);
    await sums.read(['A'], untilToday, db.load, 1);
    expect(db.asked).toHaveLength(2);
    await sums.read(['B'], DAYS, db.load, 0);
    await sums.read(['B'], DAYS, db.load, 59_999);
    expect(db.asked).toHaveLength(3);
    await sums.read(['B'], DAYS, db.load, 60_000);
    expect(db.asked).toHaveLength(4);
  });

  it('reads every machine again when notices from other instances may have been lost', async () => {
    const db = rollups();
    const sums = new PastSums(() => 1, 3_600_000);
    await sums.read(['A', 'B'], DAYS, db.load, 0);
    await sums.read(['A', 'B'], DAYS, db.load, 3_599_999);
    expect(db.asked).toHaveLength(1);
    db.stored.set('B', 25);
    sums.forgetAll();
    expect(producedOf(await sums.read(['A', 'B'], DAYS, db.load, 1))).toEqual({
      A: 10,
      B: 25,
    });
    expect(db.asked).toEqual([
      ['A', 'B'],
      ['A', 'B'],
    ]);
  });
});

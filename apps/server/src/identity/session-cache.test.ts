import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache.ts';

describe('the session cache', () => {
  it('keeps a read for its lifetime, and drops it, its user’s or everything when told', () => {
    const cache = new SessionCache<{ userId: number }>(1000);
    cache.set('a', { userId: 1 }, cache.mark(), 0);
    cache.set('b', { userId: 1 }, cache.mark(), 0);
    cache.set('c', { userId: 2 }, cache.mark(), 0);
    expect(cache.get('a', 999)).toEqual({ userId: 1 });
    expect(cache.get('a', 1000)).toBeUndefined();

    cache.drop('a');
    expect(cache.get('a', 1)).toBeUndefined();
    cache.dropWhere((user) => user.userId === 1);
    expect(cache.get('b', 1)).toBeUndefined();
    expect(cache.get('c', 1)).toEqual({ userId: 2 });
    cache.clear();
    expect(cache.get('c', 1)).toBeUndefined();
  });

  it('does not keep a read that a drop overtook (the row read may be the one just ended)', () => {
    const cache = new SessionCache<{ userId: number }>(1000);
    const mark = cache.mark();
    // … the database is read, and meanwhile another instance signs the session out …
    cache.drop('a');
    cache.set('a', { userId: 1 }, mark, 0);
    expect(cache.get('a', 1)).toBeUndefined();
    cache.set('a', { userId: 1 }, cache.mark(), 0);
    expect(cache.get('a', 1)).toEqual({ userId: 1 });
  });
});

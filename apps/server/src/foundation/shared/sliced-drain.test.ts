import { describe, expect, it } from 'vitest';
import { slicedDrain } from './sliced-drain.ts';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('slicedDrain', () => {
  it('handles a burst a slice per turn of the event loop, each key once', async () => {
    const handled: number[][] = [[]];
    const add = slicedDrain<number>(200, (key) => handled.at(-1)!.push(key));
    for (let key = 0; key < 450; key++) add(key);
    add(7); // again before its turn: still once
    expect(handled).toEqual([[]]);
    for (let t = 0; t < 3; t++) {
      await turn();
      handled.push([]);
    }
    expect(handled.map((keys) => keys.length)).toEqual([200, 200, 50, 0]);
    expect(new Set(handled.flat()).size).toBe(450);
  });

  it('takes a key added again after its turn as new work', async () => {
    const handled: string[] = [];
    const add = slicedDrain<string>(2, (key) => handled.push(key));
    add('a');
    await turn();
    add('a');
    add('b');
    await turn();
    expect(handled).toEqual(['a', 'a', 'b']);
  });
});

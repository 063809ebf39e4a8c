/**
 * Keys to handle soon, each once however often it is added before its turn, handled `slice` at a
 * time with a turn of the event loop between slices: a burst of thousands (a flush that changed
 * every machine) never holds the loop in one task, and what waits behind it (requests, acks)
 * gets in between.
 */
export const slicedDrain = <K>(slice: number, handle: (key: K) => void) => {
  const pending = new Set<K>();
  let scheduled = false;
  const drain = () => {
    let n = 0;
    for (const key of pending) {
      pending.delete(key);
      handle(key);
      if (++n === slice) break;
    }
    if (pending.size > 0) setImmediate(drain);
    else scheduled = false;
  };
  return (key: K) => {
    pending.add(key);
    if (scheduled) return;
    scheduled = true;
    setImmediate(drain);
  };
};

import { useEffect, useState } from 'react';

/**
 * Runs `run` once the next frame has been painted: a frame's callbacks run before it paints, and a
 * task queued from there runs after. Returns the cancel. What starts here does not share the
 * network or the main thread with the page's first paint (nor, in Lighthouse, count towards it).
 */
export const afterNextPaint = (run: () => void): (() => void) => {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(run, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
};

/** False until the component's first frame has been painted. */
export const usePainted = (): boolean => {
  const [painted, setPainted] = useState(false);
  useEffect(() => afterNextPaint(() => setPainted(true)), []);
  return painted;
};

/**
 * For a part that is on screen from the start but whose code the first render can do without
 * (what animates or follows a finger brings react-spring and use-gesture, ≈ 24 KB gzip): returns a
 * hook that gives the module once it has loaded, and null before. The first render draws a still
 * stand-in of the part; the load starts once that frame is painted, so the page's first paint does
 * not share the network with it. A later mount gets the module at once. A failed load leaves the
 * stand-in, and the next mount tries again.
 */
export const afterFirstRender = <T>(load: () => Promise<T>): (() => T | null) => {
  let loaded: T | null = null;
  let loading: Promise<T> | null = null;
  return function useAfterFirstRender() {
    const [module, setModule] = useState(loaded);
    useEffect(() => {
      if (module) return;
      let live = true;
      const start = () => {
        loading ??= load().then(
          (value) => (loaded = value),
          (error: unknown) => {
            loading = null;
            throw error;
          },
        );
        loading.then(
          (value) => {
            if (live) setModule(() => value);
          },
          () => undefined,
        );
      };
      const cancel = afterNextPaint(start);
      return () => {
        live = false;
        cancel();
      };
    }, [module]);
    return module;
  };
};

import type { Locator } from 'playwright-core';

const STABLE_FRAMES = 5;

/**
 * antd-mobile animates drawers and dialogs in JavaScript (react-spring), which a screenshot's
 * `animations: 'disabled'` does not stop: wait until the element is fully opaque and has not
 * moved for a few frames.
 */
export const waitUntilSettled = async (locator: Locator): Promise<void> => {
  await locator.waitFor();
  await locator.evaluate(
    (element, frames) =>
      new Promise<void>((resolve) => {
        const reading = () => {
          const box = element.getBoundingClientRect();
          let opacity = 1;
          for (let node: Element | null = element; node; node = node.parentElement) {
            opacity *= Number(getComputedStyle(node).opacity);
          }
          return `${box.x},${box.y},${box.width},${box.height},${opacity}`;
        };
        let last = '';
        let same = 0;
        const tick = () => {
          const now = reading();
          same = now === last && now.endsWith(',1') ? same + 1 : 0;
          last = now;
          if (same >= frames) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    STABLE_FRAMES,
  );
};

/**
 * A chart draws itself in over about a second (ECharts' entry animation) and then changes only
 * when data arrives: wait until its drawing has stayed the same for `quietMs`.
 */
export const waitUntilDrawn = async (locator: Locator, quietMs = 400): Promise<void> => {
  await locator.waitFor();
  await locator.evaluate(
    (element, quiet) =>
      new Promise<void>((resolve) => {
        let last = '';
        let since = performance.now();
        const tick = (now: number) => {
          const markup = element.innerHTML;
          if (markup !== last) {
            last = markup;
            since = now;
          }
          if (now - since >= quiet) resolve();
          else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    quietMs,
  );
};

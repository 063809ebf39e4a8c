import type { ThreeParamPoint } from '@linewatch/contracts/history';
import { describe, expect, it } from 'vitest';
import { echarts } from '../../../shared/charts/line-bar-echarts.ts';
import { dtOption, threeParamOption } from './chart-options.ts';

/*
 * Spec section 9: 4–5 ticks on every value axis, percent axes 0–100. The axes are laid out by
 * ECharts itself (server-side rendering at a phone's 375 px) and their ticks read back, so the test
 * sees what the phone draws, whatever the data.
 */

type Tick = { value: number };
interface AxisModel {
  axis: { scale: { getTicks(): Tick[] } };
}

const ticksOf = (option: ReturnType<typeof threeParamOption>, axes: number) => {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 375, height: 260 });
  chart.setOption(option);
  const model = (
    chart as unknown as { getModel(): { getComponent(t: string, i: number): AxisModel } }
  ).getModel();
  const out = Array.from({ length: axes }, (_, i) =>
    model
      .getComponent('yAxis', i)
      .axis.scale.getTicks()
      .map((t) => t.value),
  );
  chart.dispose();
  return out;
};

const points = (ppm: (number | null)[], percent: (number | null)[]): ThreeParamPoint[] =>
  ppm.map((p, i) => ({
    date: `${String(i).padStart(2, '0')}:00`,
    ppm: p,
    yield: percent[i] ?? null,
    activation: percent[i] ?? null,
  }));

describe('history charts', () => {
  it.each([
    ['a busy day', [0, 37, 73, 121, 58, null], [0, 12.5, 97.3, 100, null, 64]],
    ['a slow day', [0.4, 1.2, 2.9, null], [3, 5, 8, null]],
    ['a record day', [1500, 2730, 3120], [88, 99.9, 100]],
  ])('%s: PPM in 4–5 ticks, percent 0, 25, 50, 75, 100', (_name, ppm, percent) => {
    const [ppmTicks, percentTicks] = ticksOf(threeParamOption(points(ppm, percent)), 2);
    expect(ppmTicks!.length).toBeGreaterThanOrEqual(4);
    expect(ppmTicks!.length).toBeLessThanOrEqual(5);
    expect(percentTicks).toEqual([0, 25, 50, 75, 100]);
  });

  it('leaves a gap for a period without data, never a drop to 0', () => {
    const option = threeParamOption(points([10, null, 12], [90, null, 95]));
    const series = option.series as { data: (number | null)[] }[];
    for (const s of series) expect(s.data[1]).toBeNull();
  });

  it.each([[[0, 0, 0]], [[3, 250, 1439]], [[12, 7]]])('DT minutes %j in 4–5 ticks', (minutes) => {
    const [ticks] = ticksOf(dtOption(minutes.map((value, i) => ({ date: `d${i}`, value }))), 1);
    expect(ticks!.length).toBeGreaterThanOrEqual(4);
    expect(ticks!.length).toBeLessThanOrEqual(5);
  });
});

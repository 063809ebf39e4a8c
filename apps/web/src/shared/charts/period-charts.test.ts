import type { ThreeParamPoint } from '@linewatch/contracts/history';
import { describe, expect, it } from 'vitest';
import { echarts } from './line-bar-echarts.ts';
import { dtOption, SERIES_COLOURS, threeParamOption } from './period-charts.ts';

/*
 * docs/product.md section 9: 4–5 ticks on every value axis, percent axes 0–100. The axes are laid out by
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

  it('draws the PPM line over the percent lines where they meet (a steady week of 95s)', () => {
    const weeks = ['2026-11-20', '2026-11-23', '2026-11-30'].map((date) => ({
      date,
      ppm: 95,
      yield: 95,
      activation: 60,
    }));
    const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 375, height: 260 });
    chart.setOption(threeParamOption(weeks));
    const svg = chart.renderToSVGString();
    chart.dispose();
    // The SVG paints in document order: the last line stroked is the one on top.
    const strokes = [...svg.matchAll(/<path d="M[^"]*" fill="none"[^>]*stroke="(#[0-9a-f]{6})"/gi)]
      .map((m) => m[1]!.toLowerCase())
      .filter((c) => (Object.values(SERIES_COLOURS) as string[]).includes(c));
    expect(strokes.at(-1)).toBe(SERIES_COLOURS.ppm);
    expect(strokes).toContain(SERIES_COLOURS.yield);
  });

  it('one builder for history and report: PPM on the left axis, percentages on the right', () => {
    const option = threeParamOption(points([10], [90]));
    const series = option.series as { name: string; yAxisIndex: number; color: string }[];
    const byName = Object.fromEntries(series.map((s) => [s.name, s]));
    expect(byName.PPM).toMatchObject({ yAxisIndex: 0, color: SERIES_COLOURS.ppm });
    expect(byName['良率']).toMatchObject({ yAxisIndex: 1, color: SERIES_COLOURS.yield });
    expect(byName['稼动率']).toMatchObject({ yAxisIndex: 1, color: SERIES_COLOURS.activation });
  });
});

import type { ChartOption } from './chart.tsx';
import { fiveTicks } from './value-axis.ts';

/*
 * The charts of a machine's periods, drawn alike by the device history and the daily/weekly
 * report (one builder: the same series in the same colour on the same axis on both pages;
 * docs/product.md section 9: 4–5 ticks, percent axes 0–100). PPM on the left axis, yield and utilisation in
 * percent on the right. Readable at 375 px: small axis labels that hide when they would overlap,
 * a legend on top. A null (no data) is a gap in the line, never a drop to 0.
 */

/** Each series' colour, the same on every chart that draws it. */
export const SERIES_COLOURS = {
  ppm: '#1677ff',
  yield: '#00b578',
  activation: '#ff8f1f',
  dt: '#ff3141',
} as const;

interface Period {
  date: string;
  activation: number | null;
  yield: number | null;
  ppm: number | null;
}

const axisLabel = { fontSize: 10, hideOverlap: true } as const;
const grid = { left: 40, right: 40, top: 36, bottom: 28 } as const;

export const threeParamOption = (points: readonly Period[]): ChartOption => ({
  grid,
  tooltip: { trigger: 'axis' },
  legend: { top: 0, itemWidth: 14, textStyle: { fontSize: 11 } },
  xAxis: { type: 'category', data: points.map((p) => p.date), axisLabel },
  yAxis: [
    {
      type: 'value',
      name: 'PPM',
      ...fiveTicks(points.map((p) => p.ppm)),
      nameTextStyle: { fontSize: 10 },
      axisLabel,
    },
    {
      type: 'value',
      name: '%',
      min: 0,
      max: 100,
      // 0, 25, 50, 75, 100: five ticks that land on round figures.
      interval: 25,
      nameTextStyle: { fontSize: 10 },
      axisLabel,
      splitLine: { show: false },
    },
  ],
  // PPM last, above the percent lines: where its scale puts it on the yield line (a steady
  // weekly PPM near 95 beside a yield near 95), the PPM line is the one that shows, with its points.
  series: [
    {
      type: 'line',
      name: '良率',
      yAxisIndex: 1,
      data: points.map((p) => p.yield),
      color: SERIES_COLOURS.yield,
      z: 2,
    },
    {
      type: 'line',
      name: '稼动率',
      yAxisIndex: 1,
      data: points.map((p) => p.activation),
      color: SERIES_COLOURS.activation,
      z: 2,
    },
    {
      type: 'line',
      name: 'PPM',
      yAxisIndex: 0,
      data: points.map((p) => p.ppm),
      color: SERIES_COLOURS.ppm,
      symbol: 'circle',
      symbolSize: 5,
      lineStyle: { width: 2.5 },
      z: 3,
    },
  ],
});

export const dtOption = (points: readonly { date: string; value: number }[]): ChartOption => ({
  grid: { ...grid, right: 12 },
  tooltip: { trigger: 'axis' },
  xAxis: { type: 'category', data: points.map((p) => p.date), axisLabel },
  yAxis: {
    type: 'value',
    name: 'DT(分钟)',
    ...fiveTicks(
      points.map((p) => p.value),
      { whole: true },
    ),
    nameTextStyle: { fontSize: 10 },
    axisLabel,
  },
  series: [{ type: 'bar', name: 'DT', data: points.map((p) => p.value), color: SERIES_COLOURS.dt }],
});

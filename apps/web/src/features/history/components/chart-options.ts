import type { DtPoint, ThreeParamPoint } from '@linewatch/contracts/history';
import type { ChartOption } from '../../../shared/charts/chart.tsx';
import { fiveTicks } from '../../../shared/charts/value-axis.ts';

/*
 * The history charts (spec section 9: 4–5 ticks, percent axes 0–100). Readable at 375 px: small
 * axis labels that hide when they would overlap, a legend on top, no symbols on long series.
 * A null (no data) is a gap in the line, never a drop to 0.
 */

const axisLabel = { fontSize: 10, hideOverlap: true } as const;
const grid = { left: 40, right: 40, top: 36, bottom: 28 } as const;

export const threeParamOption = (points: readonly ThreeParamPoint[]): ChartOption => ({
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
  series: [
    { type: 'line', name: 'PPM', data: points.map((p) => p.ppm), color: '#1677ff' },
    {
      type: 'line',
      name: '良率',
      yAxisIndex: 1,
      data: points.map((p) => p.yield),
      color: '#00b578',
    },
    {
      type: 'line',
      name: '稼动率',
      yAxisIndex: 1,
      data: points.map((p) => p.activation),
      color: '#ff8f1f',
    },
  ],
});

export const dtOption = (points: readonly DtPoint[]): ChartOption => ({
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
  series: [{ type: 'bar', name: 'DT', data: points.map((p) => p.value), color: '#ff3141' }],
});

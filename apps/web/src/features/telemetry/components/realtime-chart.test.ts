import { describe, expect, it } from 'vitest';
import { echarts } from '../../../shared/charts/line-bar-echarts.ts';
import { realtimeChartOption } from './realtime-chart.tsx';

/*
 * The 24-hour chart laid out by ECharts at a phone's 375 px (server-side SVG): the 进行中 label of
 * the hour in progress must stand clear of the x axis, even when that hour has made nothing yet.
 */
const hours = (produced: number[], partial: number) =>
  produced.map((p, i) => ({
    hour: `${String(i).padStart(2, '0')}:00`,
    produced: p,
    partial: i === produced.length - 1 ? partial : null,
  }));

const layout = (points: ReturnType<typeof hours>) => {
  const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 375, height: 220 });
  chart.setOption(realtimeChartOption(points as never));
  const svg = chart.renderToSVGString();
  chart.dispose();
  return svg;
};

describe('the real-time chart', () => {
  it.each([
    ['an hour just begun, nothing made yet', [40, 52, 48, 0], 0.05],
    ['an hour half made', [40, 52, 48, 25], 0.5],
  ])('%s: the 进行中 label stands above the x axis', (_name, produced, partial) => {
    const svg = layout(hours(produced, partial));
    // The x axis line: a horizontal path from the grid's left edge, with round caps.
    const axis = /<path d="M40 ([\d.]+)L[\d.]+ \1"[^>]*stroke-linecap="round"/.exec(svg);
    expect(axis, 'the x axis line').not.toBeNull();
    const axisY = Number(axis![1]);
    const label =
      /<text[^>]*?(?:y="(-?[\d.]+)" )?transform="translate\([\d.]+ ([\d.]+)\)"[^>]*>进行中/.exec(
        svg,
      );
    expect(label, 'the 进行中 label').not.toBeNull();
    const labelY = Number(label![2]) + Number(label![1] ?? 0);
    // The text (10 px, drawn from its middle baseline) clears the axis line.
    expect(labelY + 6).toBeLessThan(axisY);
  });
});

import { describe, expect, it } from 'vitest';
import { echarts } from '../../../shared/charts/echarts.ts';
import { mapOption } from './map-chart-view.tsx';

/*
 * The map laid out by ECharts at a phone's 375 px (server-side SVG): two neighbouring provinces'
 * labels (Shanghai beside Jiangsu) must not be drawn over each other.
 */
const square = {
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { name: '华东' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [110, 25],
            [125, 25],
            [125, 40],
            [110, 40],
            [110, 25],
          ],
        ],
      },
    },
  ],
};

describe('the device map', () => {
  it('hides the smaller of two overlapping province labels, keeps the larger', () => {
    echarts.registerMap('test-east', square as never);
    const chart = echarts.init(null, null, { renderer: 'svg', ssr: true, width: 375, height: 300 });
    chart.setOption(
      mapOption('test-east', [
        { name: '上海', value: 2, coord: [121.47, 31.23] },
        { name: '江苏', value: 5, coord: [120.9, 31.5] },
        { name: '福建', value: 1, coord: [118, 26] },
      ]),
    );
    const svg = chart.renderToSVGString();
    chart.dispose();
    const labels = [...svg.matchAll(/<text[^>]*>([^<]+)<\/text>/g)].map((m) => m[1]);
    expect(labels).toContain('江苏 5');
    expect(labels).not.toContain('上海 2');
    // A label clear of the others stays.
    expect(labels).toContain('福建 1');
  });
});

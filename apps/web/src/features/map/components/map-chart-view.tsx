import type { ScatterSeriesOption } from 'echarts/charts';
import { ScatterChart } from 'echarts/charts';
import type { GeoComponentOption, TooltipComponentOption } from 'echarts/components';
import { GeoComponent } from 'echarts/components';
import { LabelLayout } from 'echarts/features';
import type { ComposeOption } from 'echarts/core';
import ReactEChartsCore from 'echarts-for-react/lib/core';
import { useMemo } from 'react';
import { echarts } from '../../../shared/charts/echarts.ts';
import type { GeoCollection } from '../geo.ts';
import { scatterSize } from '../scatter-size.ts';

// The map's own ECharts parts, on top of the app's registration: they arrive only with /map.
echarts.use([ScatterChart, GeoComponent, LabelLayout]);

type MapOption = ComposeOption<ScatterSeriesOption | GeoComponentOption | TooltipComponentOption>;

export interface MapChartPoint {
  name: string;
  value: number;
  coord: [number, number];
}

export interface MapChartViewProps {
  /** The GeoJSON file's name: each file is registered with ECharts once, under it. */
  mapName: string;
  geo: GeoCollection;
  points: MapChartPoint[];
  height: number;
  /** A tap on a region or its point. */
  onRegion: (name: string) => void;
}

/**
 * The map's option: the regions with machines shaded, a point sized by each one's count, labelled
 * with its name and count. Where two labels would overlap (neighbouring provinces at 375 px) the
 * smaller count's is hidden (ECharts' labelLayout hideOverlap; points go largest first): the list
 * under the map names every region.
 */
export const mapOption = (mapName: string, points: MapChartPoint[]): MapOption => {
  const max = Math.max(0, ...points.map((p) => p.value));
  return {
    // Drawn at once: an entry animation redraws the whole map every frame while the page loads.
    animation: false,
    tooltip: {
      trigger: 'item',
      formatter: (p) => {
        const item = Array.isArray(p) ? p[0] : p;
        const value = (item?.value as number[] | undefined)?.[2];
        return value === undefined ? (item?.name ?? '') : `${item?.name ?? ''}：${value} 台`;
      },
    },
    geo: {
      map: mapName,
      roam: true,
      scaleLimit: { min: 0.8, max: 12 },
      itemStyle: { areaColor: '#eef3fb', borderColor: '#9db4d6', borderWidth: 0.6 },
      // No region names in any state: ECharts then builds no label (and measures no region)
      // for each of the world's 239 regions, a quarter of the world's draw. A tap drills at
      // once, and the toolbar names where the map is.
      label: { show: false },
      emphasis: { itemStyle: { areaColor: '#cfe0fb' }, label: { show: false } },
      select: { disabled: true, label: { show: false } },
      blur: { label: { show: false } },
      regions: points.map((p) => ({ name: p.name, itemStyle: { areaColor: '#d6e6ff' } })),
    },
    series: [
      {
        type: 'scatter',
        coordinateSystem: 'geo',
        data: [...points]
          .sort((a, b) => b.value - a.value)
          .map((p) => ({ name: p.name, value: [...p.coord, p.value] })),
        symbolSize: (value: number[]) => scatterSize(value[2] ?? 0, max),
        itemStyle: { color: '#1677ff', opacity: 0.85 },
        label: {
          show: true,
          position: 'top',
          formatter: (p) => `${p.name} ${(p.value as number[])[2]}`,
          fontSize: 11,
          color: '#1f2d3d',
        },
        labelLayout: { hideOverlap: true },
      },
    ],
  };
};

const registered = new Set<string>();

/** The drillable map itself (ECharts, SVG): loaded on demand by device-map.tsx. */
const MapChartView = ({ mapName, geo, points, height, onRegion }: MapChartViewProps) => {
  if (!registered.has(mapName)) {
    echarts.registerMap(mapName, geo as unknown as Parameters<typeof echarts.registerMap>[1]);
    registered.add(mapName);
  }
  const option = useMemo(() => mapOption(mapName, points), [mapName, points]);

  const onEvents = useMemo(
    () => ({
      click: (params: { name?: string }) => {
        if (params.name) onRegion(params.name);
      },
    }),
    [onRegion],
  );

  return (
    <ReactEChartsCore
      echarts={echarts}
      option={option}
      opts={{ renderer: 'svg' }}
      notMerge
      onEvents={onEvents}
      style={{ height, width: '100%' }}
    />
  );
};

export default MapChartView;

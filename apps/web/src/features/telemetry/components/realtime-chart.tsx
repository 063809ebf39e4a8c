import type { RealtimePayload } from '@linewatch/contracts/socket';
import { useMemo } from 'react';
import { Chart, type ChartOption } from '../../../shared/charts/chart.tsx';
import { fiveTicks } from '../../../shared/charts/value-axis.ts';
import { hourSeries } from './hour-series.ts';

/** The 24-hour chart's option: the hour in progress marked apart, labelled 进行中 n%. */
export const realtimeChartOption = (points: RealtimePayload['dateData']): ChartOption => {
  const series = hourSeries(points);
  const percentDone = series.partial === null ? '' : `${Math.round(series.partial * 100)}%`;
  return {
    grid: { left: 40, right: 12, top: 24, bottom: 28 },
    tooltip: { trigger: 'axis' },
    xAxis: {
      type: 'category',
      boundaryGap: false,
      data: points.map((point) => point.hour),
      axisLabel: { fontSize: 10, hideOverlap: true },
    },
    yAxis: {
      type: 'value',
      name: '产量',
      ...fiveTicks([...series.complete, ...series.projected, ...series.current], { whole: true }),
      nameTextStyle: { fontSize: 10 },
      axisLabel: { fontSize: 10 },
    },
    series: [
      {
        type: 'line',
        name: '产量',
        smooth: true,
        // a smoothed line must not dip below or rise above the hourly figures it joins
        smoothMonotone: 'x',
        symbol: 'none',
        data: series.complete,
        lineStyle: { width: 2, color: '#1677ff' },
        areaStyle: { color: 'rgba(22, 119, 255, 0.12)' },
      },
      {
        // The hour in progress at its current pace: dashed, it is a projection.
        type: 'line',
        name: '本小时预计',
        symbol: 'none',
        data: series.projected,
        lineStyle: { width: 1.5, color: '#1677ff', type: 'dashed' },
        tooltip: { show: false },
      },
      {
        // The hour in progress as counted so far: a marked point, not a dip of the line.
        type: 'line',
        name: `本小时(进行中 ${percentDone})`,
        symbol: 'circle',
        symbolSize: 7,
        data: series.current,
        itemStyle: { color: '#fff', borderColor: '#1677ff', borderWidth: 2 },
        label: {
          show: series.partial !== null,
          // Above the point and ending at it: the point is the chart's last (a label centred
          // over it would run off the right edge), and early in the hour it sits on the x axis
          // (a label beside it was struck through by the axis line).
          position: 'top',
          align: 'right',
          distance: 6,
          fontSize: 10,
          formatter: `进行中 ${percentDone}`,
        },
      },
    ],
  };
};

/** The 24-hour output of one machine, the hour in progress marked apart. */
export const RealtimeChart = ({ points }: { points: RealtimePayload['dateData'] }) => {
  const option = useMemo(() => realtimeChartOption(points), [points]);

  return <Chart option={option} height={220} testId="realtime-chart" />;
};

import ReactEChartsCore from 'echarts-for-react/lib/core';
import { useMemo } from 'react';
import { echarts, type ChartOption } from './line-bar-echarts.ts';

export interface ChartViewProps {
  option: ChartOption;
  height: number;
  testId?: string | undefined;
}

/**
 * The chart itself, with ECharts: loaded on demand by chart.tsx, never on a first screen. Drawn
 * at once, not animated: ECharts' entry animation redraws the SVG every frame for a second, work
 * a phone does while the page is still loading (half of ECharts' time on /deviceHistory at 4× CPU).
 */
const ChartView = ({ option, height, testId }: ChartViewProps) => {
  const still = useMemo(() => ({ ...option, animation: false }), [option]);
  return (
    <div data-testid={testId}>
      <ReactEChartsCore
        echarts={echarts}
        option={still}
        opts={{ renderer: 'svg' }}
        notMerge
        style={{ height, width: '100%' }}
      />
    </div>
  );
};

export default ChartView;

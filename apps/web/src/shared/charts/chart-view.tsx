import ReactEChartsCore from 'echarts-for-react/lib/core';
import { echarts, type ChartOption } from './echarts.ts';

export interface ChartViewProps {
  option: ChartOption;
  height: number;
  testId?: string | undefined;
}

/** The chart itself, with ECharts: loaded on demand by chart.tsx, never on a first screen. */
const ChartView = ({ option, height, testId }: ChartViewProps) => (
  <div data-testid={testId}>
    <ReactEChartsCore
      echarts={echarts}
      option={option}
      opts={{ renderer: 'svg' }}
      notMerge
      style={{ height, width: '100%' }}
    />
  </div>
);

export default ChartView;

import { DotLoading } from 'antd-mobile';
import { lazy, Suspense } from 'react';
import styles from './chart.module.css';
import type { ChartOption } from './line-bar-echarts.ts';

export type { ChartOption } from './line-bar-echarts.ts';

// ECharts (~180 KB gzip) is loaded only when a chart is about to be drawn.
const ChartView = lazy(() => import('./chart-view.tsx'));

interface ChartProps {
  /** The ECharts option; build it with useMemo, a new object redraws the chart. */
  option: ChartOption;
  height?: number;
  testId?: string;
}

/** The app's chart: a loading dot until ECharts has arrived, then the chart (named by testId). */
export const Chart = ({ option, height = 220, testId }: ChartProps) => (
  <Suspense
    fallback={
      <div className={styles.fallback} style={{ height }}>
        <DotLoading />
      </div>
    }
  >
    <ChartView option={option} height={height} testId={testId} />
  </Suspense>
);

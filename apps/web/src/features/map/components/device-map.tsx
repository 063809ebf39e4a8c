import { DotLoading } from 'antd-mobile';
import { lazy, Suspense } from 'react';
import type { MapChartViewProps } from './map-chart-view.tsx';
import styles from './device-map.module.css';

// ECharts with the map parts is loaded only when the map is about to be drawn.
const MapChartView = lazy(() => import('./map-chart-view.tsx'));

/** The map: a loading dot until ECharts has arrived, then the drillable map. */
export const DeviceMap = (props: MapChartViewProps) => (
  <Suspense
    fallback={
      <div className={styles.fallback} style={{ height: props.height }}>
        <DotLoading />
      </div>
    }
  >
    <MapChartView {...props} />
  </Suspense>
);

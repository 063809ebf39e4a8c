import { DotLoading } from 'antd-mobile';
import { lazy, Suspense } from 'react';
import type { MapChartViewProps } from './map-chart-view.tsx';
import styles from './device-map.module.css';

/** ECharts with the map parts: asked for by the map page once its first frame is painted. */
export const loadMapChart = () => import('./map-chart-view.tsx');
const MapChartView = lazy(loadMapChart);

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

import { Button } from 'antd-mobile';
import { EnvironmentOutline } from 'antd-mobile-icons';
import { useCallback, useEffect, useMemo, type MouseEvent } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { usePainted } from '../../../shared/perf/after-first-render.ts';
import { BlankState } from '../../../shared/components/blank-state.tsx';
import { ListState } from '../../../shared/components/list-state.tsx';
import { webMessages } from '../../../shared/messages.ts';
import { links } from '../../../shared/paths.ts';
import { useGeo, useGeoIndex, useMapPoints, useMapStatus } from '../api.ts';
import { areaFrom, drillInto, geoFileOf, levelOf, parentOf, type Area } from '../area.ts';
import { DeviceMap, loadMapChart } from '../components/device-map.tsx';
import type { MapChartPoint } from '../components/map-chart-view.tsx';
import { MapSummary } from '../components/map-summary.tsx';
import { centreOf } from '../geo.ts';
import styles from './map-page.module.css';

const MAP_HEIGHT = 380;
const WORLD = '世界';
/** One empty list for every render: a new [] would be a new chart option, and a full redraw. */
const NO_REGIONS: readonly never[] = [];

/** /map: the summary of the area shown and a map drilling world → China → province → city. */
const MapPage = () => {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const areaParam = params.get('area');
  const area = useMemo(() => areaFrom(areaParam), [areaParam]);
  // The shapes (the world's: 63 KB) and ECharts (160 KB) are asked for together once the summary
  // is painted: they do not hold up the first paint, nor wait for each other.
  const painted = usePainted();
  const index = useGeoIndex(painted);
  const file = geoFileOf(area, index.data);
  const geo = useGeo(file, painted);
  useEffect(() => {
    if (painted) void loadMapChart();
  }, [painted]);
  const status = useMapStatus(area);
  const points = useMapPoints(area);

  const go = useCallback((next: Area) => void navigate(links.map(next)), [navigate]);
  const up = () => {
    if (area.length > 0) go(parentOf(area));
  };
  const onRegion = useCallback(
    (name: string) => {
      const next = drillInto(area, name, index.data);
      if (next) go(next);
    },
    [area, go, index.data],
  );
  // Right click goes up a level (docs/product.md section 4).
  const onContextMenu = (event: MouseEvent) => {
    event.preventDefault();
    up();
  };

  const regions = points.data?.machineStatusList ?? NO_REGIONS;
  const chartPoints = useMemo(
    () =>
      regions.flatMap((p): MapChartPoint[] => {
        const coord = p.coord ?? (geo.data ? centreOf(geo.data, p.name) : null);
        return coord ? [{ name: p.name, value: p.value, coord }] : [];
      }),
    [regions, geo.data],
  );

  // A failed query stops its live refresh (shared/live-refresh.ts): a retry asks again. Either
  // retry, the map's or the counts', asks again for everything that failed: offline the index,
  // the shape and the counts all fail, and one tap back online must bring the whole page back
  // (the map's retry asked for the index alone, and a second tap was needed for the shape).
  const dataFailed = status.isError || points.isError;
  const retryFailed = () => {
    for (const query of [index, geo, status, points]) if (query.isError) void query.refetch();
  };

  const mapBody = () => {
    // Before 暂无该地区地图: without the index, a province's or city's file is not known yet.
    if (geo.isError || index.isError)
      return (
        <button
          type="button"
          className={styles.retry}
          data-testid="map-retry"
          onClick={retryFailed}
        >
          地图加载失败，点击重新加载
        </button>
      );
    if (file === null && !index.isPending)
      return (
        <BlankState icon={<EnvironmentOutline />} title="暂无该地区地图" testId="map-no-shape" />
      );
    // The map is drawn once its points have answered (or failed): drawing the bare map first and
    // again with the points costs a second full ECharts render (≈ 200 ms on a phone for the world).
    if (!geo.data || file === null || points.isPending)
      return <div className={styles.loading}>{webMessages.loading}…</div>;
    return (
      <DeviceMap
        mapName={file}
        geo={geo.data}
        points={chartPoints}
        height={MAP_HEIGHT}
        onRegion={onRegion}
      />
    );
  };

  return (
    <div className={styles.page} onContextMenu={onContextMenu} data-testid="map-page">
      <MapSummary status={status.data} place={area.at(-1) ?? WORLD} />
      <nav className={styles.toolbar} aria-label="地图层级">
        <ol className={styles.crumbs} data-testid="map-crumbs">
          {[WORLD, ...area].map((name, i) => (
            <li key={`${i}-${name}`}>
              {i < area.length ? (
                <button type="button" onClick={() => go(area.slice(0, i))}>
                  {name}
                </button>
              ) : (
                <span aria-current="page">{name}</span>
              )}
            </li>
          ))}
        </ol>
        <Button size="mini" disabled={area.length === 0} onClick={up} data-testid="map-up">
          上一级
        </Button>
        <Button
          size="mini"
          color="primary"
          fill="outline"
          disabled={area.length === 0}
          onClick={() => go([])}
          data-testid="map-world"
        >
          返回世界
        </Button>
      </nav>
      <div
        className={styles.map}
        role="region"
        aria-label="设备地图"
        data-testid="device-map"
        data-level={levelOf(area)}
      >
        {mapBody()}
      </div>
      <ul className={styles.regions} data-testid="map-regions" aria-label="各地区设备数">
        {regions.map((p) => {
          const drillable = drillInto(area, p.name, index.data) !== null;
          return (
            <li key={p.name}>
              <button
                type="button"
                className={styles.region}
                disabled={!drillable}
                data-testid="map-region"
                data-name={p.name}
                onClick={() => onRegion(p.name)}
              >
                {p.name}
                <span className={styles.regionCount}>{p.value}台</span>
              </button>
            </li>
          );
        })}
        {points.isSuccess && regions.length === 0 ? (
          <li className={styles.none} data-testid="map-regions-empty">
            暂无数据
          </li>
        ) : null}
      </ul>
      {dataFailed ? <ListState state="error" onRetry={retryFailed} /> : null}
    </div>
  );
};

export default MapPage;

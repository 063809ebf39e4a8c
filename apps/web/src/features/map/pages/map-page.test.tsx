import { ReplyCode } from '@linewatch/contracts/envelope';
import type { MapPoint, MapQuery, MapStatus } from '@linewatch/contracts/statistics';
import { statisticsApi } from '@linewatch/contracts/statistics-api';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { listMessages } from '@linewatch/contracts/list-messages';
import { LIVE_REFRESH_MS } from '../../../shared/live-refresh.ts';
import { links, paths } from '../../../shared/paths.ts';
import { failure, fakeApi, type Received } from '../../../testing/fake-api.ts';
import { renderPage } from '../../../testing/render-page.tsx';
import type { GeoIndex } from '../area.ts';
import type * as GeoModule from '../geo.ts';
import type { MapChartViewProps } from '../components/map-chart-view.tsx';

// The static map files and ECharts are not the page's logic: a file is an empty collection and
// the chart a list of its points, each a button as a tap on the map would be. `geoFiles.failing`
// map files (and `indexFailing` loads of index.json) fail first (a lost connection).
const geoFiles = vi.hoisted(() => ({ failing: 0, indexFailing: 0 }));
vi.mock('../geo.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof GeoModule>()),
  loadGeoIndex: (): Promise<GeoIndex> => {
    if (geoFiles.indexFailing > 0) {
      geoFiles.indexFailing -= 1;
      return Promise.reject(new Error('/map/index.json: 503'));
    }
    return Promise.resolve({
      provinces: { 广东省: '440000' },
      cities: { 广东省: { 深圳市: '440300' } },
    });
  },
  loadGeo: () => {
    if (geoFiles.failing > 0) {
      geoFiles.failing -= 1;
      return Promise.reject(new Error('/map/world.json: 503'));
    }
    return Promise.resolve({ type: 'FeatureCollection', features: [] });
  },
}));
vi.mock('../components/map-chart-view.tsx', () => ({
  default: ({ mapName, points, onRegion }: MapChartViewProps) => (
    <div data-testid="chart" data-map={mapName}>
      {points.map((p) => (
        <button key={p.name} type="button" onClick={() => onRegion(p.name)}>
          {`point ${p.name} ${p.value} @${p.coord.join(',')}`}
        </button>
      ))}
    </div>
  ),
}));

const status = (totalNum: number): MapStatus => ({
  totalNum,
  runningNum: 1,
  standbyNum: 2,
  errorNum: 3,
  offLineNum: totalNum - 6,
});

const pointsOf: Record<string, MapPoint[]> = {
  world: [
    { name: '中国', value: 20, coord: [110, 30] },
    { name: '德国', value: 2, coord: [10, 51] },
  ],
  country: [{ name: '广东省', value: 12, coord: [113.3, 23.1] }],
  province: [{ name: '深圳市', value: 8, coord: [114.1, 22.6] }],
  city: [{ name: '深圳市', value: 8, coord: [114.1, 22.6] }],
};
const totals: Record<string, number> = { world: 22, country: 20, province: 12, city: 8 };

const mapServer = () =>
  fakeApi()
    .on(statisticsApi.mapData, (q: Received<MapQuery>) => status(totals[String(q.mapLevel)]!))
    .on(statisticsApi.mapAllData, (q) => ({ machineStatusList: pointsOf[String(q.mapLevel)]! }));

/** A count of the summary, by its label (设备总数, 离线, 运行, 待机, 故障). */
const summaryCount = (label: string) =>
  within(screen.getByRole('group', { name: label })).getByText(/\d+/).textContent;

/** The levels shown in the breadcrumbs, the world first: the last is the level drawn. */
const levels = () =>
  within(screen.getByRole('navigation', { name: '地图层级' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

/** The map's shape: a mock of the ECharts view, found by its test id (a canvas has no words). */
const drawnMap = () => screen.getByTestId('chart').dataset.map;
const findDrawnMap = async (options = { timeout: 5_000 }) =>
  (await screen.findByTestId('chart', {}, options)).dataset.map;
const mapRegion = () => screen.getByRole('region', { name: '设备地图' });
const mapRetry = (options?: { timeout: number }) =>
  screen.findByRole('button', { name: '地图加载失败，点击重新加载' }, options);

/** The summary says `total` (the lazy page and its queries may take a moment on a busy machine). */
const showsTotal = (total: string) =>
  vi.waitFor(() => expect(summaryCount('设备总数')).toBe(total), { timeout: 10_000 });

describe('device map', { timeout: 30_000 }, () => {
  it('shows the world summary and drills world → China → province → city', async () => {
    const api = mapServer();
    const { router, user } = renderPage(paths.map, { api });
    await showsTotal('22');
    expect(summaryCount('离线')).toBe('16');
    expect(summaryCount('故障')).toBe('3');
    await screen.findByText('point 中国 20 @110,30');
    expect(drawnMap()).toBe('world.json');

    // Only China drills below the world.
    await user.click(screen.getByText('point 德国 2 @10,51'));
    expect(router.state.location.search).toBe('');

    await user.click(screen.getByText('point 中国 20 @110,30'));
    await showsTotal('20');
    expect(router.state.location.search).toBe(`?area=${encodeURIComponent('中国')}`);
    await vi.waitFor(() => expect(drawnMap()).toBe('100000.json'));

    await user.click(await screen.findByText(/point 广东省/));
    await vi.waitFor(() => expect(drawnMap()).toBe('440000.json'));
    await user.click(await screen.findByText(/point 深圳市/));
    await vi.waitFor(() => expect(drawnMap()).toBe('440300.json'));
    expect(levels().at(-1)).toBe('深圳市');
    expect(levels()).toHaveLength(4);
    expect(api.calls(statisticsApi.mapData).at(-1)).toEqual({
      mapLevel: 'city',
      positionName: '深圳市',
    });
    // No district below a city.
    await user.click(await screen.findByText(/point 深圳市/));
    expect(levels().at(-1)).toBe('深圳市');
    expect(levels()).toHaveLength(4);
  });

  it('goes up a level on right click and on 上一级, and back to the world with its button', async () => {
    const { router, user } = renderPage(links.map(['中国', '广东省']), { api: mapServer() });
    await showsTotal('12');
    fireEvent.contextMenu(mapRegion());
    await showsTotal('20');
    expect(levels().slice(1)).toEqual(['中国']);

    await user.click(screen.getByRole('button', { name: '上一级' }));
    await showsTotal('22');
    expect(screen.getByRole<HTMLButtonElement>('button', { name: '上一级' }).disabled).toBe(true);

    await router.navigate(links.map(['中国', '广东省', '深圳市']));
    await showsTotal('8');
    await user.click(screen.getByRole('button', { name: '返回世界' }));
    await showsTotal('22');
    expect(router.state.location.search).toBe('');
  });

  it('offers to load the map again when its file fails, and draws it on a tap', async () => {
    geoFiles.failing = 1;
    const { user } = renderPage(paths.map, { api: mapServer() });
    const retry = await mapRetry({ timeout: 10_000 });
    // The counts do not wait for the shape.
    await showsTotal('22');
    await user.click(retry);
    expect(await findDrawnMap()).toBe('world.json');
  });

  it('offers to load the map again when its index fails, not 暂无该地区地图', async () => {
    geoFiles.indexFailing = 1;
    const { user } = renderPage(links.map(['中国', '广东省']), { api: mapServer() });
    const retry = await mapRetry({ timeout: 10_000 });
    expect(screen.queryByText('暂无该地区地图')).toBeNull();
    await user.click(retry);
    expect(await findDrawnMap()).toBe('440000.json');
  });

  it('back online, one tap on the retry loads everything that failed offline: index, map, counts', async () => {
    // Offline at the world level, the index, the world's shape and both data queries all fail.
    geoFiles.indexFailing = 1;
    geoFiles.failing = 1;
    let offline = true;
    const down = () => failure('network', '网络异常，请检查网络连接');
    const api = fakeApi()
      .on(statisticsApi.mapData, (q: Received<MapQuery>) =>
        offline ? down() : status(totals[String(q.mapLevel)]!),
      )
      .on(statisticsApi.mapAllData, (q) =>
        offline ? down() : { machineStatusList: pointsOf[String(q.mapLevel)]! },
      );
    const { user } = renderPage(paths.map, { api });
    const retry = await mapRetry({ timeout: 10_000 });
    await screen.findByRole('button', { name: listMessages.retry });
    offline = false;
    await user.click(retry);
    expect(await findDrawnMap({ timeout: 10_000 })).toBe('world.json');
    await showsTotal('22');
    expect(screen.queryByRole('button', { name: '地图加载失败，点击重新加载' })).toBeNull();
    expect(screen.queryByRole('button', { name: listMessages.retry })).toBeNull();
  });

  it('offers to ask again when the map data fail, and shows the counts on a tap', async () => {
    let fail = true;
    const down = () => failure(ReplyCode.fault, '数据库不可用', 500);
    const api = fakeApi()
      .on(statisticsApi.mapData, (q: Received<MapQuery>) =>
        fail ? down() : status(totals[String(q.mapLevel)]!),
      )
      .on(statisticsApi.mapAllData, (q) =>
        fail ? down() : { machineStatusList: pointsOf[String(q.mapLevel)]! },
      );
    const { user } = renderPage(paths.map, { api });
    // A failed query stops its live refresh (shared/live-refresh.ts): only a tap asks again.
    const retry = await screen.findByRole(
      'button',
      { name: '请求失败，点击重新加载' },
      { timeout: 10_000 },
    );
    expect(screen.getByRole('group', { name: '设备总数' }).textContent).toBe('—设备总数');
    fail = false;
    await user.click(retry);
    await showsTotal('22');
    await screen.findByText('point 中国 20 @110,30');
    const regions = within(screen.getByRole('list', { name: '各地区设备数' })).getAllByRole(
      'button',
    );
    expect(regions.map((b) => b.textContent)).toEqual(['中国20台', '德国2台']);
    expect(screen.queryByRole('button', { name: listMessages.retry })).toBeNull();
  });

  it('folds the summary', async () => {
    const { user } = renderPage(paths.map, { api: mapServer() });
    await showsTotal('22');
    const toggle = screen.getByRole('button', { name: /设备概况/ });
    await user.click(toggle);
    expect(screen.queryByRole('group', { name: '设备总数' })).toBeNull();
    expect(toggle.textContent).toContain('共 22 台');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
  });

  it('keeps the counts live', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const api = mapServer();
      renderPage(paths.map, { api });
      await showsTotal('22');
      totals.world = 23;
      await vi.advanceTimersByTimeAsync(LIVE_REFRESH_MS);
      await showsTotal('23');
      expect(api.calls(statisticsApi.mapAllData).length).toBeGreaterThanOrEqual(2);
    } finally {
      totals.world = 22;
      vi.useRealTimers();
    }
  });
});

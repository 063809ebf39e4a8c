import type { Locator, Page } from 'playwright-core';
import { waitUntilDrawn } from '../support/settle.ts';

/** /map: the collapsible summary, the drill toolbar, the map and its regions' counts. */
export class MapPage {
  readonly summary: Locator;
  readonly summaryToggle: Locator;
  readonly map: Locator;
  readonly upButton: Locator;
  readonly worldButton: Locator;
  readonly crumbs: Locator;
  readonly regions: Locator;
  /** In place of the map when its file failed to load: 地图加载失败，点击重新加载. */
  readonly retry: Locator;
  /** Below the regions when the map data (counts, regions) failed: 请求失败，点击重新加载. */
  readonly dataRetry: Locator;

  constructor(private readonly page: Page) {
    this.summary = page.getByTestId('map-summary');
    this.summaryToggle = page.getByTestId('map-summary-toggle');
    this.map = page.getByTestId('device-map');
    this.upButton = page.getByTestId('map-up');
    this.worldButton = page.getByTestId('map-world');
    this.crumbs = page.getByTestId('map-crumbs');
    this.regions = page.getByTestId('map-region');
    this.retry = page.getByTestId('map-retry');
    this.dataRetry = page
      .getByTestId('map-page')
      .locator('[data-testid="list-state"][data-state="error"]');
  }

  /** Waits until the map of the current level is drawn with its points. */
  async waitUntilDrawn(): Promise<void> {
    await this.map.locator('svg').first().waitFor();
    await waitUntilDrawn(this.map.locator('svg').first());
  }

  async level(): Promise<string> {
    return (await this.map.getAttribute('data-level')) ?? '';
  }

  /** The summary's figures, as shown: 设备总数, 离线, 运行, 待机, 故障. */
  async summaryCounts(): Promise<Record<string, number>> {
    const keys = ['totalNum', 'offLineNum', 'runningNum', 'standbyNum', 'errorNum'];
    const out: Record<string, number> = {};
    for (const key of keys) {
      const text = await this.page
        .getByTestId(`map-summary-${key}`)
        .locator('span')
        .first()
        .textContent();
      out[key] = Number(text);
    }
    return out;
  }

  async summaryOpen(): Promise<boolean> {
    return (await this.summary.getAttribute('data-open')) === 'true';
  }

  /** Each region of the level with its machine count, e.g. ['深圳市', 24]. */
  async regionCounts(): Promise<[string, number][]> {
    return this.regions.evaluateAll((nodes) =>
      nodes.map((node): [string, number] => [
        node.getAttribute('data-name') ?? '',
        Number(/(\d+)台/.exec(node.textContent ?? '')?.[1]),
      ]),
    );
  }

  /** The text labels ECharts drew next to the scatter points. */
  async pointLabels(): Promise<string[]> {
    return this.map.locator('svg text').allTextContents();
  }

  /**
   * The regions of the GeoJSON the phone draws China from (/map/100000.json, the file
   * features/map/area.ts names for it), each with its number of polygons.
   */
  async chinaShape(): Promise<Record<string, number>> {
    return this.page.evaluate(async () => {
      type Geometry = { type: string; coordinates: unknown[] };
      const geo = (await (await fetch('/map/100000.json')).json()) as {
        features: { properties: { name: string }; geometry: Geometry }[];
      };
      return Object.fromEntries(
        geo.features.map((f) => [
          f.properties.name,
          f.geometry.type === 'MultiPolygon' ? f.geometry.coordinates.length : 1,
        ]),
      );
    });
  }

  async crumbTexts(): Promise<string[]> {
    return this.crumbs.locator('li').allTextContents();
  }

  async drillInto(region: string): Promise<void> {
    await this.page.locator(`[data-testid="map-region"][data-name="${region}"]`).tap();
  }

  /** A right click on the map goes up a level (docs/product.md section 4). */
  async rightClickMap(): Promise<void> {
    await this.map.click({ button: 'right' });
  }

  async up(): Promise<void> {
    await this.upButton.tap();
  }

  async backToWorld(): Promise<void> {
    await this.worldButton.tap();
  }
}

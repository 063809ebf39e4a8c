import { type MapQuery } from '@linewatch/contracts/statistics';
import { mapLevels, type MapLevel } from '@linewatch/contracts/statistics-rules';

/**
 * Where the map is drilled to, as the names from the top: [] the world, ['中国'] China,
 * ['中国', '广东省'] a province, ['中国', '广东省', '深圳市'] a city (docs/product.md section 4: only China
 * below the world, no district below a city). Kept in the address (?area=中国/广东省), so the
 * back button and a refresh keep the level.
 */
export type Area = readonly string[];

/** Province name → adcode, and each province's city name → adcode (/map/index.json). */
export interface GeoIndex {
  provinces: Record<string, string>;
  cities: Record<string, Record<string, string>>;
}

export const CHINA = '中国';

export const areaFrom = (param: string | null): Area =>
  (param ?? '')
    .split('/')
    .map((name) => name.trim())
    .filter(Boolean)
    .slice(0, mapLevels.length - 1);

export const levelOf = (area: Area): MapLevel => mapLevels[area.length] ?? 'city';

export const queryOf = (area: Area): MapQuery => ({
  mapLevel: levelOf(area),
  positionName: area.at(-1) ?? '',
});

/** The GeoJSON file of an area under /map/, or null when there is none (no shape to draw). */
export const geoFileOf = (area: Area, index: GeoIndex | undefined): string | null => {
  const [country, province, city] = area;
  if (country === undefined) return 'world.json';
  if (country !== CHINA) return null;
  if (province === undefined) return '100000.json';
  const code = city === undefined ? index?.provinces[province] : index?.cities[province]?.[city];
  return code ? `${code}.json` : null;
};

/** The area a tap on region `name` opens, or null when the map goes no deeper there. */
export const drillInto = (area: Area, name: string, index: GeoIndex | undefined): Area | null => {
  if (area.length >= mapLevels.length - 1) return null;
  if (area.length === 0) return name === CHINA ? [CHINA] : null;
  const next = [...area, name];
  return geoFileOf(next, index) ? next : null;
};

export const parentOf = (area: Area): Area => area.slice(0, -1);

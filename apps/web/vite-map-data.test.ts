import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { cachedDir, mapFiles, mapOutDir } from './vite-map-data.ts';

interface Collection {
  features: {
    properties: Record<string, unknown>;
    geometry: { type: string; coordinates: unknown[] } | null;
  }[];
}

const files = mapFiles();
const collection = (name: string) => JSON.parse(files.get(name)!) as Collection;
const names = (c: Collection) => c.features.map((f) => f.properties.name);

describe("the device map's files (/map/)", () => {
  it('has the world with Chinese names, and China by province with the South China Sea islands', () => {
    expect(names(collection('world.json'))).toContain('中国');
    const china = collection('100000.json');
    expect(names(china)).toEqual(expect.arrayContaining(['广东省', '海南省', '台湾省']));
    // Maps published in China show the complete territory: the islands are their own feature.
    const islands = china.features.find((f) => f.properties.name === '南海诸岛');
    expect(islands?.geometry?.type).toBe('MultiPolygon');
    expect(islands?.geometry?.coordinates.length).toBeGreaterThan(0);
  });

  it('indexes every province and city that has a file, and writes a file for each', () => {
    const index = JSON.parse(files.get('index.json')!) as {
      provinces: Record<string, string>;
      cities: Record<string, Record<string, string>>;
    };
    expect(index.provinces['广东省']).toBe('440000');
    expect(index.cities['广东省']?.['深圳市']).toBe('440300');
    const named = [
      ...Object.values(index.provinces),
      ...Object.values(index.cities).flatMap((cities) => Object.values(cities)),
    ];
    for (const code of named) expect(files.has(`${code}.json`), code).toBe(true);
    // Nothing else but the world, China and the index: no package index or root file.
    expect(files.size).toBe(new Set(named).size + 3);
  });

  it('keeps only the properties the map reads, and coordinates to 4 decimals', () => {
    const shenzhen = collection('440300.json');
    expect(shenzhen.features.length).toBeGreaterThan(0);
    expect(
      shenzhen.features.every((f) =>
        Object.keys(f.properties).every((k) => ['name', 'adcode', 'center'].includes(k)),
      ),
    ).toBe(true);
    const decimals = (files.get('440300.json')!.match(/\d+\.(\d+)/g) ?? []).map(
      (n) => n.split('.')[1]!.length,
    );
    expect(Math.max(...decimals)).toBeLessThanOrEqual(4);
  });
});

describe('where a build writes them', () => {
  it('under the outDir, relative to the root or absolute as given', () => {
    expect(mapOutDir('/repo/apps/web', 'dist')).toBe('/repo/apps/web/dist/map');
    expect(mapOutDir('/repo/apps/web', '/tmp/web-dist')).toBe('/tmp/web-dist/map');
  });
});

describe('the cache the files are made into once', () => {
  const big = JSON.stringify({ features: Array.from({ length: 200 }, (_, i) => ({ i })) });
  const maker = () => {
    const made = { count: 0 };
    const make = () => {
      made.count += 1;
      return new Map([
        ['big.json', big],
        ['small.json', '{}'],
      ]);
    };
    return { made, make };
  };
  const temporary: string[] = [];
  const newRoot = () => {
    temporary.push(mkdtempSync(join(tmpdir(), 'linewatch-map-')));
    return join(temporary.at(-1)!, 'cache');
  };
  afterAll(() => {
    for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
  });

  it('makes them once per key, with compressed copies of the files of 1 KB or more', async () => {
    const root = newRoot();
    const { made, make } = maker();
    const dir = await cachedDir(root, 'k1', make);
    expect(await cachedDir(root, 'k1', make)).toBe(dir);
    expect(made.count).toBe(1);
    expect(readFileSync(join(dir, 'big.json'), 'utf8')).toBe(big);
    expect(gunzipSync(readFileSync(join(dir, 'big.json.gz'))).toString()).toBe(big);
    expect(existsSync(join(dir, 'big.json.br'))).toBe(true);
    expect(existsSync(join(dir, 'small.json.gz'))).toBe(false);
  });

  it('gives two builds at once the same complete files', async () => {
    const root = newRoot();
    const { make } = maker();
    const [a, b] = await Promise.all([cachedDir(root, 'k1', make), cachedDir(root, 'k1', make)]);
    expect(b).toBe(a);
    expect(readFileSync(join(a, 'big.json'), 'utf8')).toBe(big);
    expect(gunzipSync(readFileSync(join(a, 'big.json.gz'))).toString()).toBe(big);
    // Nothing left half-made beside the key's directory.
    expect(readdirSync(root)).toEqual(['k1']);
  });

  it("removes another key's stale files, and leaves a build in progress alone", async () => {
    const root = newRoot();
    const { make } = maker();
    await cachedDir(root, 'old', make);
    // Another process making the same key's files.
    const other = join(root, 'k1.other-build');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, 'big.json'), big);
    await cachedDir(root, 'k1', make);
    expect(existsSync(join(root, 'old'))).toBe(false);
    expect(readFileSync(join(other, 'big.json'), 'utf8')).toBe(big);
  });
});

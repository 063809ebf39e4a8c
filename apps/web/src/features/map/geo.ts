import type { GeoIndex } from './area.ts';

/** A GeoJSON collection as the map files under /map/ hold it (vite-map-data.ts writes them). */
export interface GeoCollection {
  type: 'FeatureCollection';
  features: {
    properties: { name: string; center?: [number, number] };
    geometry: { type: string; coordinates: unknown } | null;
  }[];
}

/** The map's static files: not the API (no envelope, no keyId), fetched once and cached. */
const loadJson = async <T>(file: string, signal?: AbortSignal): Promise<T> => {
  const response = await fetch(`/map/${file}`, { signal: signal ?? null });
  if (!response.ok) throw new Error(`/map/${file}: ${response.status}`);
  return (await response.json()) as T;
};

export const loadGeo = (file: string, signal?: AbortSignal) =>
  loadJson<GeoCollection>(file, signal);
export const loadGeoIndex = (signal?: AbortSignal) => loadJson<GeoIndex>('index.json', signal);

type Position = [number, number];

const positionsOf = (coordinates: unknown): Position[] => {
  if (!Array.isArray(coordinates)) return [];
  if (typeof coordinates[0] === 'number') return [coordinates as Position];
  return coordinates.flatMap(positionsOf);
};

/**
 * Where a region's scatter point goes when no machine gives a position: the file's own centre,
 * else the middle of its bounding box.
 */
export const centreOf = (geo: GeoCollection, name: string): Position | null => {
  const feature = geo.features.find((f) => f.properties.name === name);
  if (!feature) return null;
  if (feature.properties.center) return feature.properties.center;
  const points = positionsOf(feature.geometry?.coordinates);
  if (points.length === 0) return null;
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2];
};

import type { MapLevel } from '@linewatch/contracts/statistics-rules';
import type { DeviceInfo, MachinePlace } from './machine.ts';

type PlaceField = 'country' | 'province' | 'city';

/** Which machines an area holds, and by which field its next level is grouped. */
const AREA: Record<MapLevel, { within: PlaceField | null; by: PlaceField }> = {
  world: { within: null, by: 'country' },
  country: { within: 'country', by: 'province' },
  province: { within: 'province', by: 'city' },
  // No district level (docs/product.md section 4): a city is shown as itself.
  city: { within: 'city', by: 'city' },
};

/** A region's machines of one line: how many, and the sums for the mean of their positions. */
export interface RegionSums {
  machines: number;
  /** Of them, those with a position, and their positions' sums. */
  placed: number;
  lng: number;
  lat: number;
}

/** One map area's machines of one line, and the area's next-level regions (named ones only). */
export interface LineArea {
  machines: DeviceInfo[];
  /** In the order of their first machine (the lists' order). */
  regions: Map<string, RegionSums>;
}

/** A line's areas at each map level, by the area's name ('' for the world). */
export type LineAreas = Record<MapLevel, Map<string, LineArea>>;

const areaKey = (level: MapLevel, place: Pick<MachinePlace, PlaceField>) => {
  const { within } = AREA[level];
  return within === null ? '' : place[within];
};

/**
 * A line's machines (in SN order) by map area, with each area's regions summed, so the map costs
 * a request its visible lines' regions, not their machines (docs/architecture.md decision 12).
 */
export const lineAreasOf = (machines: readonly DeviceInfo[]): LineAreas => {
  const areas: LineAreas = {
    world: new Map(),
    country: new Map(),
    province: new Map(),
    city: new Map(),
  };
  for (const level of Object.keys(AREA) as MapLevel[]) {
    const byArea = areas[level];
    const { by } = AREA[level];
    for (const d of machines) {
      const key = areaKey(level, d.place);
      let area = byArea.get(key);
      if (!area) byArea.set(key, (area = { machines: [], regions: new Map() }));
      area.machines.push(d);
      const name = d.place[by];
      if (!name) continue;
      let r = area.regions.get(name);
      if (!r) area.regions.set(name, (r = { machines: 0, placed: 0, lng: 0, lat: 0 }));
      r.machines += 1;
      if (d.place.lng !== null && d.place.lat !== null) {
        r.placed += 1;
        r.lng += d.place.lng;
        r.lat += d.place.lat;
      }
    }
  }
  return areas;
};

/** The area a map request names (its place is ignored at world level), within one line. */
export const lineAreaOf = (
  areas: LineAreas,
  level: MapLevel,
  positionName: string,
): LineArea | undefined => areas[level].get(AREA[level].within === null ? '' : positionName);

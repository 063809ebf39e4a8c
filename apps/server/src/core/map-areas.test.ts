import { describe, expect, it } from 'vitest';
import { deviceInfo } from '../test/machines.ts';
import type { DeviceInfo } from './machine.ts';
import { lineAreaOf, lineAreasOf } from './map-areas.ts';

const machine = (
  sn: string,
  country: string,
  province: string,
  city: string,
  at: [number, number] | null = null,
): DeviceInfo =>
  deviceInfo(sn, {
    place: { country, province, city, lng: at?.[0] ?? null, lat: at?.[1] ?? null },
  });

describe('a line by map area', () => {
  const machines = [
    machine('A1', '中国', '广东省', '深圳市', [114, 22]),
    machine('A2', '德国', '', ''),
    machine('A3', '中国', '广东省', '东莞市', [113, 23]),
    machine('A4', '中国', '江苏省', '苏州市'),
    machine('A5', '中国', '广东省', '深圳市', [116, 24]),
    machine('A6', '', '', ''),
  ];
  const areas = lineAreasOf(machines);

  it('holds every machine at world level and groups the named ones by country', () => {
    const world = lineAreaOf(areas, 'world', 'ignored at world level')!;
    expect(world.machines.map((d) => d.sn)).toEqual(['A1', 'A2', 'A3', 'A4', 'A5', 'A6']);
    expect([...world.regions]).toEqual([
      ['中国', { machines: 4, placed: 3, lng: 343, lat: 69 }],
      ['德国', { machines: 1, placed: 0, lng: 0, lat: 0 }],
    ]);
  });

  it('narrows to the area named and groups by the next level, a city by itself', () => {
    expect([...lineAreaOf(areas, 'country', '中国')!.regions.keys()]).toEqual(['广东省', '江苏省']);
    const guangdong = lineAreaOf(areas, 'province', '广东省')!;
    expect(guangdong.machines.map((d) => d.sn)).toEqual(['A1', 'A3', 'A5']);
    expect(guangdong.regions.get('深圳市')).toEqual({ machines: 2, placed: 2, lng: 230, lat: 46 });
    expect([...lineAreaOf(areas, 'city', '深圳市')!.regions.keys()]).toEqual(['深圳市']);
    expect(lineAreaOf(areas, 'country', '日本')).toBeUndefined();
    // A country without provinces has its machines but no region below it.
    expect(lineAreaOf(areas, 'country', '德国')).toMatchObject({ regions: new Map() });
  });
});

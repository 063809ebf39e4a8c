import { describe, expect, it } from 'vitest';
import { areaFrom, drillInto, geoFileOf, parentOf, queryOf, type GeoIndex } from './area.ts';

const index: GeoIndex = {
  provinces: { 广东省: '440000', 北京市: '110000' },
  cities: { 广东省: { 深圳市: '440300' }, 北京市: {} },
};

describe('the map drill (docs/product.md section 4)', () => {
  it('reads the area from the address, at most down to a city', () => {
    expect(areaFrom(null)).toEqual([]);
    expect(areaFrom('中国/广东省')).toEqual(['中国', '广东省']);
    expect(areaFrom('中国/广东省/深圳市/南山区')).toEqual(['中国', '广东省', '深圳市']);
  });

  it('asks the server for the level and place shown', () => {
    expect(queryOf([])).toEqual({ mapLevel: 'world', positionName: '' });
    expect(queryOf(['中国'])).toEqual({ mapLevel: 'country', positionName: '中国' });
    expect(queryOf(['中国', '广东省', '深圳市'])).toEqual({
      mapLevel: 'city',
      positionName: '深圳市',
    });
  });

  it('drills world → China only → province → city, and no further', () => {
    expect(drillInto([], '德国', index)).toBeNull();
    expect(drillInto([], '中国', index)).toEqual(['中国']);
    expect(drillInto(['中国'], '广东省', index)).toEqual(['中国', '广东省']);
    expect(drillInto(['中国', '广东省'], '深圳市', index)).toEqual(['中国', '广东省', '深圳市']);
    // A municipality's districts have no map of their own: no drill.
    expect(drillInto(['中国', '北京市'], '东城区', index)).toBeNull();
    expect(drillInto(['中国', '广东省', '深圳市'], '南山区', index)).toBeNull();
    expect(parentOf(['中国', '广东省'])).toEqual(['中国']);
  });

  it('names each level its GeoJSON file under /map/', () => {
    expect(geoFileOf([], index)).toBe('world.json');
    expect(geoFileOf(['中国'], index)).toBe('100000.json');
    expect(geoFileOf(['中国', '广东省'], index)).toBe('440000.json');
    expect(geoFileOf(['中国', '广东省', '深圳市'], index)).toBe('440300.json');
    expect(geoFileOf(['德国'], index)).toBeNull();
  });
});

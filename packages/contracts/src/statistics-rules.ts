import { rangeMessages } from './rules/range.ts';

/*
 * The map's and the statistics' messages and rules without zod (statistics.ts holds the schemas):
 * the screens import this file, so zod never lands on their first screen.
 */

/** The device map and the statistics page (docs/product.md sections 3, 5, 7, 9). */
export const statisticsMessages = {
  // docs/product.md section 5, statistics search (the time rules: rules/range.ts)
  timeRequired: rangeMessages.timeRequired,
  startAfterEnd: rangeMessages.startAfterEnd,
  future: rangeMessages.future,
  lineFirst: '请先选择产品线',
  rangeTooLong: rangeMessages.rangeTooLong,
  badTime: rangeMessages.badTime,
  badFilters: '筛选条件格式错误',
  unknownLine: '产品线不存在',
  unknownGroup: '产品组不存在',
  badMapLevel: '地图层级只能是 world、country、province 或 city',
  positionRequired: '请选择地区',
  lineFailed: '获取产品线失败',
  groupFailed: '获取产品组失败',
} as const;

/** Map drill levels (docs/product.md section 4): world, then China, a province, a city; no district. */
export const mapLevels = ['world', 'country', 'province', 'city'] as const;
export type MapLevel = (typeof mapLevels)[number];

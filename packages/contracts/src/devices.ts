import { z } from 'zod';
import { PAGE_SIZE } from './limits.ts';
import { calendarDate, primitiveMessages, text } from './primitives.ts';

export const deviceMessages = {
  listFailed: '获取设备列表失败',
  noData: '暂无数据',
  noResult: '查无数据',
  noMore: '没有更多了',
  retry: '请求失败，点击重新加载',
  badDate: primitiveMessages.badDate,
  badPage: '页码必须是正整数',
  badPageSize: '每页条数应为 1 到 100 的整数',
  badFlag: '关注筛选只能是 0 或 1',
  textTooLong: '筛选条件不能超过 64 个字',
} as const;

export const deviceStatus = z.enum(['running', 'standBy', 'error', 'offLine']);
export type DeviceStatus = z.infer<typeof deviceStatus>;

/** iot: 0 no gateway bound, 1 gateway online, 2 gateway offline. */
export const iotState = z.union([z.literal(0), z.literal(1), z.literal(2)]);
export type IotState = z.infer<typeof iotState>;

const flag = z.enum(['0', '1', ''], { error: deviceMessages.badFlag }).optional();
const optionalText = text().trim().max(64, deviceMessages.textTooLong).optional();

/** Query of GET /api/wechat/machine/list/findMachineDataByCondition. */
export const machineListQuery = z.object({
  isFollow: flag,
  dataDate: calendarDate(deviceMessages.badDate).optional().or(z.literal('')),
  produceLine: optionalText,
  produceGroup: optionalText,
  nameTag: optionalText,
  pageIndex: z.coerce
    .number({ error: deviceMessages.badPage })
    .int(deviceMessages.badPage)
    .min(1, deviceMessages.badPage)
    .default(1),
  pageSize: z.coerce
    .number({ error: deviceMessages.badPageSize })
    .int(deviceMessages.badPageSize)
    .min(1, deviceMessages.badPageSize)
    .max(100, deviceMessages.badPageSize)
    .default(PAGE_SIZE.deviceList),
});
export type MachineListQuery = z.input<typeof machineListQuery>;

/** One card of the device list (spec section 3 plus the figures its colouring compares). */
export const machineCard = z.object({
  snCode: z.string(),
  nickSnCode: z.string(),
  deviceName: z.string(),
  deviceStatus,
  iot: iotState,
  isCollect: z.boolean(),
  produceLine: z.string(),
  produceGroup: z.string(),
  produceNumber: z.number(),
  produceTargetNumber: z.number(),
  ngNumber: z.number(),
  ngTargetNumber: z.number(),
  ppm: z.number(),
  maxPPM: z.number(),
  ppmTarget: z.number(),
  superiorityRate: z.number(),
  superiorityRateTarget: z.number(),
  yield: z.number(),
  yieldTarget: z.number(),
  useRate: z.number(),
  useRateTarget: z.number(),
});
export type MachineCard = z.infer<typeof machineCard>;

export const machineListReply = z.object({ data: z.array(machineCard), total: z.number() });
export type MachineListReply = z.infer<typeof machineListReply>;

/** Query of GET /api/rpf/userFollowSn/getProcessAndCount. */
export const processAndCountQuery = z.object({ isFollow: flag });

export type MenuKind = 'all' | 'follow' | 'line' | 'group';
export interface MenuNode {
  text: string;
  count: number;
  kind: MenuKind;
  produceLine?: string;
  produceGroup?: string;
  children?: MenuNode[];
}
export const menuNode: z.ZodType<MenuNode> = z.lazy(() =>
  z.object({
    text: z.string(),
    count: z.number(),
    kind: z.enum(['all', 'follow', 'line', 'group']),
    produceLine: z.string().optional(),
    produceGroup: z.string().optional(),
    children: z.array(menuNode).optional(),
  }),
);
export const menuLabels = { all: '全部', follow: '我的关注' } as const;

/** Whether a card figure meets its target (spec section 4, card status colouring). */
export const cardMeetsTarget = {
  produced: (c: MachineCard) => c.produceNumber >= c.produceTargetNumber,
  ng: (c: MachineCard) => c.ngNumber <= c.ngTargetNumber,
  ppm: (c: MachineCard) => c.ppm >= c.ppmTarget,
  yield: (c: MachineCard) => c.yield > c.yieldTarget,
  superiorityRate: (c: MachineCard) => c.superiorityRate > c.superiorityRateTarget,
  useRate: (c: MachineCard) => c.useRate > c.useRateTarget,
};

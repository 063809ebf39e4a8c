import { z } from 'zod';
import { listMessages } from './list-messages.ts';
import { primitiveMessages } from './primitive-messages.ts';
import { pageNumberField, pageSizeField } from './paging.ts';
import { calendarDate, text } from './primitives.ts';
import { IOT_STATE } from './rules/gateway-states.ts';
import { DEVICE_STATUSES } from './rules/machine-states.ts';
import { PAGE_SIZE } from './rules/paging.ts';

export const deviceMessages = {
  listFailed: '获取设备列表失败',
  ...listMessages,
  badDate: primitiveMessages.badDate,
  badFlag: '关注筛选只能是 0 或 1',
  textTooLong: '筛选条件不能超过 64 个字',
  badStatus: '设备状态只能是 running、standBy、error 或 offLine',
} as const;

export const deviceStatus = z.enum(DEVICE_STATUSES);

/** iot (rules/gateway-states.ts): 0 no gateway bound, 1 gateway online, 2 gateway offline. */
const iotState = z.union([
  z.literal(IOT_STATE.unbound),
  z.literal(IOT_STATE.online),
  z.literal(IOT_STATE.offline),
]);

const flag = z.enum(['0', '1', ''], { error: deviceMessages.badFlag }).optional();
const optionalText = text().trim().max(64, deviceMessages.textTooLong).optional();

/** Query of GET /api/wechat/machine/list/findMachineDataByCondition. */
export const machineListQuery = z.object({
  isFollow: flag,
  dataDate: calendarDate(deviceMessages.badDate).optional().or(z.literal('')),
  produceLine: optionalText,
  produceGroup: optionalText,
  nameTag: optionalText,
  /** Only machines in this live status (a tap on the status summary). */
  deviceStatus: z
    .enum([...deviceStatus.options, ''], { error: deviceMessages.badStatus })
    .optional(),
  pageIndex: pageNumberField(),
  pageSize: pageSizeField(PAGE_SIZE.deviceList),
});
export type MachineListQuery = z.input<typeof machineListQuery>;

/**
 * One card of the device list (docs/product.md section 3 plus the figures its colouring compares). A ratio
 * with no denominator (yield with no parts, utilisation with no observed time, PPM with no
 * running minute, superiority rate with no parts) is null: no data, shown as "—", not 0.
 * Count targets come twice: the machine's day target, and the target due by now
 * (`…TargetDue`, prorated to the elapsed part of the factory day when the day shown is today,
 * `targetPartial`), which the colouring compares (docs/design.md section 5, a day in progress).
 */
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
  produceTargetDue: z.number(),
  ngNumber: z.number(),
  ngTargetNumber: z.number(),
  ngTargetDue: z.number(),
  /** The due targets are prorated (today, in progress) rather than the whole day's. */
  targetPartial: z.boolean(),
  ppm: z.number().nullable(),
  maxPPM: z.number(),
  ppmTarget: z.number(),
  superiorityRate: z.number().nullable(),
  superiorityRateTarget: z.number(),
  yield: z.number().nullable(),
  yieldTarget: z.number(),
  useRate: z.number().nullable(),
  useRateTarget: z.number(),
});
export type MachineCard = z.infer<typeof machineCard>;

export const machineListReply = z.object({ data: z.array(machineCard), total: z.number() });
export type MachineListReply = z.infer<typeof machineListReply>;

/** Query of the status summary (devices-api.ts). */
export const statusSummaryQuery = z.object({
  isFollow: flag,
  produceLine: optionalText,
  produceGroup: optionalText,
  nameTag: optionalText,
});
export type StatusSummaryQuery = z.input<typeof statusSummaryQuery>;
export const statusSummary = z.object({
  running: z.number(),
  standBy: z.number(),
  error: z.number(),
  offLine: z.number(),
});
export type StatusSummary = z.infer<typeof statusSummary>;

/** Query of GET /api/rpf/userFollowSn/getProcessAndCount. */
export const processAndCountQuery = z.object({ isFollow: flag });
export type ProcessAndCountQuery = z.input<typeof processAndCountQuery>;

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

/** How much of a day's count target is due: the label when it is prorated (a day in progress). */
export const targetLabels = { day: '目标', soFar: '目标(至当前)' } as const;

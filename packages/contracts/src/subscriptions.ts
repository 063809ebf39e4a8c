import { z } from 'zod';
import { deviceMessages } from './devices.ts';
import { pageNumberField, pageSizeField } from './paging.ts';
import { text } from './primitives.ts';
import { PAGE_SIZE } from './rules/paging.ts';

/** Messages of the subscription screens and calls (docs/product.md sections 5, 8). */
export const subscriptionMessages = {
  needReportType: '若选择统计，则至少选择一种报表类型',
  selectMachine: '请先选择机台',
  cancelFailed: '取消关注失败',
  /** After a cancel went through (the list, the batch, the settings page). */
  cancelled: '已取消订阅',
  /** A delete whose target is not (or no longer) the user's follow (docs/product.md section 8). */
  deleteGone: '删除有误，请重新进入页面操作',
  followFailed: '关注失败',
  badTimeLength: '告警停机时长应为 0 到 1 小时 55 分，以 5 分钟为步长',
  badIds: '请选择要删除的订阅',
  saved: '保存成功',
} as const;

/** Alarm-stop duration picker (docs/product.md section 9): hours 0–1, minutes 0–55 in steps of 5. */
export const TIME_LENGTH = {
  hours: [0, 1],
  minutes: Array.from({ length: 12 }, (_, i) => i * 5),
  ofPicker: (hours: number, minutes: number) => hours * 3_600_000 + minutes * 60_000,
  toPicker: (ms: number) => ({
    hours: Math.floor(ms / 3_600_000),
    minutes: Math.floor((ms % 3_600_000) / 60_000),
  }),
  max: 3_600_000 + 55 * 60_000,
} as const;

/** Comma-separated SN codes (spec: snCode comma-separated), at least one. */
const snList = text()
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  )
  .refine((list) => list.length > 0 && list.length <= 500, subscriptionMessages.selectMachine);

const flag = z.boolean().default(false);

/** Body of POST addFollow: the settings for one machine or a batch. */
export const addFollowBody = z
  .object({
    snCode: z.string({ error: subscriptionMessages.selectMachine }).pipe(snList),
    realTimeReminder: flag,
    threeParameters: flag,
    alarm: flag,
    daily: flag,
    week: flag,
    /** The screen's 统计 checkbox: when on, at least one report type. */
    statistics: z.boolean().optional(),
    timeLength: z
      .number({ error: subscriptionMessages.badTimeLength })
      .int(subscriptionMessages.badTimeLength)
      .min(0, subscriptionMessages.badTimeLength)
      .max(TIME_LENGTH.max, subscriptionMessages.badTimeLength)
      .refine((v) => v % 300_000 === 0, subscriptionMessages.badTimeLength)
      .default(0),
  })
  .refine((b) => !b.statistics || b.daily || b.week, {
    message: subscriptionMessages.needReportType,
    path: ['daily'],
  });
export type AddFollowBody = z.input<typeof addFollowBody>;

/** Body of POST cancelFollow: snCode comma-separated. */
export const cancelFollowBody = z.object({
  snCode: z.string({ error: subscriptionMessages.selectMachine }).pipe(snList),
});
export type CancelFollowBody = z.input<typeof cancelFollowBody>;

/** Body of POST delFollows: snCodes comma-separated. */
export const delFollowsBody = z.object({
  snCodes: z.string({ error: subscriptionMessages.selectMachine }).pipe(snList),
});
export type DelFollowsBody = z.input<typeof delFollowsBody>;

export const snCodeQuery = z.object({
  snCode: z.string({ error: subscriptionMessages.selectMachine }).pipe(snList),
});
export type SnCodeQuery = z.input<typeof snCodeQuery>;

/** One subscription's settings (docs/product.md section 3, Subscription). */
export const followSettings = z.object({
  snCode: z.string(),
  isFollow: z.boolean(),
  userFollowSnId: z.number().nullable(),
  realTimeReminder: z.boolean(),
  threeParameters: z.boolean(),
  alarm: z.boolean(),
  daily: z.boolean(),
  week: z.boolean(),
  timeLength: z.number(),
});
export type FollowSettings = z.infer<typeof followSettings>;

/** Dictionary items (docs/product.md section 3): label, value. */
export const dictItem = z.object({ label: z.string(), value: z.string() });
export type DictItem = z.infer<typeof dictItem>;

const optionalText = text().trim().max(64, deviceMessages.textTooLong).optional();

/** Query of getWeChatSnCodes: the selector's SN list, 20 per chunk. */
export const snCodesQuery = z.object({
  nameTag: optionalText,
  pageIndex: pageNumberField(),
  pageSize: pageSizeField(PAGE_SIZE.subscription, { message: null }),
});
export type SnCodesQuery = z.input<typeof snCodesQuery>;
export const snCodesReply = z.object({ data: z.array(dictItem), totalNum: z.number() });
export type SnCodesReply = z.infer<typeof snCodesReply>;

/**
 * Query of the user dictionary ("not shown by path": user dictionary (nameTag)): the machines
 * this user follows, as dictionary items, those whose SN or nickname holds nameTag.
 */
export const userDictQuery = z.object({ nameTag: optionalText });
export type UserDictQuery = z.input<typeof userDictQuery>;

/** Query of the subscription list ("not shown by path": pageNumber, pageSize 20, totalNum). */
export const followListQuery = z.object({
  isFollow: z.enum(['0', '1', '']).optional(),
  produceGroup: optionalText,
  nameTag: optionalText,
  pageNumber: pageNumberField(),
  pageSize: pageSizeField(PAGE_SIZE.subscription, { message: null }),
});
export type FollowListQuery = z.input<typeof followListQuery>;

/** A row of the subscription list (docs/product.md section 3, Device, with its settings). */
export const followRow = z.object({
  snCode: z.string(),
  nickSnCode: z.string(),
  deviceName: z.string(),
  produceGroup: z.string(),
  yield: z.number().nullable(),
  yieldTarget: z.number(),
  useRate: z.number().nullable(),
  useRateTarget: z.number(),
  ppm: z.number().nullable(),
  ppmTarget: z.number(),
  isFollow: z.boolean(),
  userFollowSnId: z.number().nullable(),
});
export type FollowRow = z.infer<typeof followRow>;
export const followListReply = z.object({ data: z.array(followRow), totalNum: z.number() });
export type FollowListReply = z.infer<typeof followListReply>;

/** Delete one subscription (id) / several (ids comma-separated). */
export const followIdBody = z.object({
  id: z.coerce
    .number({ error: subscriptionMessages.badIds })
    .int()
    .positive(subscriptionMessages.badIds),
});
export type FollowIdBody = z.input<typeof followIdBody>;
export const followIdsBody = z.object({
  ids: z
    .string({ error: subscriptionMessages.badIds })
    .transform((v) => v.split(',').map((s) => Number(s.trim())))
    .refine(
      (ids) => ids.length > 0 && ids.every((n) => Number.isInteger(n) && n > 0),
      subscriptionMessages.badIds,
    ),
});
export type FollowIdsBody = z.input<typeof followIdsBody>;
/** How many subscriptions a change touched. */
export const changedReply = z.object({ count: z.number() });
export type ChangedReply = z.infer<typeof changedReply>;

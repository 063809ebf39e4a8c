import { z } from 'zod';
import { pageNumberField, pageSizeField } from './paging.ts';
import { calendarDate, text, whenMissing } from './primitives.ts';
import { PAGE_SIZE } from './rules/paging.ts';

export const alertMessages = {
  noDevice: '当前无选择设备',
  chooseDevice: '请选择查阅的设备',
  badReportType: '报表类型只能是 date 或 week',
  badIds: '请选择消息',
  badWebhook: '请输入以 http:// 或 https:// 开头的地址',
  wechatRequired: '请选择是否接收微信通知',
  dingtalkRequired: '请选择是否接收钉钉通知',
  webhookPrivate: '不能推送到内网或本机地址',
  webhookUnresolved: '无法解析该地址的域名',
  saved: '保存成功',
} as const;

/** Query of the inbox (paged like the subscription list). */
export const inboxQuery = z.object({
  pageNumber: pageNumberField(),
  pageSize: pageSizeField(PAGE_SIZE.subscription, { message: null }),
});
export type InboxQuery = z.input<typeof inboxQuery>;

export const inboxMessage = z.object({
  id: z.number(),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  createdAt: z.string(),
  read: z.boolean(),
  /** The alarm an alarm message is about: the app offers to start a FACA question from it. */
  alarm: z.object({ snCode: z.string(), warningContent: z.string() }).nullable(),
});
export type InboxMessage = z.infer<typeof inboxMessage>;
export const inboxReply = z.object({
  data: z.array(inboxMessage),
  totalNum: z.number(),
  unread: z.number(),
});
export type InboxReply = z.infer<typeof inboxReply>;
export const unreadReply = z.object({ unread: z.number() });
export type UnreadReply = z.infer<typeof unreadReply>;

/** Mark read: some messages by id, or all of them. */
export const markReadBody = z
  .object({
    ids: z.array(z.number().int().positive()).max(500).optional(),
    all: z.boolean().optional(),
  })
  .refine((b) => b.all === true || (b.ids?.length ?? 0) > 0, alertMessages.badIds);
export type MarkReadBody = z.input<typeof markReadBody>;

/** /set: the channels a person gets messages on, and their account. */
export const channelSettings = z.object({
  /** Configured on this server and the account is signed in through it (has an identity there). */
  wechatAvailable: z.boolean(),
  dingtalkAvailable: z.boolean(),
  webhookAvailable: z.boolean(),
  wechat: z.boolean(),
  dingtalk: z.boolean(),
  webhookUrl: z.string().nullable(),
  account: z.object({
    psnCode: z.string(),
    name: z.string(),
    nickName: z.string(),
    mobile: z.string().nullable(),
    wechatBound: z.boolean(),
    dingtalkBound: z.boolean(),
  }),
});
export type ChannelSettings = z.infer<typeof channelSettings>;

export const saveChannelsBody = z.object({
  wechat: z.boolean(whenMissing(alertMessages.wechatRequired)),
  dingtalk: z.boolean(whenMissing(alertMessages.dingtalkRequired)),
  webhookUrl: text()
    .trim()
    .max(500, alertMessages.badWebhook)
    .refine((v) => v === '' || /^https?:\/\/[^\s]+$/.test(v), alertMessages.badWebhook)
    .nullable()
    .optional(),
});
export type SaveChannelsBody = z.input<typeof saveChannelsBody>;

/** Query of GET /api/wechat/getDailyOrWeekly (docs/product.md section 7). */
export const dailyOrWeeklyQuery = z.object({
  snCode: z
    .string({ error: alertMessages.chooseDevice })
    .trim()
    .min(1, alertMessages.chooseDevice)
    .pipe(text()),
  /** date: the day's report by hour; week: day by day over the 15 days before the date. */
  alarmType: z.enum(['date', 'week'], { error: alertMessages.badReportType }).default('date'),
  beginTime: calendarDate().optional().or(z.literal('')),
  endTime: calendarDate().optional().or(z.literal('')),
  isReport: z.string().optional(),
});
export type DailyOrWeeklyQuery = z.input<typeof dailyOrWeeklyQuery>;

/** Report series (docs/product.md section 3): threeParam, dt, dtTop. Percentages 0–100, null: no data. */
export const reportReply = z.object({
  snCode: z.string(),
  nickSnCode: z.string(),
  deviceName: z.string(),
  pageType: z.enum(['date', 'week']),
  beginTime: z.string(),
  endTime: z.string(),
  targets: z.object({ ppmTarget: z.number(), yieldTarget: z.number(), useRateTarget: z.number() }),
  threeParam: z.array(
    z.object({
      date: z.string(),
      activation: z.number().nullable(),
      yield: z.number().nullable(),
      ppm: z.number().nullable(),
    }),
  ),
  /** Fault minutes per point. */
  dt: z.array(z.object({ date: z.string(), value: z.number() })),
  dtTop: z.array(
    z.object({
      code: z.string(),
      description: z.string(),
      times: z.number(),
      /** Minutes. */
      duration: z.number(),
      percentage: z.number(),
      artificialDes: z.string(),
    }),
  ),
});
export type ReportReply = z.infer<typeof reportReply>;

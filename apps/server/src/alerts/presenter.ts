import type { ChannelSettings, ReportReply } from '@linewatch/contracts/alerts';
import { deriveFigures } from '@linewatch/contracts/rules/figures';
import type { Report, ReportAlarm } from './reports.ts';
import type { ChannelView } from './service.ts';

const wholeMinutes = (ms: number) => Math.round(ms / 60_000);

/**
 * The /set page: a channel is offered when this server has it and the person has an identity
 * there (a webhook needs none); a channel never chosen is on.
 */
export const presentChannelSettings = ({
  account,
  reach,
  channels,
}: ChannelView): ChannelSettings => ({
  wechatAvailable: channels.includes('wechat') && reach.openId !== null,
  dingtalkAvailable: channels.includes('dingtalk') && reach.dingtalkUserId !== null,
  webhookAvailable: channels.includes('webhook'),
  wechat: reach.wechat ?? true,
  dingtalk: reach.dingtalk ?? true,
  webhookUrl: reach.webhookUrl,
  account: {
    ...account,
    wechatBound: reach.openId !== null,
    dingtalkBound: reach.dingtalkUserId !== null,
  },
});

/** Each alarm's whole minutes and its share (0.01 %) of all the listed alarms' time. */
const presentAlarms = (alarms: ReportAlarm[]): ReportReply['dtTop'] => {
  const total = alarms.reduce((sum, a) => sum + a.ms, 0);
  return alarms.map((a) => ({
    code: a.code,
    description: a.description,
    times: a.times,
    duration: wholeMinutes(a.ms),
    percentage: total > 0 ? Math.round((a.ms / total) * 10_000) / 100 : 0,
    artificialDes: a.artificialDes,
  }));
};

/**
 * The daily/weekly report page (and its workbook): a period with nothing recorded has null
 * ratios (deriveFigures), never 0.
 */
export const presentReport = (r: Report): ReportReply => {
  const points = r.periods.map(({ label: date, figures }) => ({
    figures,
    derived: deriveFigures(figures),
    date,
  }));
  return {
    snCode: r.machine.sn,
    nickSnCode: r.machine.nickSnCode,
    deviceName: r.machine.deviceName,
    pageType: r.type,
    beginTime: r.first,
    endTime: r.last,
    targets: {
      ppmTarget: r.machine.ppmTarget,
      yieldTarget: r.machine.yieldTarget,
      useRateTarget: r.machine.useRateTarget,
    },
    threeParam: points.map(({ date, derived: d }) => ({
      date,
      activation: d.useRate,
      yield: d.yield,
      ppm: d.ppm,
    })),
    dt: points.map(({ date, figures }) => ({ date, value: wholeMinutes(figures.faultMs) })),
    dtTop: presentAlarms(r.alarms),
  };
};

import { describe, expect, it } from 'vitest';
import { emptyFigures } from '../foundation/shared/metrics.ts';
import { presentChannelSettings, presentReport } from './presenter.ts';

const account = { psnCode: 'E007', name: '张三', nickName: '', mobile: null };
const nowhere = {
  userId: 7,
  openId: null,
  dingtalkUserId: null,
  wechat: null,
  dingtalk: null,
  webhookUrl: null,
};

describe('alerts presenter', () => {
  it('never chose and bound nowhere: channels on, none offered but the webhook', () => {
    expect(
      presentChannelSettings({
        account,
        reach: nowhere,
        channels: ['wechat', 'dingtalk', 'webhook'],
      }),
    ).toEqual({
      wechatAvailable: false,
      dingtalkAvailable: false,
      webhookAvailable: true,
      wechat: true,
      dingtalk: true,
      webhookUrl: null,
      account: { ...account, wechatBound: false, dingtalkBound: false },
    });
  });

  it('bound to WeChat on a server without DingTalk: WeChat offered, their choices kept', () => {
    const settings = presentChannelSettings({
      account,
      reach: { ...nowhere, openId: 'o-1', dingtalkUserId: 'd-1', wechat: false, dingtalk: false },
      channels: ['wechat'],
    });
    expect(settings).toMatchObject({
      wechatAvailable: true,
      dingtalkAvailable: false,
      webhookAvailable: false,
      wechat: false,
      dingtalk: false,
      account: { wechatBound: true, dingtalkBound: true },
    });
  });
});

const machine = {
  sn: 'SN-1',
  nickSnCode: '',
  deviceName: '点胶机',
  ppmTarget: 60,
  yieldTarget: 95,
  useRateTarget: 80,
};

describe('alerts presenter: the report', () => {
  it('a period with nothing recorded has null ratios and 0 DT; no alarms, an empty TOP', () => {
    const reply = presentReport({
      machine,
      type: 'date',
      first: '2026-03-01',
      last: '2026-03-01',
      periods: [{ label: '08:00', figures: emptyFigures() }],
      alarms: [],
    });
    expect(reply).toEqual({
      snCode: 'SN-1',
      nickSnCode: '',
      deviceName: '点胶机',
      pageType: 'date',
      beginTime: '2026-03-01',
      endTime: '2026-03-01',
      targets: { ppmTarget: 60, yieldTarget: 95, useRateTarget: 80 },
      threeParam: [{ date: '08:00', activation: null, yield: null, ppm: null }],
      dt: [{ date: '08:00', value: 0 }],
      dtTop: [],
    });
  });

  it('DT in whole minutes; each alarm its minutes and share of the listed time', () => {
    const reply = presentReport({
      machine,
      type: 'week',
      first: '2026-02-14',
      last: '2026-03-01',
      periods: [{ label: '2026-03-01', figures: { ...emptyFigures(), faultMs: 150_000 } }],
      alarms: [
        { code: 'E1', description: '急停', times: 3, ms: 180_000, artificialDes: '' },
        { code: 'E2', description: '', times: 1, ms: 0, artificialDes: '检查气压' },
      ],
    });
    expect(reply.dt).toEqual([{ date: '2026-03-01', value: 3 }]);
    expect(reply.dtTop).toEqual([
      {
        code: 'E1',
        description: '急停',
        times: 3,
        duration: 3,
        percentage: 100,
        artificialDes: '',
      },
      {
        code: 'E2',
        description: '',
        times: 1,
        duration: 0,
        percentage: 0,
        artificialDes: '检查气压',
      },
    ]);
  });
});

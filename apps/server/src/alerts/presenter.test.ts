import { describe, expect, it } from 'vitest';
import { presentChannelSettings } from './presenter.ts';

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

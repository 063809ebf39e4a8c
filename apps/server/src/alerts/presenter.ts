import type { ChannelSettings } from '@linewatch/contracts/alerts';
import type { ChannelView } from './service.ts';

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

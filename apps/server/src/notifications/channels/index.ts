import type { Config } from '../../foundation/config/config.ts';
import { configuredChannels } from '../service.ts';
import type { Channel } from './channel.ts';
import { dingtalkChannel } from './dingtalk.ts';
import { webhookChannel } from './webhook.ts';
import type { WebhookTargets } from './webhook-target.ts';
import { wechatChannel } from './wechat.ts';

/** The clients of the channels the configuration enables (the same list notify() writes rows for). */
export const buildChannels = (config: Config, webhookTargets: WebhookTargets): Channel[] =>
  configuredChannels(config).map((name) => {
    switch (name) {
      case 'wechat':
        return wechatChannel({
          apiBase: config.WECHAT_API_URL,
          appId: config.WECHAT_APPID!,
          appSecret: config.WECHAT_SECRET!,
          templates: config.WECHAT_TEMPLATES!,
          timeZone: config.TIMEZONE,
        });
      case 'dingtalk':
        return dingtalkChannel({
          apiBase: config.DINGTALK_API_URL,
          appKey: config.DINGTALK_APPKEY!,
          appSecret: config.DINGTALK_APPSECRET!,
          agentId: config.DINGTALK_AGENT_ID!,
        });
      case 'webhook':
        return webhookChannel(config.WEBHOOK_SECRET!, webhookTargets);
    }
  });

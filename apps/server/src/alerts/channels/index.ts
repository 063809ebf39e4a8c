import type { Config } from '../../config.ts';
import { configuredChannels } from '../../notifications/service.ts';
import type { Channel } from './channel.ts';
import { dingtalkChannel } from './dingtalk.ts';
import { webhookChannel } from './webhook.ts';
import { wechatChannel } from './wechat.ts';

/** The clients of the channels the configuration enables (the same list notify() writes rows for). */
export const buildChannels = (config: Config): Channel[] =>
  configuredChannels(config).map((name) => {
    switch (name) {
      case 'wechat':
        return wechatChannel({
          apiBase: config.WECHAT_API_BASE,
          appId: config.WECHAT_APP_ID!,
          appSecret: config.WECHAT_APP_SECRET!,
          templateId: config.WECHAT_TEMPLATE_ID!,
        });
      case 'dingtalk':
        return dingtalkChannel({
          apiBase: config.DINGTALK_API_BASE,
          appKey: config.DINGTALK_APP_KEY!,
          appSecret: config.DINGTALK_APP_SECRET!,
          agentId: config.DINGTALK_AGENT_ID!,
        });
      case 'webhook':
        return webhookChannel(config.WEBHOOK_SECRET!);
    }
  });

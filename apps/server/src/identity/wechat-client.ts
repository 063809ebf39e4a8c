import { providerCall, ProviderError } from './provider-http.ts';

export interface WechatSettings {
  appId: string;
  secret: string;
  /** https://api.weixin.qq.com */
  apiUrl: string;
  /** https://open.weixin.qq.com/connect/oauth2/authorize */
  oauthUrl: string;
}

/** WeChat official-account web authorisation (snsapi_base: the openid only, no consent page). */
export const createWechatClient = ({ appId, secret, apiUrl, oauthUrl }: WechatSettings) => ({
  /** The page WeChat shows (silently, for snsapi_base) before returning with ?code&state. */
  authorizeUrl(redirectUri: string, state: string): string {
    const url = new URL(oauthUrl);
    url.searchParams.set('appid', appId);
    url.searchParams.set('redirect_uri', redirectUri);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('scope', 'snsapi_base');
    url.searchParams.set('state', state);
    // WeChat requires the fragment; its parameters must come in this order.
    return `${url.toString()}#wechat_redirect`;
  },

  /** The openid of an authorisation code; WeChat honours a code once, for five minutes. */
  async openIdOf(code: string): Promise<string> {
    const url = new URL('/sns/oauth2/access_token', apiUrl);
    url.searchParams.set('appid', appId);
    url.searchParams.set('secret', secret);
    url.searchParams.set('code', code);
    url.searchParams.set('grant_type', 'authorization_code');
    const reply = await providerCall<{ openid?: string }>(url);
    if (!reply.openid) throw new ProviderError('sns/oauth2/access_token: no openid');
    return reply.openid;
  },
});

export type WechatClient = ReturnType<typeof createWechatClient>;

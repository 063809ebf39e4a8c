import { endpoint } from './endpoint.ts';
import type {
  DingdingBindUserBody,
  LoginReply,
  SessionInfo,
  UserInfo,
  WechatBindUserBody,
} from './identity.ts';

/** Sign-in, session and sign-out (spec section 7; schemas in identity.ts). */
export const identityApi = {
  /** Password sign-in from the messaging-app login page (a POST: no password in a URL). */
  wechatBindUser: endpoint<WechatBindUserBody, LoginReply>('POST', '/api/wechat/bindUser'),
  dingdingBindUser: endpoint<DingdingBindUserBody, LoginReply>('POST', '/api/dingding/bindUser'),
  userInfo: endpoint<void, UserInfo>('POST', '/api/getUserInfo'),
  /**
   * Who the keyId cookie names. A new tab or webview (every WeChat menu tap) starts with an empty
   * sessionStorage but still sends the HttpOnly cookie; this hands the page its keyId back so it
   * can send the keyId header on requests that change state. A GET read with the cookie alone: a
   * cross-site page cannot read the reply (same-origin policy, no CORS).
   */
  session: endpoint<void, SessionInfo>('GET', '/api/session'),
  /** The spec names the sign-outs as GETs; the server takes GET and POST, the web sends POST. */
  wechatSignOut: endpoint<void, null>('POST', '/api/wechat/unboundOpenId'),
  dingdingSignOut: endpoint<void, null>('POST', '/api/dingding/unbound'),
} as const;

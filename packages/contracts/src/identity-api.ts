import { endpoint } from './endpoint.ts';
import type {
  DingdingBindUserBody,
  DingtalkCodeQuery,
  DingtalkConfig,
  DingtalkConfigQuery,
  DingtalkUserInfoReply,
  LoginReply,
  SessionInfo,
  UserInfo,
  UserProfile,
  WechatAuthorizeQuery,
  WechatBindUserBody,
  WechatUserInfoQuery,
  WechatUserInfoReply,
} from './identity.ts';

/**
 * The roles every signed-in user holds (docs/product.md section 6: the granted list is fixed); admins hold
 * ADMIN_ROLE too. Route metadata names the roles a page asks for.
 */
export const GRANTED_ROLES: readonly string[] = [
  'home',
  'center',
  'deviceList',
  'chartMenu',
  'msgList',
  'subscriptionList',
  'map',
];
export const ADMIN_ROLE = 'admin';

/** Sign-in, session and sign-out (docs/product.md section 7; schemas in identity.ts). */
export const identityApi = {
  /**
   * Not in the spec: starts WeChat's snsapi_base authorisation. Sets the `state` cookie and
   * answers 302 to WeChat, which comes back to /login?redirect=…&code=…&state=…. A page
   * navigation, not a fetch (query: redirect).
   */
  wechatAuthorize: endpoint<WechatAuthorizeQuery, never>('GET', '/api/wechat/authorize'),
  /** The openId of an OAuth code, and a keyId when that openId is bound (silent sign-in). */
  wechatUserInfo: endpoint<WechatUserInfoQuery, WechatUserInfoReply>('GET', '/api/wechat/userInfo'),
  /** Password sign-in from the messaging-app login page (a POST: no password in a URL). */
  wechatBindUser: endpoint<WechatBindUserBody, LoginReply>('POST', '/api/wechat/bindUser'),
  dingdingConfig: endpoint<DingtalkConfigQuery, DingtalkConfig>('GET', '/dd/dingding/getConfig'),
  dingdingUserInfo: endpoint<DingtalkCodeQuery, DingtalkUserInfoReply>(
    'GET',
    '/dd/dingding/getUserInfoByCode',
  ),
  dingdingBindUser: endpoint<DingdingBindUserBody, LoginReply>('POST', '/api/dingding/bindUser'),
  userInfo: endpoint<void, UserInfo>('POST', '/api/getUserInfo'),
  /** The account, its roles and how this session signed in (loaded on the first navigation). */
  userProfile: endpoint<void, UserProfile>('GET', '/api/sys/user/getUser'),
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
  /** Not in the spec: signing out of a password session unbinds nothing. */
  signOut: endpoint<void, null>('POST', '/api/logout'),
} as const;

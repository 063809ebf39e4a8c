import { z } from 'zod';
import { identityMessages } from './identity-messages.ts';
import { text } from './primitives.ts';

export { identityMessages };

/** The login form as the user fills it in (the web form validates with this). */
export const loginFormSchema = z.object({
  psnCode: text(undefined, identityMessages.usernameRequired)
    .trim()
    .min(1, identityMessages.usernameRequired),
  passWord: text(undefined, identityMessages.passwordRequired).min(
    1,
    identityMessages.passwordRequired,
  ),
});
export type LoginForm = z.infer<typeof loginFormSchema>;

/**
 * POST body of /api/wechat/bindUser: passWord is the cipher text of password-cipher.ts. openId
 * binds only the openId this browser was given by /api/wechat/userInfo.
 */
export const wechatBindUserBody = loginFormSchema.extend({
  openId: text().max(128).optional(),
});
export type WechatBindUserBody = z.infer<typeof wechatBindUserBody>;

/** POST body of /api/dingding/bindUser (the userid this browser got from getUserInfoByCode). */
export const dingdingBindUserBody = loginFormSchema.extend({
  dingDingUserId: text().max(128).optional(),
  mobile: text().max(32).optional(),
});
export type DingdingBindUserBody = z.infer<typeof dingdingBindUserBody>;

export const loginReply = z.object({ keyId: z.string() });
export type LoginReply = z.infer<typeof loginReply>;

/** A platform's authorisation code: printable ASCII; missing or empty says no code came back. */
const oauthCode = z
  .string({ error: identityMessages.noCode })
  .trim()
  .min(1, identityMessages.noCode)
  .max(512, identityMessages.noCode)
  .regex(/^[\x21-\x7e]+$/, identityMessages.noCode);

/** Where WeChat's authorisation should send the browser back to (a path of this app). */
export const wechatAuthorizeQuery = z.object({ redirect: text().max(2048).optional() });
export type WechatAuthorizeQuery = z.infer<typeof wechatAuthorizeQuery>;

/** The code and state WeChat's authorisation page returned with. */
export const wechatUserInfoQuery = z.object({
  code: oauthCode,
  state: text().max(128).optional(),
});
export type WechatUserInfoQuery = z.infer<typeof wechatUserInfoQuery>;

/** keyId only when the openId is bound to an account: the browser is then signed in. */
export const wechatUserInfoReply = z.object({ openId: z.string(), keyId: z.string().optional() });
export type WechatUserInfoReply = z.infer<typeof wechatUserInfoReply>;

/** The page URL the JSAPI signature covers (without its #fragment). */
export const dingtalkConfigQuery = z.object({
  url: text(undefined, identityMessages.urlRequired)
    .trim()
    .min(1, identityMessages.urlRequired)
    .max(2048)
    .refine((value) => /^https?:\/\//.test(value), identityMessages.urlRequired),
});
export type DingtalkConfigQuery = z.infer<typeof dingtalkConfigQuery>;

/**
 * What dd.config needs (DingTalk JSAPI authentication), and `state` (not in the spec): sent back
 * with the auth code, it proves the code is exchanged by the browser that started the sign-in.
 */
export const dingtalkConfig = z.object({
  agentId: z.string(),
  corpId: z.string(),
  timeStamp: z.number(),
  nonceStr: z.string(),
  signature: z.string(),
  state: z.string(),
});
export type DingtalkConfig = z.infer<typeof dingtalkConfig>;

export const dingtalkCodeQuery = z.object({ code: oauthCode, state: text().max(128).optional() });
export type DingtalkCodeQuery = z.infer<typeof dingtalkCodeQuery>;

/** keyId only when the DingTalk user is bound to an account. */
export const dingtalkUserInfoReply = z.object({
  userid: z.string(),
  mobile: z.string(),
  keyId: z.string().optional(),
});
export type DingtalkUserInfoReply = z.infer<typeof dingtalkUserInfoReply>;

export const userInfo = z.object({ name: z.string(), nickName: z.string() });
export type UserInfo = z.infer<typeof userInfo>;

export const signedInWith = z.enum(['password', 'wechat', 'dingtalk']);
export type SignedInWith = z.infer<typeof signedInWith>;

/** Reply of /api/sys/user/getUser: the account, its roles, and how this session signed in. */
export const userProfile = userInfo.extend({
  userId: z.number(),
  psnCode: z.string(),
  mobile: z.string().nullable(),
  isAdmin: z.boolean(),
  roles: z.array(z.string()),
  signedInWith,
});
export type UserProfile = z.infer<typeof userProfile>;

/**
 * Reply of the session endpoint (identity-api.ts): the keyId and the whole profile, so a new tab
 * restored from the cookie has its roles in the same round trip instead of two more.
 */
export const sessionInfo = userProfile.extend({ keyId: z.string() });
export type SessionInfo = z.infer<typeof sessionInfo>;

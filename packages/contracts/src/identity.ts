import { z } from 'zod';
import { identityMessages } from './identity-messages.ts';
import { text } from './primitives.ts';

export { identityMessages };

/** The login form as the user fills it in (the web form validates with this). */
export const loginFormSchema = z.object({
  psnCode: text().trim().min(1, identityMessages.usernameRequired),
  passWord: text().min(1, identityMessages.passwordRequired),
});
export type LoginForm = z.infer<typeof loginFormSchema>;

/** POST body of /api/wechat/bindUser: passWord is the cipher text of password-cipher.ts. */
export const wechatBindUserBody = loginFormSchema.extend({
  openId: text().max(128).optional(),
});
export type WechatBindUserBody = z.infer<typeof wechatBindUserBody>;

/** POST body of /api/dingding/bindUser. */
export const dingdingBindUserBody = loginFormSchema.extend({
  dingDingUserId: text().max(128).optional(),
  mobile: text().max(32).optional(),
});
export type DingdingBindUserBody = z.infer<typeof dingdingBindUserBody>;

export const loginReply = z.object({ keyId: z.string() });
export type LoginReply = z.infer<typeof loginReply>;

export const userInfo = z.object({ name: z.string(), nickName: z.string() });
export type UserInfo = z.infer<typeof userInfo>;

/** Reply of the session endpoint (identity-api.ts). */
export const sessionInfo = userInfo.extend({ keyId: z.string() });
export type SessionInfo = z.infer<typeof sessionInfo>;

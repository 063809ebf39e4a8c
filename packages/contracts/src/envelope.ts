import { z } from 'zod';

/** Reply codes of the REST envelope (docs/design.md section 6). */
export const ReplyCode = {
  ok: '0000',
  badInput: '0400',
  notSignedIn: '0405',
  forbidden: '0403',
  notFound: '0404',
  refused: '0410',
  fault: '0500',
} as const;
export type ReplyCode = (typeof ReplyCode)[keyof typeof ReplyCode];

export const httpStatusOf: Record<ReplyCode, number> = {
  '0000': 200,
  '0400': 400,
  '0405': 401,
  '0403': 403,
  '0404': 404,
  '0410': 409,
  '0500': 500,
};

export const messages = {
  forbidden: '无权查看，请联系管理员',
  notSignedIn: '请重新登录',
  notFound: '请求的资源不存在',
  fault: '服务器错误，请稍后再试',
  tooManyAttempts: '尝试次数过多，请稍后再试',
} as const;

export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.boolean(), code: z.string(), msg: z.string(), data });

export interface Envelope<T> {
  success: boolean;
  code: ReplyCode;
  msg: string;
  data: T;
}

export interface BadInputData {
  errors: { path: string; message: string }[];
}

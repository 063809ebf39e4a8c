import { envelopeSchema, messages, ReplyCode, type Envelope } from '@linewatch/contracts/envelope';
import type { z } from 'zod';

/** A rule the service refuses on; the error handler turns it into the envelope. */
export class DomainError extends Error {
  constructor(
    readonly code: Exclude<ReplyCode, '0000'>,
    message: string,
    readonly data: unknown = null,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const refused = (msg: string) => new DomainError(ReplyCode.refused, msg);
export const forbidden = () => new DomainError(ReplyCode.forbidden, messages.forbidden);
export const notFound = (msg: string = messages.notFound) =>
  new DomainError(ReplyCode.notFound, msg);
/** 0400 naming the field, as a schema refusal would (the error envelope of docs/design.md section 6). */
export const invalidField = (path: string, message: string) =>
  new DomainError(ReplyCode.badInput, message, { errors: [{ path, message }] });
export const notSignedIn = () => new DomainError(ReplyCode.notSignedIn, messages.notSignedIn);

export const ok = <T>(data: T, msg = 'success'): Envelope<T> => ({
  success: true,
  code: ReplyCode.ok,
  msg,
  data,
});

/** A route's reply schema: its data in the envelope. */
export const replySchema = <T extends z.ZodType>(data: T) => ({ 200: envelopeSchema(data) });

export const failure = (code: Exclude<ReplyCode, '0000'>, msg: string, data: unknown = null) => ({
  success: false,
  code,
  msg,
  data,
});

import { messages, ReplyCode, type Envelope } from '@linewatch/contracts/envelope';

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
export const notFound = () => new DomainError(ReplyCode.notFound, messages.notFound);
export const notSignedIn = () => new DomainError(ReplyCode.notSignedIn, messages.notSignedIn);

export const ok = <T>(data: T, msg = 'success'): Envelope<T> => ({
  success: true,
  code: ReplyCode.ok,
  msg,
  data,
});

export const failure = (code: Exclude<ReplyCode, '0000'>, msg: string, data: unknown = null) => ({
  success: false,
  code,
  msg,
  data,
});

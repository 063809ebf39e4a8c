import { httpStatusOf, messages, ReplyCode } from '@linewatch/contracts/envelope';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DomainError, failure } from './envelope.ts';

/** Every failure leaves as the envelope of docs/design.md section 6; never a stack trace. */
export const errorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
  if (error instanceof DomainError) {
    return reply
      .status(httpStatusOf[error.code])
      .send(failure(error.code, error.message, error.data));
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors = error.validation.map((v) => ({
      path: v.instancePath.replace(/^\//, '').replaceAll('/', '.'),
      message: v.message ?? '参数错误',
    }));
    return reply
      .status(400)
      .send(failure(ReplyCode.badInput, errors[0]?.message ?? '参数错误', { errors }));
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    // Fastify's own refusals: malformed JSON, wrong content type, body too large.
    const msg = error.statusCode === 413 ? '请求内容过大' : '请求格式错误';
    return reply
      .status(error.statusCode)
      .send(failure(ReplyCode.badInput, msg, { errors: [{ path: '', message: msg }] }));
  }
  request.log.error({ err: error }, 'request failed');
  return reply.status(500).send(failure(ReplyCode.fault, messages.fault));
};

/** A path no route has (plugins/web-app.ts answers page paths with the app shell first). */
export const notFoundReply = (request: FastifyRequest, reply: FastifyReply) =>
  reply
    .status(404)
    .send(
      failure(
        ReplyCode.notFound,
        `${messages.notFound}: ${request.method} ${request.url.split('?')[0] ?? ''}`,
      ),
    );

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a raw space in the URL, headers
 * too large) get the envelope too, not Fastify's English default.
 */
export const clientErrorHandler: NonNullable<FastifyServerOptions['clientErrorHandler']> = (
  error,
  socket,
) => {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const msg = status === 431 ? '请求头过大' : '请求格式错误';
  const body = JSON.stringify(
    failure(ReplyCode.badInput, msg, { errors: [{ path: '', message: msg }] }),
  );
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      'Connection: close\r\nContent-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
};

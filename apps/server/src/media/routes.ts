import { ReplyCode } from '@linewatch/contracts/envelope';
import { mediaQuery, uploadQuery, uploadReply } from '@linewatch/contracts/faca';
import { MEDIA_LIMITS } from '@linewatch/contracts/faca-labels';
import { mediaPaths } from '@linewatch/contracts/faca-api';
import { envelopeSchema } from '@linewatch/contracts/envelope';
import multipart from '@fastify/multipart';
import type { FastifyError, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { failure, ok } from '../foundation/http/envelope.ts';
import { errorHandler } from '../foundation/http/error-handler.ts';
import { userOf } from '../plugins/auth.ts';
import { MediaTooLarge, type MediaService } from './service.ts';

type Opened = Awaited<ReturnType<MediaService['open']>>;

/**
 * Serves a stored file as bytes that nothing executes: the Content-Type we decided from its
 * content, nosniff, a sandbox CSP (an HTML-looking file opened directly runs no script), and an
 * inline disposition with our generated name.
 */
const sendFile = (reply: FastifyReply, file: Opened) =>
  reply
    .header('Content-Type', file.mime)
    .header('Content-Length', file.size)
    .header('Content-Disposition', `inline; filename="${file.fileName}"`)
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Security-Policy', "default-src 'none'; sandbox")
    .header('Cache-Control', 'private, max-age=86400')
    .send(file.stream);

/**
 * Uploads (multipart, streamed; this plugin only: the app's 1 MiB body limit stays for JSON) and
 * the files' full resolution and thumbnails.
 */
export const mediaRoutes: FastifyPluginAsyncZod<{ media: MediaService }> = async (
  app,
  { media },
) => {
  await app.register(multipart, {
    throwFileSizeLimit: false,
    // busboy would strip `../` from a name; keep it, so a hostile name is refused, not hidden.
    preservePath: true,
    limits: {
      fileSize: MEDIA_LIMITS.maxBytes,
      // One more than allowed, so the service sees the 10th file and refuses with its message.
      files: MEDIA_LIMITS.maxFiles + 1,
      fields: 0,
      parts: MEDIA_LIMITS.maxFiles + 1,
      headerPairs: 20,
    },
  });

  // An oversize file is 413 with the envelope's bad-input code and its Chinese message; the rest
  // of the body is not read, so the connection closes after the answer.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (!(error instanceof MediaTooLarge)) return errorHandler(error, request, reply);
    return reply
      .header('Connection', 'close')
      .status(413)
      .send(failure(ReplyCode.badInput, error.message, error.data));
  });

  app.post(
    mediaPaths.upload,
    { schema: { querystring: uploadQuery, response: { 200: envelopeSchema(uploadReply) } } },
    async (request) => ok(await media.upload(userOf(request), request.query.type, request.files())),
  );

  app.get(mediaPaths.hdImage, { schema: { querystring: mediaQuery } }, async (request, reply) =>
    sendFile(reply, await media.open(userOf(request), request.query.id, 'hd', request.query.type)),
  );

  app.get(mediaPaths.thumbnail, { schema: { querystring: mediaQuery } }, async (request, reply) =>
    sendFile(reply, await media.open(userOf(request), request.query.id, 'thumb')),
  );
};

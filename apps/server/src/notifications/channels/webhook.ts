import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { REQUEST_TIMEOUT_MS, UndeliverableError, type Channel } from './channel.ts';
import { hostOf, type WebhookTargets } from './webhook-target.ts';

export const WEBHOOK_HEADERS = {
  delivery: 'x-linewatch-delivery',
  timestamp: 'x-linewatch-timestamp',
  signature: 'x-linewatch-signature',
} as const;

/** `sha256=<hex>` of HMAC-SHA256(secret, "<timestamp>.<body>"): the timestamp is signed too, so an old delivery cannot be replayed as new. */
export const webhookSignature = (secret: string, timestamp: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/** POSTs `body` and resolves with the status; connects only to an address `targets` allows. */
const post = (url: URL, headers: Record<string, string>, body: string, targets: WebhookTargets) =>
  new Promise<number>((resolve, reject) => {
    const host = hostOf(url);
    // An IP literal is connected to without a lookup: judged here.
    if (isIP(host) && !targets.allowsName(host) && !targets.allowsAddress(host))
      return reject(new UndeliverableError(`webhook: ${host} is not allowed`));
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body) },
        lookup: targets.lookup,
        timeout: REQUEST_TIMEOUT_MS,
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('timeout', () => request.destroy(new Error('webhook: timed out')));
    request.on('error', reject);
    request.end(body);
  });

/**
 * A JSON POST to the URL the person gave on /set, to an address `targets` allows (SSRF guard);
 * any 2xx is delivered, a redirect is not followed (it counts as a failure).
 */
export const webhookChannel = (
  secret: string,
  targets: WebhookTargets,
  now: () => number = Date.now,
): Channel => ({
  name: 'webhook',
  async send(m) {
    const body = JSON.stringify({
      id: m.deliveryId,
      kind: m.kind,
      title: m.title,
      body: m.body,
      url: m.url,
      createdAt: m.createdAt.toISOString(),
    });
    const timestamp = String(Math.floor(now() / 1000));
    const status = await post(
      new URL(m.target),
      {
        'content-type': 'application/json',
        [WEBHOOK_HEADERS.delivery]: m.deliveryId,
        [WEBHOOK_HEADERS.timestamp]: timestamp,
        [WEBHOOK_HEADERS.signature]: webhookSignature(secret, timestamp, body),
      },
      body,
      targets,
    );
    if (status < 200 || status > 299) throw new Error(`webhook: HTTP ${status}`);
  },
});

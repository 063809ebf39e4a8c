import { createHmac } from 'node:crypto';
import { REQUEST_TIMEOUT_MS, type Channel } from './channel.ts';

export const WEBHOOK_HEADERS = {
  delivery: 'x-linewatch-delivery',
  timestamp: 'x-linewatch-timestamp',
  signature: 'x-linewatch-signature',
} as const;

/** `sha256=<hex>` of HMAC-SHA256(secret, "<timestamp>.<body>"): the timestamp is signed too, so an old delivery cannot be replayed as new. */
export const webhookSignature = (secret: string, timestamp: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;

/** A JSON POST to the URL the person gave on /set; any 2xx is delivered. */
export const webhookChannel = (secret: string, now: () => number = Date.now): Channel => ({
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
    const response = await fetch(m.target, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [WEBHOOK_HEADERS.delivery]: m.deliveryId,
        [WEBHOOK_HEADERS.timestamp]: timestamp,
        [WEBHOOK_HEADERS.signature]: webhookSignature(secret, timestamp, body),
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status < 200 || response.status > 299)
      throw new Error(`webhook: HTTP ${response.status}`);
  },
});

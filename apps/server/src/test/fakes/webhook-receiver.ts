import { createHmac, timingSafeEqual } from 'node:crypto';
import { startFakeServer, type FakeServer } from './message-fake-server.ts';

export interface WebhookDelivery {
  id: string;
  kind: string;
  title: string;
  body: string;
  url: string | null;
  createdAt: string;
}

export interface WebhookReceiver extends FakeServer {
  /** Deliveries with a valid signature, one per delivery id (as a careful receiver keeps them). */
  deliveries: WebhookDelivery[];
  /** Requests whose signature did not verify. */
  badSignatures(): number;
  url: string;
}

/** A receiver that verifies the HMAC-SHA256 signature over "<timestamp>.<body>" as documented. */
export const startWebhookReceiver = async (secret: string): Promise<WebhookReceiver> => {
  const deliveries: WebhookDelivery[] = [];
  const seen = new Set<string>();
  let badSignatures = 0;
  const server = await startFakeServer(
    (r) => {
      const timestamp = String(r.headers['x-linewatch-timestamp'] ?? '');
      const given = Buffer.from(String(r.headers['x-linewatch-signature'] ?? ''));
      const expected = Buffer.from(
        `sha256=${createHmac('sha256', secret).update(`${timestamp}.${r.raw}`).digest('hex')}`,
      );
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        badSignatures++;
        return { ok: false };
      }
      const delivery = r.json as WebhookDelivery;
      if (!seen.has(delivery.id)) {
        seen.add(delivery.id);
        deliveries.push(delivery);
      }
      return { ok: true };
    },
    () => true,
  );
  return Object.assign(server, {
    deliveries,
    url: `${server.baseUrl}/hook`,
    badSignatures: () => badSignatures,
  });
};

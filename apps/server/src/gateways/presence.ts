import { gatewayStateMessage, parseTopic } from '@linewatch/contracts/mqtt';
import type { FastifyBaseLogger } from 'fastify';
import type { TelemetryRepository } from './repository.ts';

/** Which gateways are online, from their retained state and last-will messages. */
export class GatewayPresence {
  #online = new Map<string, boolean>();

  constructor(
    private readonly repo: TelemetryRepository,
    private readonly log: FastifyBaseLogger,
    private readonly onOnline: (gatewayId: string) => void,
  ) {}

  async load() {
    this.#online = await this.repo.loadGatewayOnline();
  }

  isOnline(gatewayId: string): boolean {
    return this.#online.get(gatewayId) ?? false;
  }

  handle(topic: string, payload: Buffer) {
    const parsed = parseTopic(topic);
    if (!parsed || parsed.kind !== 'state' || !this.#online.has(parsed.gatewayId)) return;
    let message;
    try {
      message = gatewayStateMessage.parse(JSON.parse(payload.toString('utf8')));
    } catch {
      return;
    }
    const online = message.state === 'online';
    if (online) this.onOnline(parsed.gatewayId);
    if (this.#online.get(parsed.gatewayId) === online) return;
    this.#online.set(parsed.gatewayId, online);
    this.repo
      .setGatewayOnline(parsed.gatewayId, online, new Date(message.ts))
      .catch((error: unknown) => {
        this.log.error({ err: error, gateway: parsed.gatewayId }, 'recording gateway state failed');
      });
  }

  /** A gateway added after start (bind, demo seed). */
  register(gatewayId: string) {
    if (!this.#online.has(gatewayId)) this.#online.set(gatewayId, false);
  }
}

import { gatewayStateMessage, TOPIC_ROOT } from '@linewatch/contracts/mqtt';
import type { FastifyBaseLogger } from 'fastify';
import type { GatewaysRepository } from './repository.ts';

type State = 'unknown' | 'online' | 'offline';

const PREFIX = `${TOPIC_ROOT}/`;
/** The bus delivers only `lw/v1/gw/{id}/{kind}` topics: the id is the level after the root. */
const gatewayOf = (topic: string) => topic.slice(PREFIX.length, topic.indexOf('/', PREFIX.length));

/**
 * Which gateways are online. After a start every known gateway is `unknown`, whatever the
 * database's `online` column says: a server killed with gateways connected left them marked online
 * there (the offline will went to a broker that died with it), and nothing would correct that.
 * A gateway is online once it speaks (any message) or its retained online state arrives, offline
 * on its offline state or last will. `unknown` shows as offline (iot 2) until then.
 */
export class GatewayPresence {
  readonly #states = new Map<string, State>();
  /** Epoch ms of each gateway's last message since the start (the registry's "last seen"). */
  readonly #lastHeard = new Map<string, number>();

  constructor(
    private readonly repo: GatewaysRepository,
    private readonly log: FastifyBaseLogger,
    /** The gateway announced itself: it wants its ack watermark again. */
    private readonly onOnline: (gatewayId: string) => void,
    /** The machines its online state says it polls. */
    private readonly onPolled: (gatewayId: string, sns: readonly string[]) => void = () => {},
  ) {}

  async load() {
    for (const id of await this.repo.loadGatewayIds()) this.register(id);
  }

  /** Registered with this server (loaded at start or added since). */
  isRegistered(gatewayId: string): boolean {
    return this.#states.has(gatewayId);
  }

  isOnline(gatewayId: string): boolean {
    return this.#states.get(gatewayId) === 'online';
  }

  /** Telemetry, events or a command reply: the gateway is connected. The ingest hot path. */
  heard = (topic: string) => {
    const gatewayId = gatewayOf(topic);
    const state = this.#states.get(gatewayId);
    if (state === undefined) return;
    this.#lastHeard.set(gatewayId, Date.now());
    if (state === 'online') return;
    this.#set(gatewayId, 'online', new Date());
  };

  /** A retained state message or last will on the state topic. */
  handleState = (topic: string, payload: Buffer) => {
    const gatewayId = gatewayOf(topic);
    if (!this.#states.has(gatewayId)) return;
    let message;
    try {
      message = gatewayStateMessage.parse(JSON.parse(payload.toString('utf8')));
    } catch {
      return;
    }
    if (message.state === 'online') {
      this.onOnline(gatewayId);
      if (message.machines) this.onPolled(gatewayId, message.machines);
    }
    this.#lastHeard.set(gatewayId, Date.now());
    this.#set(gatewayId, message.state, new Date(message.ts), message.agentVersion);
  };

  lastHeard(gatewayId: string): number | undefined {
    return this.#lastHeard.get(gatewayId);
  }

  /** A gateway added after start (bind, demo seed). */
  register(gatewayId: string) {
    if (!this.#states.has(gatewayId)) this.#states.set(gatewayId, 'unknown');
  }

  #set(gatewayId: string, state: 'online' | 'offline', at: Date, agentVersion?: string) {
    if (this.#states.get(gatewayId) === state && agentVersion === undefined) return;
    this.#states.set(gatewayId, state);
    this.repo
      .setGatewayOnline(gatewayId, state === 'online', at, agentVersion)
      .catch((error: unknown) => {
        this.log.error({ err: error, gateway: gatewayId }, 'recording gateway state failed');
      });
  }
}

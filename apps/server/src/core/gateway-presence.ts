import { gatewayStateMessage, TOPIC_ROOT } from '@linewatch/contracts/mqtt';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../foundation/db/database.ts';

type State = 'unknown' | 'online' | 'offline';

/** The gateways presence reads at start and writes on a change of state. */
export interface PresenceStore {
  loadGatewayIds(): Promise<string[]>;
  setGatewayOnline(
    gatewayId: string,
    online: boolean,
    at: Date,
    agentVersion?: string,
  ): Promise<unknown>;
}

export const createPresenceStore = (db: Db): PresenceStore => ({
  async loadGatewayIds(): Promise<string[]> {
    const rows = await db.selectFrom('gateways').select('id').execute();
    return rows.map((r) => r.id);
  },

  /** A record for people and tools; presence after a start never trusts it (see below). */
  setGatewayOnline: (gatewayId: string, online: boolean, at: Date, agentVersion?: string) =>
    db
      .updateTable('gateways')
      .set({
        online,
        state_changed_at: at,
        last_seen_at: at,
        ...(agentVersion !== undefined && { agent_version: agentVersion }),
      })
      .where('id', '=', gatewayId)
      .execute(),
});

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

  readonly #onlineListeners = new Set<(gatewayId: string) => void>();
  readonly #polledListeners = new Set<(gatewayId: string, sns: readonly string[]) => void>();

  constructor(
    private readonly repo: PresenceStore,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The gateway announced itself: it wants its ack watermark again. */
  onOnline(listener: (gatewayId: string) => void) {
    this.#onlineListeners.add(listener);
  }

  /** The machines its online state says it polls. */
  onPolled(listener: (gatewayId: string, sns: readonly string[]) => void) {
    this.#polledListeners.add(listener);
  }

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
      for (const listener of this.#onlineListeners) listener(gatewayId);
      const { machines } = message;
      if (machines) for (const listener of this.#polledListeners) listener(gatewayId, machines);
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

import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { GatewayCommands } from './commands.ts';
import { maintenanceSocketRoute } from './maintenance-socket.ts';
import type { GatewayPresence } from '../core/gateway-presence.ts';
import { createGatewaysRepository } from './repository.ts';
import { gatewaysRoutes } from './routes.ts';
import { createGatewaysService, type GatewaysService } from './service.ts';
import { UnboundMachines } from './unbound-machines.ts';

export interface Gateways {
  presence: GatewayPresence;
  commands: GatewayCommands;
  service: GatewaysService;
  /** Each gateway's committed seq, for ingest at start. */
  loadGatewaySeqs(): Promise<Map<string, number>>;
  /** Called with a gateway's id whenever its state says online (it wants its ack again). */
  onGatewayOnline(listener: (gatewayId: string) => void): void;
  /** Called with a gateway registered after start (ingest accepts it from then on). */
  onGatewayAdded(listener: (gatewayId: string) => void): void;
  /** Ingest dropped data of a machine not bound to the gateway that sent it (said once). */
  unboundMachine(gatewayId: string, sn: string): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    gateways: Gateways;
  }
}

/**
 * Gateway commands, bind/unbind (maintenance socket) and the registry, on the bus; feeds the core's
 * presence from what the bus hears.
 */
export const gatewaysModule = fp(
  async (app, { core }: { core: Core }) => {
    const { bus, presence } = core;
    const repo = createGatewaysRepository(core.database.db);
    const addedListeners = new Set<(gatewayId: string) => void>();
    const commands = new GatewayCommands(
      bus,
      app.log,
      (gatewayId) => presence.isRegistered(gatewayId),
      core.config.GATEWAY_COMMAND_TIMEOUT_MS,
    );
    const unbound = new UnboundMachines({
      registry: core.registry,
      log: app.log,
      notify: (gatewayId, body) => void commands.notify(gatewayId, body),
    });
    presence.onPolled(unbound.polled);
    // After HTTP and sockets, before the bus closes (app.ts): whoever waits is told now.
    app.addHook('onClose', async () => commands.close());

    const service = createGatewaysService({
      repo,
      commands,
      presence,
      checkMachine: app.checkMachine,
      machines: app.machines,
      onGatewayAdded: (gatewayId) => {
        presence.register(gatewayId);
        for (const listener of addedListeners) listener(gatewayId);
      },
      // An external broker ends the session itself (docs/gateways.md, rotating a credential).
      endSession: (gatewayId) => void core.broker?.disconnectGateway(gatewayId),
    });
    await app.register(gatewaysRoutes, { gateways: service });
    await app.register(maintenanceSocketRoute, {
      socketAuth: app.socketAuth,
      gateways: service,
      publicUrl: core.config.PUBLIC_URL,
    });

    // Once every module is registered: ingest has subscribed by then (it sees every message
    // from the first), and a retained `online` state finds the listener that re-acks it.
    app.addHook('onReady', async () => {
      await bus.subscribe('telemetry', presence.heard);
      await bus.subscribe('events', presence.heard);
      await bus.subscribe('cmd/reply', (topic, payload) => {
        presence.heard(topic);
        commands.handleReply(topic, payload);
      });
      await bus.subscribe('state', presence.handleState);
    });

    app.decorate('gateways', {
      presence,
      commands,
      service,
      loadGatewaySeqs: () => repo.loadGatewaySeqs(),
      onGatewayOnline: (listener) => presence.onOnline(listener),
      onGatewayAdded: (listener) => void addedListeners.add(listener),
      unboundMachine: unbound.dropped,
    } satisfies Gateways);
  },
  { name: 'gateways', dependencies: ['visibility', 'machines'] },
);

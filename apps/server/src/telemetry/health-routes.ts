import { telemetryApi } from '@linewatch/contracts/telemetry-api';
import type { FastifyPluginAsync } from 'fastify';
import type { Bus } from '../foundation/broker/bus.ts';
import type { GatewayCommands } from '../gateways/commands.ts';
import { ok } from '../foundation/http/envelope.ts';
import type { Ingestor } from './ingest.ts';

/** Liveness and intake counters, for operators and the tests (public, holds no machine data). */
export const healthRoutes: FastifyPluginAsync<{
  ingestor: Ingestor;
  bus: Bus;
  commands: GatewayCommands;
  databaseKind: string;
}> = async (app, { ingestor, bus, commands, databaseKind }) => {
  app.get(telemetryApi.health.path, { config: { public: true } }, async () =>
    ok({
      database: databaseKind,
      broker: bus.connected ? 'connected' : 'disconnected',
      ingest: ingestor.counters,
      gatewaysOwned: ingestor.ownedGateways,
      gatewayCommands: commands.counters,
    }),
  );
};

import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { hear } from '../foundation/db/notices.ts';
import { createDevicesRepository } from './repository.ts';
import { devicesRoutes } from './routes.ts';
import { createDevicesService, type DevicesService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    devices: DevicesService;
  }
}

/** The machine list, menu and status summary, and the visibility decision (`checkMachine`). */
export const devicesModule = fp(
  async (app, { core }: { core: Core }) => {
    const { presence } = core;
    const devices = createDevicesService({
      repo: createDevicesRepository(core.database.db),
      live: core.live,
      isGatewayOnline: (gatewayId) => presence.isOnline(gatewayId),
      registry: core.registry,
      timeZone: core.config.TIMEZONE,
      followMarksMaxAgeMs: core.cacheMaxAgeMs,
    });
    // Follows made through another instance (subscriptions announces them).
    await hear(core.database, 'follows_changed', (notice) =>
      devices.followsChanged(notice?.users ?? null),
    );
    app.decorate('devices', devices);
    await app.register(devicesRoutes, { devices });
  },
  { name: 'devices', dependencies: ['identity'] },
);

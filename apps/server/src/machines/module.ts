import fp from 'fastify-plugin';
import type { Core } from '../core/core.ts';
import { createMachinesRepository } from './repository.ts';
import { machinesRoutes } from './routes.ts';
import { createMachinesService, type MachinesService } from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The machines: gateways store bindings through it. */
    machines: MachinesService;
  }
}

/**
 * The machines (`devices` rows) one by one and by sheet, and their bindings: the only writer of
 * `devices` (docs/architecture.md, Domains); admin-only routes.
 */
export const machinesModule = fp(
  async (app, { core }: { core: Core }) => {
    const machines = createMachinesService({
      repo: createMachinesRepository(core.database.db),
      lines: app.lines,
      reloadMachines: () => core.registry.changed(),
    });
    await app.register(machinesRoutes, { machines });
    app.decorate('machines', machines);
  },
  { name: 'machines', dependencies: ['lines'] },
);

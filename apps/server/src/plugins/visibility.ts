import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { DeviceInfo } from '../core/machine.ts';
import { forbidden, notFound } from '../foundation/http/envelope.ts';
import { userOf, type SessionUser } from './auth.ts';

/** What `checkMachine` found: the machine, or why the user may not have it. */
export type MachineCheck =
  { ok: true; device: DeviceInfo } | { ok: false; reason: 'unknown' | 'forbidden' };

/** Whether a user may see a machine; the devices service decides (app.ts hands it over). */
export type CheckMachine = (user: SessionUser, sn: string) => Promise<MachineCheck>;

declare module 'fastify' {
  interface FastifyRequest {
    /** The machine a `requireMachine` route is about, visible to the user. */
    machine: DeviceInfo | null;
  }
  interface FastifyInstance {
    /** Whether a user may see a machine: the devices service decides (`checkMachine`). */
    checkMachine: CheckMachine;
  }
}

/** Gives every request a `machine` slot; routes fill it with `requireMachine`. */
export const visibilityPlugin = fp(
  async (app: FastifyInstance, { checkMachine }: { checkMachine: CheckMachine }) => {
    app.decorate('checkMachine', checkMachine);
    app.decorateRequest('machine', null);
  },
  { name: 'visibility' },
);

const snOf = (request: FastifyRequest, name: string): string | undefined => {
  for (const source of [request.params, request.query]) {
    const value = (source as Record<string, unknown> | undefined)?.[name];
    if (typeof value === 'string' && value) return value;
  }
  return undefined;
};

/**
 * The preHandler of every machine-scoped route (docs/design.md section 6, machine visibility): reads
 * the SN from the path parameter or query parameter `name`, answers 0404 for an SN no machine
 * has and 0403 for a machine on a line the user was not granted, and puts the machine on
 * `request.machine`.
 */
export const requireMachine =
  (name: string): preHandlerAsyncHookHandler =>
  async (request) => {
    const sn = snOf(request, name);
    if (sn === undefined) throw notFound();
    const check = await request.server.checkMachine(userOf(request), sn);
    if (!check.ok) throw check.reason === 'unknown' ? notFound() : forbidden();
    request.machine = check.device;
  };

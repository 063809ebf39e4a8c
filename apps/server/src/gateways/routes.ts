import { envelopeSchema } from '@linewatch/contracts/envelope';
import { gatewaySerialBody, registerGatewayBody } from '@linewatch/contracts/gateways';
import { gatewaysApi } from '@linewatch/contracts/gateways-api';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../foundation/http/envelope.ts';
import { userOf } from '../plugins/auth.ts';
import { presentGateway, presentPlcModels } from './presenter.ts';
import type { GatewaysService } from './service.ts';

const plcModelOption = z.object({
  label: z.string(),
  value: z.string(),
  protocol: z.enum(['modbus', 'opcua', 's7']),
  port: z.number(),
});
const credential = z.object({ serial: z.string(), secret: z.string() });
const gatewayRow = z.object({
  serial: z.string(),
  name: z.string(),
  online: z.boolean(),
  lastSeenAt: z.number().nullable(),
  agentVersion: z.string().nullable(),
  machines: z.array(
    z.object({
      snCode: z.string(),
      plcIp: z.string().nullable(),
      plcPort: z.number().nullable(),
      unitId: z.number().nullable(),
      plcModel: z.string().nullable(),
    }),
  ),
});

/** The PLC model picker (docs/product.md section 7) and the admin registry. */
export const gatewaysRoutes: FastifyPluginAsyncZod<{ gateways: GatewaysService }> = async (
  app,
  { gateways },
) => {
  app.get(
    gatewaysApi.plcModels.path,
    { schema: { response: { 200: envelopeSchema(z.array(plcModelOption)) } } },
    async () => ok(presentPlcModels()),
  );

  const actorOf = (request: Parameters<typeof userOf>[0]) => {
    const user = userOf(request);
    return { userId: user.userId, name: user.name };
  };

  app.get(
    gatewaysApi.adminList.path,
    {
      config: { adminOnly: true },
      schema: { response: { 200: envelopeSchema(z.array(gatewayRow)) } },
    },
    async () => ok((await gateways.list()).map(presentGateway)),
  );

  app.post(
    gatewaysApi.adminRegister.path,
    {
      config: { adminOnly: true },
      schema: { body: registerGatewayBody, response: { 200: envelopeSchema(credential) } },
    },
    async (request) => ok(await gateways.register(actorOf(request), request.body)),
  );

  app.post(
    gatewaysApi.adminRotate.path,
    {
      config: { adminOnly: true },
      schema: { body: gatewaySerialBody, response: { 200: envelopeSchema(credential) } },
    },
    async (request) => ok(await gateways.rotate(actorOf(request), request.body.serial)),
  );
};

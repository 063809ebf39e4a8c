import { endpoint } from './endpoint.ts';
import type {
  GatewayCredential,
  GatewayRow,
  GatewaySerialBody,
  PlcModelOption,
  RegisterGatewayBody,
} from './gateways.ts';

/** The PLC model picker and the admin gateway registry (schemas in gateways.ts). */
export const gatewaysApi = {
  plcModels: endpoint<void, PlcModelOption[]>('GET', '/api/wechat/getPlcModel'),
  adminList: endpoint<void, GatewayRow[]>('GET', '/api/admin/gateways'),
  adminRegister: endpoint<RegisterGatewayBody, GatewayCredential>(
    'POST',
    '/api/admin/gateways/register',
  ),
  adminRotate: endpoint<GatewaySerialBody, GatewayCredential>('POST', '/api/admin/gateways/rotate'),
} as const;

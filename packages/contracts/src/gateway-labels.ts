import { GATEWAY_SERIAL_LENGTH } from './limits.ts';

// The bind and unbind messages and the IP examples, apart from the schemas: the bind page shows
// the examples at once and zod (≈ 25 KB gzip) would come along with any import of gateways.ts.

export const gatewayMessages = {
  snRequired: '请输入机台SN码',
  serialRequired: '请输入网关序列号',
  serialTooLong: `网关序列号不能超过${GATEWAY_SERIAL_LENGTH}位`,
  plcModelRequired: '请选择PLC型号',
  badIp: (example: string) => `请输入正确IP，如：${example}`,
  badPort: '请输入正确端口（1-65535），如：502',
  badUnitId: '请输入正确站号（0-255），如：1',
  /** 409: IP, port and unit id together name one PLC. */
  plcTaken: (ip: string, port: number, unitId: number, sn: string) =>
    `PLC ${ip}:${port} 站号${unitId} 已被机台${sn}使用`,
  ipClash: '网关IP不能与机台IP相同',
  gatewayIpsSame: '网关的两个IP不能相同',
  incomplete: '请将数据填写完整',
  badSerial: '请输入正确的网关序列号',
  badMessageType: '消息类型只能是绑定或解绑',
  connectionError: '连接异常',
} as const;

/** Modbus TCP's registered port: the bind form's default, and a bind message's without one. */
export const MODBUS_PORT = 502;

/** The examples the IP messages show, one per field. */
export const IP_EXAMPLES = {
  plcIp: '192.168.1.10',
  iotIp1: '192.168.1.2',
  iotIp2: '10.0.0.2',
} as const;

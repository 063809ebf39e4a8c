/*
 * A machine's gateway state (docs/product.md section 3, machine card `iot`), zod-free: 0 no gateway bound,
 * 1 its gateway online, 2 its gateway offline.
 */

export const IOT_STATE = { unbound: 0, online: 1, offline: 2 } as const;
export type IotState = (typeof IOT_STATE)[keyof typeof IOT_STATE];

/** The state of a machine's gateway: whether it is connected, null when none is bound. */
export const iotStateOf = (gatewayOnline: boolean | null): IotState =>
  gatewayOnline === null ? IOT_STATE.unbound : gatewayOnline ? IOT_STATE.online : IOT_STATE.offline;

/**
 * Worded as the gateway's: beside the machine's own 离线 a bare 在线 read as a contradiction (the
 * machine is silent while its gateway is up).
 */
export const iotLabels: Record<IotState, string> = {
  [IOT_STATE.unbound]: '未绑定网关',
  [IOT_STATE.online]: '网关在线',
  [IOT_STATE.offline]: '网关离线',
};

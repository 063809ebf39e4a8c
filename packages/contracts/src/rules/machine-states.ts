/*
 * Machine states, zod-free: the codes a gateway reports, the live status the screens show, the
 * real-time report's EquipmentStatus, and their words. Every place that tells a running machine
 * from an idle or faulty one asks here.
 */

/** docs/product.md section 4, device light: the PLC's state codes (a gateway's `status`). */
export const MACHINE_STATE = { idle: 1, running: 2, fault: 3 } as const;
export type MachineState = (typeof MACHINE_STATE)[keyof typeof MACHINE_STATE];

/** A code a PLC register may hold that is a machine state (anything else is a misread). */
export const isMachineState = (code: number): code is MachineState =>
  code === MACHINE_STATE.idle || code === MACHINE_STATE.running || code === MACHINE_STATE.fault;

/** The live status of a machine (docs/product.md section 3, deviceStatus), in the screens' order. */
export const DEVICE_STATUSES = ['running', 'standBy', 'error', 'offLine'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** The live status a reported state shows as (offline is silence, not a state). */
export const deviceStatusOf = (state: MachineState): DeviceStatus =>
  state === MACHINE_STATE.running ? 'running' : state === MACHINE_STATE.fault ? 'error' : 'standBy';

/** The real-time report's EquipmentStatus: the machine state, or 0 when offline. */
const OFFLINE = 0;
export type EquipmentStatus = MachineState | typeof OFFLINE;
export const EQUIPMENT_STATUS: Record<DeviceStatus, EquipmentStatus> = {
  running: MACHINE_STATE.running,
  standBy: MACHINE_STATE.idle,
  error: MACHINE_STATE.fault,
  offLine: OFFLINE,
};
export const deviceStatusOfEquipment = (status: EquipmentStatus): DeviceStatus =>
  status === OFFLINE ? 'offLine' : deviceStatusOf(status);

/** The words of each live status (the summary, the cards, the map, the light, the alerts). */
export const deviceStatusLabels: Record<DeviceStatus, string> = {
  running: '运行',
  standBy: '待机',
  error: '故障',
  offLine: '离线',
};

import type { DeviceInfo, MachinePlace } from '../core/machine.ts';
import type { MachineSnapshot } from '../core/reading-effects.ts';

/** A device registry's record of a machine, for tests of what is built on the registry. */
export const deviceInfo = (
  sn: string,
  { lineId = 1, place = {} }: { lineId?: number; place?: Partial<MachinePlace> } = {},
): DeviceInfo => ({
  sn,
  deviceName: sn,
  nickSnCode: sn,
  lineId,
  lineName: `L${lineId}`,
  groupName: null,
  gatewayId: null,
  produceTargetNumber: 0,
  ngTargetNumber: 0,
  ppmTarget: 0,
  maxPpm: null,
  yieldTarget: 0,
  superiorityRateTarget: 0,
  useRateTarget: 0,
  place: { country: '', province: '', city: '', lng: null, lat: null, ...place },
});

/** A machine's last reading as the live state keeps it, with no counts. */
export const snapshotAt = (
  ts: number,
  status: MachineSnapshot['status'],
  activeAlarms: string[] = [],
): MachineSnapshot => ({
  ts,
  status,
  idleReason: null,
  produced: 0,
  ok: 0,
  ng: 0,
  firstPassOk: 0,
  activeAlarms,
});

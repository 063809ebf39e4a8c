/** A machine as the device registry holds it (device-registry.ts): names, line, gateway, targets, place. */

export interface DeviceInfo {
  sn: string;
  deviceName: string;
  nickSnCode: string;
  lineId: number;
  lineName: string;
  /** The product group's name; null for a machine in no group. */
  groupName: string | null;
  gatewayId: string | null;
  produceTargetNumber: number;
  ngTargetNumber: number;
  /** Counter plausibility (docs/design.md section 5): parts per minute the machine aims at … */
  ppmTarget: number;
  /** … and the most it can make, when set. */
  maxPpm: number | null;
  yieldTarget: number;
  superiorityRateTarget: number;
  useRateTarget: number;
  /** Where the machine stands, as the map's levels name it ('' when not said), and its position. */
  place: MachinePlace;
}

export interface MachinePlace {
  country: string;
  province: string;
  city: string;
  /** Both or neither: a machine without a position is counted but not drawn. */
  lng: number | null;
  lat: number | null;
}

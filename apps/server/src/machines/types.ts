/** The machines domain's types, which gateways use for bindings. */

/** A machine's administered fields (never its gateway binding, position or PLC address). */
export interface MachineFields {
  deviceName: string;
  nickSnCode: string;
  nickDeviceName: string;
  machineName: string;
  projectName: string;
  lineId: number;
  groupId: number | null;
  country: string;
  province: string;
  city: string;
  ppmTarget: number;
  yieldTarget: number;
  superiorityRateTarget: number;
  useRateTarget: number;
  produceTargetNumber: number;
  ngTargetNumber: number;
  capacityTarget: number;
  maxPpm: number | null;
  plcModel: string;
}

/** A PLC's connection: the three together name one PLC of a gateway. */
export interface PlcConnection {
  plcIp: string;
  plcPort: number;
  unitId: number;
}

/** What binds a machine to a gateway: the gateway, its PLC's connection and model. */
export interface Binding extends PlcConnection {
  gatewayId: string;
  plcModel: string;
}

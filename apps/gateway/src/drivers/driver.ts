import type { OperationEvent, Reading } from '@linewatch/contracts/mqtt';

/** What a driver reads from one machine; the agent stamps `sn` and `ts`. */
export type DriverReading = Omit<Reading, 'sn' | 'ts'>;

/**
 * One machine behind the gateway. Implementations: `simulated` (demo PLC); a Modbus TCP driver
 * maps holding registers onto the same reading.
 */
export interface MachineDriver {
  readonly sn: string;
  /** Rejects when the machine cannot be read this time; the agent skips it for that poll. */
  read(now: number): Promise<DriverReading>;
  /** Operation events (operator setpoint changes) seen since the last call. */
  takeEvents(): OperationEvent[];
  close(): Promise<void>;
}

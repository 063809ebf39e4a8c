import type { OperationEvent } from '@linewatch/contracts/mqtt';
import { spanOf, type ModbusProfile } from '@linewatch/contracts/plc-profiles';
import ModbusRTU from 'modbus-serial';
import type { DriverReading, MachineDriver } from './driver.ts';
import { PlcConnection } from './connection.ts';
import { ReadingMaker } from './figures.ts';
import { decode } from './register-map.ts';

export interface ModbusMachineOptions {
  sn: string;
  host: string;
  port: number;
  /** Which PLC behind the address (a Modbus gateway's serial PLCs); usually the profile's. */
  unitId: number;
  profile: ModbusProfile;
  /** A request unanswered this long fails the read (the machine is skipped for that poll). */
  timeoutMs: number;
  /** After a failed connection or read, the next attempt waits at least this long. */
  reconnectMs: number;
}

/**
 * One PLC over Modbus TCP: one holding-register read per poll covering the whole register map
 * of its model. A PLC that does not answer rejects the read, so its machine goes silent (and
 * offline on the server after a minute) while the gateway and its other machines carry on; the
 * connection is rebuilt at most every `reconnectMs`.
 */
export class ModbusDriver implements MachineDriver {
  readonly sn: string;
  readonly #span: { start: number; length: number };
  readonly #connection: PlcConnection<ModbusRTU>;
  readonly #readings: ReadingMaker;

  constructor(private readonly options: ModbusMachineOptions) {
    this.sn = options.sn;
    this.#span = spanOf(options.profile);
    this.#connection = new PlcConnection({
      what: `PLC ${options.host}:${options.port}`,
      reconnectMs: options.reconnectMs,
      open: async () => {
        const client = new ModbusRTU();
        client.setTimeout(options.timeoutMs);
        await client.connectTCP(options.host, { port: options.port, timeout: options.timeoutMs });
        client.setID(options.unitId);
        return client;
      },
      isOpen: (client) => client.isOpen,
      close: (client) => new Promise<void>((resolve) => client.close(() => resolve())),
    });
    this.#readings = new ReadingMaker(
      options.sn,
      options.profile.setpoints.map((s) => s.name),
    );
  }

  async read(now: number): Promise<DriverReading> {
    const { start, length } = this.#span;
    const words = await this.#connection.use(
      now,
      async (client) => (await client.readHoldingRegisters(start, length)).data,
    );
    return this.#readings.reading(now, decode(this.options.profile, this.#span.start, words));
  }

  takeEvents(): OperationEvent[] {
    return this.#readings.takeEvents();
  }

  close(): Promise<void> {
    return this.#connection.close();
  }
}

import type { OperationEvent } from '@linewatch/contracts/mqtt';
import { spanOf, type ModbusProfile } from '@linewatch/contracts/plc-profiles';
import ModbusRTU from 'modbus-serial';
import type { DriverReading, MachineDriver } from './driver.ts';
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
  #client: ModbusRTU | null = null;
  #connecting: Promise<ModbusRTU> | null = null;
  #retryAt = 0;
  readonly #readings: ReadingMaker;

  constructor(private readonly options: ModbusMachineOptions) {
    this.sn = options.sn;
    this.#span = spanOf(options.profile);
    this.#readings = new ReadingMaker(
      options.sn,
      options.profile.setpoints.map((s) => s.name),
    );
  }

  async read(now: number): Promise<DriverReading> {
    const client = await this.#connect(now);
    let words: number[];
    try {
      words = (await client.readHoldingRegisters(this.#span.start, this.#span.length)).data;
    } catch (error) {
      this.#drop(now);
      throw error;
    }
    return this.#readings.reading(now, decode(this.options.profile, this.#span.start, words));
  }

  takeEvents(): OperationEvent[] {
    return this.#readings.takeEvents();
  }

  async close(): Promise<void> {
    const client = this.#client;
    this.#client = null;
    if (client?.isOpen) await new Promise<void>((resolve) => client.close(() => resolve()));
  }

  async #connect(now: number): Promise<ModbusRTU> {
    if (this.#client?.isOpen) return this.#client;
    if (now < this.#retryAt)
      throw new Error(`PLC ${this.options.host}:${this.options.port} unreachable, retry later`);
    this.#connecting ??= (async () => {
      const client = new ModbusRTU();
      client.setTimeout(this.options.timeoutMs);
      try {
        await client.connectTCP(this.options.host, {
          port: this.options.port,
          timeout: this.options.timeoutMs,
        });
      } catch (error) {
        this.#retryAt = Date.now() + this.options.reconnectMs;
        throw error;
      }
      client.setID(this.options.unitId);
      this.#client = client;
      return client;
    })().finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }

  #drop(now: number) {
    const client = this.#client;
    this.#client = null;
    this.#retryAt = now + this.options.reconnectMs;
    if (client?.isOpen) client.close(() => undefined);
  }
}

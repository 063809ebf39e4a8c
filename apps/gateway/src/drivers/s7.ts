import type { OperationEvent } from '@linewatch/contracts/mqtt';
import type { S7Profile } from '@linewatch/contracts/plc-profiles';
import NodeS7 from 'nodes7';
import type { DriverReading, MachineDriver } from './driver.ts';
import { PlcConnection } from './connection.ts';
import { addressesOf, imageOf, rawFiguresOf, ReadingMaker } from './figures.ts';

export interface S7MachineOptions {
  sn: string;
  host: string;
  port: number;
  rack: number;
  slot: number;
  profile: S7Profile;
  /** A request unanswered this long fails the read (the machine is skipped for that poll). */
  timeoutMs: number;
  /** After a failed connection or read, the next attempt waits at least this long. */
  reconnectMs: number;
}

/**
 * One Siemens PLC over S7comm (ISO-on-TCP, nodes7): the figures at the data block addresses of
 * its profile, read in one go each poll (nodes7 packs them into as few requests as the PDU
 * allows). A read that fails or times out drops the connection; the next is made at most every
 * `reconnectMs` on a fresh client, so the machine goes silent while the PLC is away (as a Modbus
 * PLC's does) and is read again once it is back.
 */
export class S7Driver implements MachineDriver {
  readonly sn: string;
  readonly #addresses: string[];
  readonly #readings: ReadingMaker;
  readonly #connection: PlcConnection<NodeS7>;

  constructor(private readonly options: S7MachineOptions) {
    this.sn = options.sn;
    this.#addresses = addressesOf(options.profile, 'address');
    this.#connection = new PlcConnection({
      what: `S7 PLC ${options.host}:${options.port}`,
      reconnectMs: options.reconnectMs,
      open: () => this.#open(),
      // nodes7 keeps no state worth asking: a connection is dropped when a read over it fails.
      isOpen: () => true,
      close: (client) => new Promise<void>((resolve) => client.dropConnection(() => resolve())),
    });
    this.#readings = new ReadingMaker(
      options.sn,
      options.profile.setpoints.map((s) => s.name),
    );
  }

  async read(now: number): Promise<DriverReading> {
    const values = await this.#connection.use(now, (client) => this.#readAll(client));
    const number = (address: string) => {
      const value = values[address];
      if (typeof value === 'boolean') return value ? 1 : 0;
      if (typeof value !== 'number') throw new Error(`S7 ${address} holds ${String(value)}`);
      return value;
    };
    return this.#readings.reading(
      now,
      imageOf(rawFiguresOf(this.options.profile, 'address', number)),
    );
  }

  takeEvents(): OperationEvent[] {
    return this.#readings.takeEvents();
  }

  close(): Promise<void> {
    return this.#connection.close();
  }

  #readAll(client: NodeS7) {
    const { timeoutMs, host, port } = this.options;
    return new Promise<Record<string, number | boolean | string>>((resolve, reject) => {
      // nodes7 may never call back when the connection is half gone.
      const timer = setTimeout(
        () => reject(new Error(`S7 ${host}:${port}: no answer in ${timeoutMs} ms`)),
        timeoutMs * 2,
      );
      client.readAllItems((anythingBad, values) => {
        clearTimeout(timer);
        if (!anythingBad) return resolve(values);
        const bad = Object.entries(values).find(([, v]) => typeof v === 'string');
        reject(
          new Error(`S7 ${host}:${port}: ${bad ? `${bad[0]} ${String(bad[1])}` : 'bad read'}`),
        );
      });
    });
  }

  /** A connected client with the profile's addresses added; rejects (and drops it) on failure. */
  #open(): Promise<NodeS7> {
    const { host, port, rack, slot, timeoutMs } = this.options;
    return new Promise<NodeS7>((resolve, reject) => {
      const client = new NodeS7({ silent: true });
      const fail = (error: unknown) => {
        client.dropConnection();
        reject(error instanceof Error ? error : new Error(`S7 ${host}:${port}: ${String(error)}`));
      };
      const timer = setTimeout(
        () => fail(new Error(`S7 ${host}:${port}: no connection in ${timeoutMs * 2} ms`)),
        timeoutMs * 2,
      );
      client.initiateConnection({ host, port, rack, slot, timeout: timeoutMs }, (error) => {
        clearTimeout(timer);
        if (error) return fail(error);
        client.addItems(this.#addresses);
        resolve(client);
      });
    });
  }
}

import type { OperationEvent } from '@linewatch/contracts/mqtt';
import type { S7Profile } from '@linewatch/contracts/plc-profiles';
import NodeS7 from 'nodes7';
import type { DriverReading, MachineDriver } from './driver.ts';
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

/** The profile's figures as the addresses nodes7 reads, in one list. */
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
  #client: NodeS7 | null = null;
  #connecting: Promise<NodeS7> | null = null;
  #retryAt = 0;

  constructor(private readonly options: S7MachineOptions) {
    this.sn = options.sn;
    this.#addresses = addressesOf(options.profile, 'address');
    this.#readings = new ReadingMaker(
      options.sn,
      options.profile.setpoints.map((s) => s.name),
    );
  }

  async read(now: number): Promise<DriverReading> {
    const client = await this.#connect(now);
    let values: Record<string, number | boolean | string>;
    try {
      values = await this.#readAll(client);
    } catch (error) {
      this.#drop(now);
      throw error;
    }
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

  async close(): Promise<void> {
    this.#retryAt = Infinity;
    const client = this.#client ?? (await this.#connecting?.catch(() => null));
    this.#client = null;
    if (client) await new Promise<void>((resolve) => client.dropConnection(() => resolve()));
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

  async #connect(now: number): Promise<NodeS7> {
    if (this.#client) return this.#client;
    const { host, port, rack, slot, timeoutMs, reconnectMs } = this.options;
    if (now < this.#retryAt) throw new Error(`S7 PLC ${host}:${port} unreachable, retry later`);
    this.#connecting ??= new Promise<NodeS7>((resolve, reject) => {
      const client = new NodeS7({ silent: true });
      const fail = (error: unknown) => {
        this.#retryAt = Date.now() + reconnectMs;
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
        this.#client = client;
        resolve(client);
      });
    }).finally(() => {
      this.#connecting = null;
    });
    return this.#connecting;
  }

  #drop(now: number) {
    const client = this.#client;
    this.#client = null;
    this.#retryAt = now + this.options.reconnectMs;
    client?.dropConnection();
  }
}

import type { Db, OpenDatabase } from '../foundation/db/database.ts';
import { announce, hear } from '../foundation/db/notices.ts';
import { lineAreasOf, type LineAreas } from './map-areas.ts';
import type { DeviceInfo } from './machine.ts';

/**
 * Tells every process on the database (the other server instances) that machines changed, once
 * the caller's change is committed: they reload their registries. Run after the change commits.
 */
export const announceMachinesChanged = (db: Db): Promise<void> =>
  announce(db, 'machines_changed', {});

/** A production line with machines, and its machines in SN order. */
export interface RegistryLine {
  id: number;
  name: string;
  machines: DeviceInfo[];
  /** Its machines by map area with each area's regions summed (map-areas.ts), built on reload. */
  areas: LineAreas;
}

/**
 * Machines by SN, cached for the hot paths (ingest checks each reading's gateway binding; sockets
 * check visibility; the device list and the statistics choose their page here). Reloaded after
 * anything changes machines, bindings, lines or groups — on the instance that changed them.
 */
export class DeviceRegistry {
  #devices = new Map<string, DeviceInfo>();
  #lines: RegistryLine[] = [];
  #version = 0;

  #reloading: Promise<void> | null = null;
  #again = false;
  readonly #reloadListeners = new Set<(before: ReadonlyMap<string, DeviceInfo>) => void>();

  constructor(private readonly db: Db) {}

  /** Reloads whenever another process announces a change (PostgreSQL; see announceMachinesChanged). */
  follow(database: OpenDatabase, onError: (error: unknown) => void): Promise<void> {
    return hear(database, 'machines_changed', () => {
      this.#reloadSoon().catch(onError);
    });
  }

  /** Reloads now, or once more after the reload in progress (a change may have come during it). */
  #reloadSoon(): Promise<void> {
    if (this.#reloading) {
      this.#again = true;
      return this.#reloading;
    }
    this.#reloading = (async () => {
      try {
        do {
          this.#again = false;
          await this.reload();
        } while (this.#again);
      } finally {
        this.#reloading = null;
      }
    })();
    return this.#reloading;
  }

  /** After this process changed machines: reload here and tell the other processes. */
  async changed(): Promise<void> {
    await this.reload();
    await announceMachinesChanged(this.db);
  }

  async reload(): Promise<void> {
    // The lists' order (line sort, line, SN) is the database's, collation included: kept here
    // as read, never sorted again in JavaScript.
    const rows = await this.db
      .selectFrom('devices as d')
      .innerJoin('production_lines as l', 'l.id', 'd.line_id')
      .leftJoin('product_groups as g', 'g.id', 'd.group_id')
      .select([
        'd.sn_code',
        'd.device_name',
        'd.nick_sn_code',
        'd.line_id',
        'l.name as line_name',
        'g.name as group_name',
        'd.gateway_id',
        'd.produce_target_number',
        'd.ng_target_number',
        'd.ppm_target',
        'd.max_ppm',
        'd.yield_target',
        'd.superiority_rate_target',
        'd.use_rate_target',
        'd.country',
        'd.province',
        'd.city',
        'd.lng',
        'd.lat',
      ])
      .orderBy('l.sort')
      .orderBy('l.id')
      .orderBy('d.sn_code')
      .execute();
    const devices = new Map<string, DeviceInfo>();
    const lines: Omit<RegistryLine, 'areas'>[] = [];
    for (const r of rows) {
      const device: DeviceInfo = {
        sn: r.sn_code,
        deviceName: r.device_name,
        nickSnCode: r.nick_sn_code,
        lineId: r.line_id,
        lineName: r.line_name,
        groupName: r.group_name,
        gatewayId: r.gateway_id,
        produceTargetNumber: r.produce_target_number,
        ngTargetNumber: r.ng_target_number,
        ppmTarget: r.ppm_target,
        maxPpm: r.max_ppm,
        yieldTarget: r.yield_target,
        superiorityRateTarget: r.superiority_rate_target,
        useRateTarget: r.use_rate_target,
        place: {
          country: r.country,
          province: r.province,
          city: r.city,
          lng: r.lng !== null && r.lat !== null ? r.lng : null,
          lat: r.lng !== null && r.lat !== null ? r.lat : null,
        },
      };
      devices.set(device.sn, device);
      const line = lines.at(-1);
      if (line?.id === device.lineId) line.machines.push(device);
      else lines.push({ id: device.lineId, name: device.lineName, machines: [device] });
    }
    const before = this.#devices;
    this.#devices = devices;
    this.#lines = lines.map((line) => ({ ...line, areas: lineAreasOf(line.machines) }));
    this.#version++;
    for (const listener of this.#reloadListeners) listener(before);
  }

  /** Called after every reload with the machines as they were before it (a machine moved). */
  onReload(listener: (before: ReadonlyMap<string, DeviceInfo>) => void): () => void {
    this.#reloadListeners.add(listener);
    return () => this.#reloadListeners.delete(listener);
  }

  get(sn: string): DeviceInfo | undefined {
    return this.#devices.get(sn);
  }

  /** The machines bound to a gateway. */
  snsOfGateway(gatewayId: string): string[] {
    const sns: string[] = [];
    for (const device of this.#devices.values())
      if (device.gatewayId === gatewayId) sns.push(device.sn);
    return sns;
  }

  /** The lines that have machines, in the lists' order (line sort, then id), each in SN order. */
  lines(): readonly RegistryLine[] {
    return this.#lines;
  }

  /** Changes with every reload: what was derived from the machines before is stale. */
  get version(): number {
    return this.#version;
  }
}

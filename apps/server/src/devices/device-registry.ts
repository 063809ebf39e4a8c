import type { Db } from '../db/database.ts';

export interface DeviceInfo {
  sn: string;
  deviceName: string;
  nickSnCode: string;
  lineId: number;
  gatewayId: string | null;
  produceTargetNumber: number;
  ngTargetNumber: number;
  /** Counter plausibility (DESIGN.md section 5): parts per minute the machine aims at … */
  ppmTarget: number;
  /** … and the most it can make, when set. */
  maxPpm: number | null;
}

/**
 * Machines by SN, cached for the hot paths (ingest checks each reading's gateway binding; sockets
 * check visibility). Reloaded after anything changes machines or bindings.
 */
export class DeviceRegistry {
  #devices = new Map<string, DeviceInfo>();

  constructor(private readonly db: Db) {}

  async reload(): Promise<void> {
    const rows = await this.db
      .selectFrom('devices')
      .select([
        'sn_code',
        'device_name',
        'nick_sn_code',
        'line_id',
        'gateway_id',
        'produce_target_number',
        'ng_target_number',
        'ppm_target',
        'max_ppm',
      ])
      .execute();
    this.#devices = new Map(
      rows.map((r) => [
        r.sn_code,
        {
          sn: r.sn_code,
          deviceName: r.device_name,
          nickSnCode: r.nick_sn_code,
          lineId: r.line_id,
          gatewayId: r.gateway_id,
          produceTargetNumber: r.produce_target_number,
          ngTargetNumber: r.ng_target_number,
          ppmTarget: r.ppm_target,
          maxPpm: r.max_ppm,
        },
      ]),
    );
  }

  get(sn: string): DeviceInfo | undefined {
    return this.#devices.get(sn);
  }

  /** Every known machine's SN. */
  sns(): IterableIterator<string> {
    return this.#devices.keys();
  }
}

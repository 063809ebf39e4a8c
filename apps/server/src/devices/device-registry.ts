import { sql } from 'kysely';
import type { Db, OpenDatabase } from '../db/database.ts';

/** The NOTIFY channel (within the database schema) that says machines, lines or groups changed. */
const MACHINES_CHANGED = 'machines_changed';

/**
 * Tells every process on the database (the other server instances) that machines changed, once
 * the caller's change is committed: they reload their registries. Run after the change commits.
 */
export const announceMachinesChanged = async (db: Db): Promise<void> => {
  await sql`select pg_notify(current_schema() || '.' || ${MACHINES_CHANGED}, '')`.execute(db);
};

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

  #reloading: Promise<void> | null = null;
  #again = false;

  constructor(private readonly db: Db) {}

  /** Reloads whenever another process announces a change (PostgreSQL; see announceMachinesChanged). */
  follow(database: OpenDatabase, onError: (error: unknown) => void): Promise<void> {
    return database.listen(MACHINES_CHANGED, () => {
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

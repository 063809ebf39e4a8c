import type { NotNull } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import { writeAudit } from '../foundation/shared/audit.ts';
import type { PlcConnection } from '../machines/types.ts';
import { gatewayAudit, type GatewayAuditEntry } from './audit.ts';

/** A registered gateway as stored (`online` and `lastSeenAt`: what the database last recorded). */
export interface Gateway {
  serial: string;
  name: string;
  online: boolean;
  lastSeenAt: Date | null;
  agentVersion: string | null;
}

/** A machine bound to a gateway, with the PLC it is read from. */
export interface GatewayBinding {
  gatewayId: string;
  snCode: string;
  plcIp: string | null;
  plcPort: number | null;
  unitId: number | null;
  plcModel: string | null;
}

/**
 * The gateways table (credentials checked in credentials.ts) and its audit trail; it reads the
 * bindings, which machines' service stores.
 */
export const createGatewaysRepository = (db: Db) => {
  const audit = (executor: Db, entry: GatewayAuditEntry) =>
    writeAudit(executor, gatewayAudit(entry));

  return {
    /**
     * Each gateway's highest committed seq. Ingest writes it in its flush transaction (it must
     * commit with the message's effects) and reads it here at start.
     */
    async loadGatewaySeqs(): Promise<Map<string, number>> {
      const rows = await db.selectFrom('gateways').select(['id', 'last_seq']).execute();
      return new Map(rows.map((r) => [r.id, r.last_seq]));
    },

    async gatewayExists(gatewayId: string): Promise<boolean> {
      const row = await db
        .selectFrom('gateways')
        .select('id')
        .where('id', '=', gatewayId)
        .executeTakeFirst();
      return row !== undefined;
    },

    /** Another machine of this gateway read at this IP, port and unit id. */
    findPlcUser: (gatewayId: string, plc: PlcConnection, exceptSn: string) =>
      db
        .selectFrom('devices')
        .select('sn_code')
        .where('gateway_id', '=', gatewayId)
        .where('plc_ip', '=', plc.plcIp)
        .where('plc_port', '=', plc.plcPort)
        .where('plc_unit_id', '=', plc.unitId)
        .where('sn_code', '!=', exceptSn)
        .executeTakeFirst(),

    /** A new gateway, or a new secret for one (rotate): the hash replaces the old one. */
    insertGateway: (
      gatewayId: string,
      name: string,
      passwordHash: string,
      entry: GatewayAuditEntry,
    ) =>
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('gateways')
          .values({ id: gatewayId, name, password_hash: passwordHash })
          .execute();
        await audit(trx, entry);
      }),

    replaceSecret: (gatewayId: string, passwordHash: string, entry: GatewayAuditEntry) =>
      db.transaction().execute(async (trx) => {
        const result = await trx
          .updateTable('gateways')
          .set({ password_hash: passwordHash })
          .where('id', '=', gatewayId)
          .executeTakeFirst();
        if (result.numUpdatedRows === 0n) return false;
        await audit(trx, entry);
        return true;
      }),

    listGateways: async (): Promise<Gateway[]> =>
      (
        await db
          .selectFrom('gateways')
          .select(['id', 'name', 'online', 'last_seen_at', 'agent_version'])
          .orderBy('id')
          .execute()
      ).map((g) => ({
        serial: g.id,
        name: g.name,
        online: g.online,
        lastSeenAt: g.last_seen_at,
        agentVersion: g.agent_version,
      })),

    listBindings: async (): Promise<GatewayBinding[]> =>
      (
        await db
          .selectFrom('devices')
          .select(['sn_code', 'gateway_id', 'plc_ip', 'plc_port', 'plc_unit_id', 'plc_model'])
          .where('gateway_id', 'is not', null)
          .$narrowType<{ gateway_id: NotNull }>()
          .orderBy('sn_code')
          .execute()
      ).map((b) => ({
        gatewayId: b.gateway_id,
        snCode: b.sn_code,
        plcIp: b.plc_ip,
        plcPort: b.plc_port,
        unitId: b.plc_unit_id,
        plcModel: b.plc_model,
      })),
  };
};

export type GatewaysRepository = ReturnType<typeof createGatewaysRepository>;

import type { Db } from '../foundation/db/database.ts';
import { writeAudit } from '../foundation/shared/audit.ts';

/** A gateway's entry in the audit log (shared/audit.ts): who did what to it, and to which machine. */
export interface AuditEntry {
  userId: number | null;
  userName: string;
  action: 'bind' | 'unbind' | 'register' | 'rotate';
  gatewayId: string;
  snCode?: string;
  /** What the binding said (PLC connection and model, the gateway's addresses). */
  binding?: { plcIp: string; plcPort: number; unitId: number; plcModel: string; iotIp: string };
}

/** A PLC's Modbus TCP connection: the three together name one PLC of a gateway. */
export interface PlcConnection {
  plcIp: string;
  plcPort: number;
  unitId: number;
}

export interface Binding extends PlcConnection {
  snCode: string;
  gatewayId: string;
  plcModel: string;
}

/** The gateways table (credentials checked in credentials.ts), bindings and their audit trail. */
export const createGatewaysRepository = (db: Db) => {
  const audit = (executor: Db, entry: AuditEntry) =>
    writeAudit(executor, {
      actorId: entry.userId,
      actorName: entry.userName,
      action: `gateway.${entry.action}`,
      target: `gateway:${entry.gatewayId}`,
      after: entry.snCode || entry.binding ? { snCode: entry.snCode, ...entry.binding } : undefined,
    });

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

    /** Stores a binding (or clears it: gatewayId null) and its audit entry, in one transaction. */
    setBinding: (
      snCode: string,
      binding: Omit<Binding, 'snCode'> | null,
      entry: AuditEntry,
    ): Promise<void> =>
      db.transaction().execute(async (trx) => {
        await trx
          .updateTable('devices')
          .set({
            gateway_id: binding?.gatewayId ?? null,
            plc_ip: binding?.plcIp ?? null,
            plc_port: binding?.plcPort ?? null,
            plc_unit_id: binding?.unitId ?? null,
            plc_model: binding?.plcModel ?? null,
          })
          .where('sn_code', '=', snCode)
          .execute();
        await audit(trx, entry);
      }),

    /** A new gateway, or a new secret for one (rotate): the hash replaces the old one. */
    insertGateway: (gatewayId: string, name: string, passwordHash: string, entry: AuditEntry) =>
      db.transaction().execute(async (trx) => {
        await trx
          .insertInto('gateways')
          .values({ id: gatewayId, name, password_hash: passwordHash })
          .execute();
        await audit(trx, entry);
      }),

    replaceSecret: (gatewayId: string, passwordHash: string, entry: AuditEntry) =>
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

    listGateways: () =>
      db
        .selectFrom('gateways')
        .select(['id', 'name', 'online', 'last_seen_at', 'agent_version'])
        .orderBy('id')
        .execute(),

    listBindings: () =>
      db
        .selectFrom('devices')
        .select(['sn_code', 'gateway_id', 'plc_ip', 'plc_port', 'plc_unit_id', 'plc_model'])
        .where('gateway_id', 'is not', null)
        .orderBy('sn_code')
        .execute(),
  };
};

export type GatewaysRepository = ReturnType<typeof createGatewaysRepository>;

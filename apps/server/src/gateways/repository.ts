import type { Db } from '../db/database.ts';

/** The gateways table, apart from credentials (credentials.ts) and the ack watermark's write. */
export const createGatewaysRepository = (db: Db) => ({
  /**
   * Each gateway's highest committed seq. Ingest writes it in its flush transaction (it must
   * commit with the message's effects) and reads it here at start.
   */
  async loadGatewaySeqs(): Promise<Map<string, number>> {
    const rows = await db.selectFrom('gateways').select(['id', 'last_seq']).execute();
    return new Map(rows.map((r) => [r.id, r.last_seq]));
  },

  async loadGatewayIds(): Promise<string[]> {
    const rows = await db.selectFrom('gateways').select('id').execute();
    return rows.map((r) => r.id);
  },

  /** A record for people and tools; presence after a start never trusts it (see presence.ts). */
  setGatewayOnline: (gatewayId: string, online: boolean, at: Date) =>
    db
      .updateTable('gateways')
      .set({ online, state_changed_at: at })
      .where('id', '=', gatewayId)
      .execute(),
});

export type GatewaysRepository = ReturnType<typeof createGatewaysRepository>;

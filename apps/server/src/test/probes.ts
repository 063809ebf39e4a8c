import { telemetryApi } from '@linewatch/contracts/telemetry-api';
import { sql } from 'kysely';
import type { Db } from '../foundation/db/database.ts';
import type { IngestCounters } from '../telemetry/ingest.ts';

/** What the database holds for machines and gateways, read the way an auditor would. */
export const probes = (db: Db) => ({
  /** Parts produced over every stored day of a machine (rollup_day). */
  producedTotal: async (sn: string): Promise<number> => {
    const row = await db
      .selectFrom('rollup_day')
      .select(sql<number>`coalesce(sum(produced), 0)::int`.as('n'))
      .where('sn_code', '=', sn)
      .executeTakeFirstOrThrow();
    return row.n;
  },

  /** The same figure from the minute rollups, which are written in the same transaction. */
  producedByMinutes: async (sn: string): Promise<number> => {
    const row = await db
      .selectFrom('rollup_minute')
      .select(sql<number>`coalesce(sum(produced), 0)::int`.as('n'))
      .where('sn_code', '=', sn)
      .executeTakeFirstOrThrow();
    return row.n;
  },

  /** The last committed reading's counters, or undefined before the first. */
  live: (sn: string) =>
    db.selectFrom('device_live').selectAll().where('sn_code', '=', sn).executeTakeFirst(),

  lastSeq: async (gatewayId: string): Promise<number> =>
    (
      await db
        .selectFrom('gateways')
        .select('last_seq')
        .where('id', '=', gatewayId)
        .executeTakeFirstOrThrow()
    ).last_seq,
});

/** The intake counters of GET /healthz. */
export const ingestCounters = async (baseUrl: string): Promise<IngestCounters> => {
  const response = await fetch(`${baseUrl}${telemetryApi.health.path}`);
  const body = (await response.json()) as { data: { ingest: IngestCounters } };
  return body.data.ingest;
};

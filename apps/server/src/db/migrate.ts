import { sql } from 'kysely';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Db } from './database.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
// Any fixed number: servers sharing one PostgreSQL migrate one at a time.
const MIGRATION_LOCK = 7_315_001;

/** Applies db/migrations/NNN_name.sql in order, each in its own transaction, once. */
export const migrate = async (db: Db): Promise<void> => {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d{3}_.+\.sql$/.test(f)).sort();
  await db.connection().execute(async (conn) => {
    await sql`SELECT pg_advisory_lock(${MIGRATION_LOCK})`.execute(conn);
    try {
      await sql`CREATE TABLE IF NOT EXISTS schema_migrations (
        version text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`.execute(conn);
      const done = await sql<{ version: string }>`SELECT version FROM schema_migrations`.execute(
        conn,
      );
      const applied = new Set(done.rows.map((r) => r.version));
      for (const file of files) {
        if (applied.has(file)) continue;
        const text = await readFile(MIGRATIONS_DIR + file, 'utf8');
        await conn.transaction().execute(async (tx) => {
          // PGlite's extended protocol takes one statement at a time; migrations are plain DDL.
          for (const statement of text.split(/;\s*(?:\n|$)/)) {
            if (statement.replace(/--.*$/gm, '').trim()) await sql.raw(statement).execute(tx);
          }
          await sql`INSERT INTO schema_migrations (version) VALUES (${file})`.execute(tx);
        });
      }
    } finally {
      await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`.execute(conn);
    }
  });
};

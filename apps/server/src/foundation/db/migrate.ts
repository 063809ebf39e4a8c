import { sql, type Kysely } from 'kysely';
import { readdir, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Database } from './schema.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
// Any fixed number: servers sharing one PostgreSQL migrate one at a time.
const MIGRATION_LOCK = 7_315_001;

/**
 * A migration's statements: split where a `;` ends a line, except inside a dollar-quoted body
 * (a DO block), since PGlite's extended protocol takes one statement at a time.
 */
export const statementsOf = (text: string): string[] => {
  const statements: string[] = [];
  let current = '';
  let quoted = false;
  for (const part of text.split(/(\$\$|;[ \t]*(?:\r?\n|$))/)) {
    if (part === '$$') quoted = !quoted;
    if (quoted || !part.startsWith(';')) current += part;
    else {
      statements.push(current);
      current = '';
    }
  }
  statements.push(current);
  return statements.filter((s) => s.replace(/--.*$/gm, '').trim());
};

/**
 * Applies db/migrations/NNN_name.sql in order, each in its own transaction, once. A migration
 * that moves data across the factory's day or hour boundaries reads the time zone from
 * `current_setting('linewatch.time_zone')` (the session itself stays in UTC).
 */
export const migrate = async (
  db: Kysely<Database>,
  timeZone: string,
  /** Only the migrations whose file name sorts before this (a test of a migration's data). */
  before = '~',
): Promise<void> => {
  const files = (await readdir(MIGRATIONS_DIR))
    .filter((f) => /^\d{3}_.+\.sql$/.test(f) && f < before)
    .sort();
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
          await sql`SELECT set_config('linewatch.time_zone', ${timeZone}, true)`.execute(tx);
          for (const statement of statementsOf(text)) await sql.raw(statement).execute(tx);
          await sql`INSERT INTO schema_migrations (version) VALUES (${file})`.execute(tx);
        });
      }
    } finally {
      await sql`SELECT pg_advisory_unlock(${MIGRATION_LOCK})`.execute(conn);
    }
  });
};

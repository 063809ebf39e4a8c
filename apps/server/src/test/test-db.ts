import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../foundation/config/config.ts';
import { openDatabase, type Db } from '../foundation/db/database.ts';
import {
  checkDatabase,
  dropSchema,
  externalDatabaseUrl,
  migratedTemplate,
  TEST_SECRET,
  uniqueSchema,
} from './test-server.ts';

export interface TestDb {
  db: Db;
  close(): Promise<void>;
}

/**
 * A migrated database of its own for a service-level test, without the rest of the server: a
 * clone of the migrated PGlite template, or a fresh schema on DATABASE_URL when that is set.
 */
export const openTestDb = async (): Promise<TestDb> => {
  const dataDir = mkdtempSync(join(tmpdir(), 'lw-db-test-'));
  const schema = externalDatabaseUrl ? uniqueSchema() : undefined;
  if (externalDatabaseUrl) await checkDatabase(externalDatabaseUrl);
  const config = loadConfig({
    DATA_DIR: dataDir,
    SECRET: TEST_SECRET,
    ...(externalDatabaseUrl && schema
      ? { DATABASE_URL: externalDatabaseUrl, DATABASE_SCHEMA: schema }
      : {}),
  });
  const database = await openDatabase(
    config,
    externalDatabaseUrl ? {} : { template: await migratedTemplate() },
  );
  return {
    db: database.db,
    close: async () => {
      await database.close();
      if (externalDatabaseUrl && schema) await dropSchema(externalDatabaseUrl, schema);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};

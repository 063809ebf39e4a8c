import { externalDatabaseUrl, migratedTemplate } from './test-server.ts';

/** Makes the database template once, before the test files start (each would make it at once). */
export default async function setup() {
  if (!externalDatabaseUrl) await migratedTemplate();
}

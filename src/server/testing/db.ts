import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';

// A fresh, migrated database for one test file: in-memory PGlite by default, or a fresh
// schema on PostgreSQL when TEST_DATABASE_URL is set (dropped again on close).

export const testDatabaseKind = () => (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');

export const createTestDatabase = async (options: { migrate?: boolean } = {}): Promise<DatabaseHandle> => {
  const url = process.env.TEST_DATABASE_URL;
  let handle: DatabaseHandle;
  let schema: string | undefined;
  if (url) {
    schema = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const inner = await openDatabase({ kind: 'postgres', url, schema, max: 5 });
    handle = {
      ...inner,
      close: async () => {
        await inner.close();
        const cleanup = new pg.Client({ connectionString: url });
        await cleanup.connect();
        await cleanup.query(`drop schema if exists ${schema} cascade`);
        await cleanup.end();
      },
    };
  } else {
    handle = await openDatabase({ kind: 'pglite', dataDir: null });
  }
  if (options.migrate !== false) await migrateToLatest(handle.db, { schema });
  return handle;
};

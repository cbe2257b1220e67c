import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kysely, type KyselyPlugin } from 'kysely';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../db/client.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { SerializedPGliteDialect } from '../db/pglite-dialect.ts';

// A fresh, migrated database for one test file: in-memory PGlite by default, or a fresh
// schema on PostgreSQL when TEST_DATABASE_URL is set (dropped again on close).
//
// PGlite: creating a cluster (initdb inside WebAssembly) and migrating it cost 3–4 s per
// database on CI's 2 cores, paid by every test file. So the first database of a run is
// migrated once and its data directory dumped to a snapshot file, keyed by a hash of the
// migrations and the PGlite version; every later database loads that snapshot (under 1 s).
// A changed migration changes the key, so a stale snapshot is never used.
//
// PostgreSQL: test files share one database, a schema each. Kysely's migrator lists every
// schema and asks for its privileges, so a schema dropped by one file while another migrates
// fails the other ("schema … does not exist"). Migrating holds a shared advisory lock and
// dropping a schema an exclusive one, so they never overlap and files can run side by side.

export const testDatabaseKind = () => (process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite');

/** `db` with every query it sends counted in `count.queries` (tests that bound a route's queries). */
export const countingQueries = <DB>(db: Kysely<DB>) => {
  const count = { queries: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      count.queries += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  return { db: db.withPlugin(plugin), count };
};

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '../../..');
const MIGRATION_SOURCES = [path.join(ROOT, 'src/server/db/migrations'), path.join(ROOT, 'src/server/db')];
const SNAPSHOT_DIR = path.join(ROOT, 'node_modules/.cache/kontor-test-db');

/** A hash of every migration file, the migration helpers and PGlite's version. */
const snapshotKey = () => {
  const hash = createHash('sha256');
  for (const dir of MIGRATION_SOURCES) {
    for (const name of fs.readdirSync(dir).sort()) {
      if (!/\.ts$/.test(name) || name.includes('.test.')) continue;
      if (dir.endsWith('db') && !name.startsWith('migrat')) continue;
      hash.update(name);
      hash.update(fs.readFileSync(path.join(dir, name)));
    }
  }
  const pgliteManifest = path.join(ROOT, 'node_modules/@electric-sql/pglite/package.json');
  hash.update(fs.existsSync(pgliteManifest) ? fs.readFileSync(pgliteManifest) : 'no-pglite');
  return hash.digest('hex').slice(0, 16);
};

const writeSnapshot = async (file: string) => {
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create();
  const db = new Kysely<any>({ dialect: new SerializedPGliteDialect(pglite) });
  try {
    await migrateToLatest(db);
    const dump = await pglite.dumpDataDir('none');
    fs.mkdirSync(SNAPSHOT_DIR, { recursive: true });
    // Written under a unique name and renamed: two workers making it at once both succeed.
    const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.partial`;
    fs.writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(partial, file);
    for (const old of fs.readdirSync(SNAPSHOT_DIR)) {
      const oldPath = path.join(SNAPSHOT_DIR, old);
      if (oldPath !== file && old.endsWith('.tar')) fs.rmSync(oldPath, { force: true });
    }
  } finally {
    await db.destroy();
    if (!pglite.closed) await pglite.close();
  }
};

let snapshot: Promise<Blob> | undefined;

/** The migrated snapshot's bytes, made on first use in this run. */
const migratedSnapshot = () => {
  snapshot ??= (async () => {
    const file = path.join(SNAPSHOT_DIR, `migrated-${snapshotKey()}.tar`);
    if (!fs.existsSync(file)) await writeSnapshot(file);
    return new Blob([fs.readFileSync(file)]);
  })();
  return snapshot;
};

// Any 64-bit number no other code uses as an advisory lock key.
const SCHEMA_LOCK = 20_261_128_01;

const withAdminClient = async <T>(url: string, run: (client: pg.Client) => Promise<T>) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
};

/**
 * Runs a migration of a test database while no test schema can be dropped (PostgreSQL; on
 * PGlite it just runs). createTestDatabase uses it; a test that migrates by hand must too.
 */
export const withTestMigrationLock = async <T>(run: () => Promise<T>): Promise<T> => {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return run();
  return withAdminClient(url, async (lock) => {
    await lock.query('select pg_advisory_lock_shared($1)', [SCHEMA_LOCK]);
    return run();
  });
};

const createPostgresTestDatabase = async (url: string, migrate: boolean): Promise<DatabaseHandle> => {
  const schema = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await withAdminClient(url, (admin) => admin.query(`create schema ${schema}`));
  const inner = await openDatabase({ kind: 'postgres', url, schema, max: 5 });
  if (migrate) await withTestMigrationLock(() => migrateToLatest(inner.db, { schema }));
  return {
    ...inner,
    close: async () => {
      await inner.close();
      await withAdminClient(url, async (admin) => {
        await admin.query('select pg_advisory_lock($1)', [SCHEMA_LOCK]);
        await admin.query(`drop schema if exists ${schema} cascade`);
      });
    },
  };
};

export const createTestDatabase = async (options: { migrate?: boolean } = {}): Promise<DatabaseHandle> => {
  const migrate = options.migrate !== false;
  const url = process.env.TEST_DATABASE_URL;
  if (url) return createPostgresTestDatabase(url, migrate);
  if (!migrate) return openDatabase({ kind: 'pglite', dataDir: null });
  return openDatabase({ kind: 'pglite', dataDir: null, loadDataDir: await migratedSnapshot() });
};

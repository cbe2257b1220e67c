import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { rememberPostgresClient } from './copy.ts';
import { SerializedPGliteDialect } from './pglite-dialect.ts';
import { type ReplicaRouter, createReplicaRouter } from './replica.ts';
import type { Database } from './types.ts';

// One Kysely client over either the embedded PGlite (data in DATA_DIR) or PostgreSQL.
// Both speak the same SQL, so modules never ask which one they are on.

export type DatabaseKind = 'pglite' | 'postgres';

export type Db = Kysely<Database>;

export type DatabaseHandle = {
  db: Db;
  kind: DatabaseKind;
  /** Runs `select 1` and reports how long it took. */
  ping: () => Promise<{ ok: true; latencyMs: number } | { ok: false; latencyMs: number; error: string }>;
  close: () => Promise<void>;
  /** PostgreSQL's pool, for its counters (/metrics); absent on PGlite. */
  pool?: { totalCount: number; idleCount: number; waitingCount: number };
  /** The read replica (DATABASE_REPLICA_URL) and where each read goes; absent without one. */
  replica?: ReplicaRouter;
};

const SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * bigint (int8) columns hold money in minor units. The text is range-checked as a BigInt
 * first, so a value is never rounded: within ±(2^53 − 1) it becomes an exact number, beyond it
 * reading fails. The ledger's volume limit keeps every stored amount and every sum a query
 * makes far inside that range (decision 0013). numeric (OID 1700) is left as text on both
 * drivers, so `sum()` results can be read exactly with BigInt where needed.
 */
export const parseInt8 = (value: string): number => {
  const exact = BigInt(value);
  if (exact > SAFE || exact < -SAFE) throw new Error(`bigint ${value} is beyond the exact integer range`);
  return Number(exact);
};
pg.types.setTypeParser(20, parseInt8);
// `date` stays an ISO calendar-date string: no time zone ever touches an accounting date.
pg.types.setTypeParser(1082, (value) => value);

export type OpenDatabaseOptions =
  | {
      kind: 'postgres';
      url: string;
      schema?: string;
      max?: number;
      /** A streaming replica of this database for reads (src/server/db/replica.ts). */
      replica?: { url: string; maxLagMs: number; refreshMs?: number; retryMs?: number };
    }
  | {
      kind: 'pglite';
      dataDir: string | null;
      loadDataDir?: Blob;
      /** PostgreSQL's shared_buffers inside PGlite (e.g. '32MB'); PGlite's default is 128MB. */
      sharedBuffers?: string;
    };

const PGLITE_PARSERS = {
  20: parseInt8,
  1082: (value: string) => value,
};

export const openDatabase = async (options: OpenDatabaseOptions): Promise<DatabaseHandle> => {
  let db: Db;
  let closeExtra: () => Promise<void> = async () => {};
  let poolStats: DatabaseHandle['pool'];
  let replica: ReplicaRouter | undefined;
  if (options.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: options.url,
      max: options.max ?? 10,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    pool.on('connect', rememberPostgresClient); // COPY on a transaction's own client (db/copy.ts)
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    poolStats = pool;
    if (options.replica) replica = createReplicaRouter(db, { ...options.replica, max: options.max ?? 10 });
  } else {
    let dataPath: string | undefined;
    if (options.dataDir) {
      dataPath = path.join(options.dataDir, 'pgdata');
      fs.mkdirSync(dataPath, { recursive: true });
    }
    // Loaded only here: a server on PostgreSQL never maps PGlite's WebAssembly (about 40 MB of
    // resident memory, issue 12's memory goal).
    const { PGlite } = await import('@electric-sql/pglite');
    // loadDataDir: a data directory dumped earlier (tests start from a migrated snapshot).
    const pglite = await PGlite.create(dataPath, {
      parsers: PGLITE_PARSERS,
      ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
      ...(options.sharedBuffers
        ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffers}`] }
        : {}),
    });
    db = new Kysely<Database>({ dialect: new SerializedPGliteDialect(pglite) });
    closeExtra = async () => {
      if (!pglite.closed) await pglite.close();
    };
  }
  let closed = false;
  return {
    db,
    kind: options.kind,
    ...(poolStats ? { pool: poolStats } : {}),
    ...(replica ? { replica } : {}),
    ping: async () => {
      const start = performance.now();
      try {
        await sql`select 1`.execute(db);
        return { ok: true, latencyMs: Math.round((performance.now() - start) * 100) / 100 };
      } catch (error) {
        return {
          ok: false,
          latencyMs: Math.round((performance.now() - start) * 100) / 100,
          error: error instanceof Error ? error.message : String(error),
        };
      }
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await replica?.close();
      await db.destroy();
      await closeExtra();
    },
  };
};

/** The database the server's configuration names: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR. */
export const openConfiguredDatabase = (config: {
  databaseUrl: string | null;
  dataDir: string;
  replica?: { url: string; maxLagMs: number } | null;
}) =>
  config.databaseUrl
    ? openDatabase({
        kind: 'postgres',
        url: config.databaseUrl,
        ...(config.replica ? { replica: config.replica } : {}),
      })
    : // shared_buffers 32MB instead of PGlite's 128MB: the buffer pool lives in PGlite's WebAssembly
      // memory, and a smaller one keeps the embedded server about 140 MB smaller (issue 20 §6,
      // docs/performance.md). It is a cache only: what is committed is written as before.
      openDatabase({ kind: 'pglite', dataDir: config.dataDir, sharedBuffers: '32MB' });

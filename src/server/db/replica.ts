import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from './types.ts';

// The read replica (DATABASE_REPLICA_URL, docs/operations.md "Read replica", decision 0047):
// a PostgreSQL streaming standby that may serve report and list reads. This module decides,
// per read, whether the replica may answer it or the primary must:
// - the replica is down (its probe or a query on it failed): the primary, and the replica is
//   probed again after RETRY_MS;
// - the replica may be more than `maxLagMs` behind: the primary. The bound comes from LSNs,
//   not from pg_last_xact_replay_timestamp() (an idle primary makes no transactions, so that
//   timestamp ages while the replica is fully caught up): each probe reads the primary's
//   pg_current_wal_lsn() (at time t) and the replica's pg_last_wal_replay_lsn(); the replica
//   holds every commit made before the latest t whose LSN it has replayed, so it is at most
//   `now − t` behind. Samples older than needed are dropped.
// - the reader wrote recently: its last write's LSN (the kontor_lsn cookie) is past what the
//   replica has replayed: the primary (read-your-writes).
// Reads use the last probe and renew it in the background once it is REFRESH_MS old; a read
// that probe sends to the primary waits for a new one first. An old probe only ever makes the
// answer more conservative (an older replay LSN, a larger lag bound), never wrong.

export type Lsn = bigint;

/** `16/B374D848` → a number to compare; null when the text is not an LSN. */
export const parseLsn = (text: string | null | undefined): Lsn | null => {
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text ?? '');
  if (!match) return null;
  return (BigInt(`0x${match[1]}`) << 32n) | BigInt(`0x${match[2]}`);
};

/** The text PostgreSQL writes for an LSN. */
export const formatLsn = (lsn: Lsn): string =>
  `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;

export type ReadTarget = 'replica' | 'primary';

/** Why a read went where it went (also what the tests observe). */
export type ReadReason =
  | 'replica'
  | 'down'
  | 'not_standby'
  | 'lag'
  | 'own_write'
  /** No probe has answered yet. */
  | 'unknown';

export type ReadChoice = { target: ReadTarget; reason: ReadReason };

export type ReplicaStatus = {
  /** Whether the last probe of the replica answered. */
  up: boolean;
  /** The replica is in recovery (a standby), as a replica must be. */
  standby: boolean;
  /** What the replica has replayed, at the last probe. */
  replayLsn: string | null;
  /** An upper bound on how far behind the primary the replica is, in ms (null: unknown). */
  lagMs: number | null;
  /** When the replica was last probed (ms since the epoch), or null. */
  checkedAt: number | null;
  /** The last probe's or query's failure, while down. */
  error: string | null;
};

export type ReplicaOptions = {
  url: string;
  /** The most a replica may be behind and still answer (REPLICA_MAX_LAG_MS). */
  maxLagMs: number;
  /** The replica's pool size (default 10). */
  max?: number;
  /** How old a probe may be before a read renews it, in the background (default 50 ms). */
  refreshMs?: number;
  /** How long a replica that failed is left alone before it is probed again (default 2 s). */
  retryMs?: number;
  /** How long a probe or a connection attempt may take (default 1 s). */
  timeoutMs?: number;
};

type Log = { warn: (message: string) => void; info: (message: string) => void };

export type ReplicaRouter = {
  /** The replica's Kysely (its pool connects lazily). */
  db: Kysely<Database>;
  /** The most the replica may be behind and still answer. */
  maxLagMs: number;
  /** Where a read by someone whose last write was at `minLsn` (null: none known) should go. */
  choose: (minLsn: Lsn | null) => Promise<ReadChoice>;
  /** The primary's WAL position now, after a write committed (the read-your-writes mark). */
  primaryLsn: () => Promise<Lsn>;
  /** A query on the replica failed for want of the replica: reads go to the primary for a while. */
  markDown: (error: unknown) => void;
  /** Probes both servers now (tests, and the first read). */
  refresh: () => Promise<void>;
  status: () => ReplicaStatus;
  /** Where transitions (down, back up) are logged; the app sets its logger. */
  setLog: (log: Log) => void;
  close: () => Promise<void>;
};

const REFRESH_MS = 50;
const RETRY_MS = 2000;
/** How old a probe that sends a read to the primary may be before the read asks again. */
const OWN_WRITE_RECHECK_MS = 5;
const TIMEOUT_MS = 1000;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

const withTimeout = <T>(promise: Promise<T>, ms: number, what: string): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });

/**
 * Whether an error from a query on the replica means the replica itself is unavailable
 * (refused or lost connection, shut down, starting, timed out), rather than the query.
 */
export const isUnavailable = (error: unknown): boolean => {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string') {
    // Class 08 (connection exception), 57P01-57P03 (shutdown, cannot connect now), and
    // node's network errors (ECONNREFUSED, ECONNRESET, ETIMEDOUT, …).
    if (/^08/.test(code) || /^57P0[123]$/.test(code) || /^E[A-Z]+$/.test(code)) return true;
    return false;
  }
  return /connect|terminat|timeout|took longer|closed|ended/i.test(messageOf(error));
};

export const createReplicaRouter = (primary: Kysely<Database>, options: ReplicaOptions): ReplicaRouter => {
  const refreshMs = options.refreshMs ?? REFRESH_MS;
  const retryMs = options.retryMs ?? RETRY_MS;
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    connectionTimeoutMillis: timeoutMs,
    // application_name: the replica's pg_stat_activity names Kontor's readers.
    application_name: 'kontor-read',
  });
  // An idle connection the replica closes (restart, shutdown) must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });

  let log: Log | null = null;
  /** (time, primary LSN) pairs, oldest first: the primary was at `lsn` at `at`. */
  let samples: { at: number; lsn: Lsn }[] = [];
  let replay: Lsn | null = null;
  let standby = false;
  let up = false;
  let checkedAt: number | null = null;
  let downUntil = 0;
  let lastError: string | null = null;
  let inFlight: Promise<void> | null = null;
  let closed = false;

  const setDown = (error: unknown) => {
    const wasUp = up || checkedAt === null;
    up = false;
    lastError = messageOf(error);
    downUntil = Date.now() + retryMs;
    checkedAt = Date.now();
    if (wasUp) log?.warn(`read replica unavailable, reading from the primary: ${lastError}`);
  };

  /** The lag bound now: how long ago the primary was at an LSN the replica has replayed. */
  const lagMs = (now: number): number | null => {
    if (replay === null) return null;
    for (let i = samples.length - 1; i >= 0; i -= 1) {
      const sample = samples[i]!;
      if (sample.lsn <= replay) return Math.max(0, now - sample.at);
    }
    return null;
  };

  const probe = async () => {
    const at = Date.now();
    const primaryAnswer = withTimeout(
      sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(primary),
      timeoutMs,
      'the primary LSN probe',
    ).then(
      ({ rows }) => parseLsn(rows[0]?.lsn),
      () => null,
    );
    const replicaAnswer = withTimeout(
      sql<{ standby: boolean; replay: string | null }>`
        select pg_is_in_recovery() as standby, pg_last_wal_replay_lsn()::text as replay`.execute(db),
      timeoutMs,
      'the replica probe',
    );
    const [primaryLsn, replicaResult] = await Promise.all([
      primaryAnswer,
      replicaAnswer.then(
        ({ rows }) => ({ ok: true as const, row: rows[0] }),
        (error: unknown) => ({ ok: false as const, error }),
      ),
    ]);
    if (primaryLsn !== null) {
      samples.push({ at, lsn: primaryLsn });
      // Keep what can still prove a lag under the bound, and the newest older one.
      const horizon = Date.now() - options.maxLagMs - refreshMs;
      const firstKept = samples.findIndex((s) => s.at >= horizon);
      if (firstKept > 1) samples = samples.slice(firstKept - 1);
    }
    if (!replicaResult.ok) {
      setDown(replicaResult.error);
      return;
    }
    const row = replicaResult.row;
    const wasUp = up;
    up = true;
    lastError = null;
    checkedAt = Date.now();
    const isStandby = Boolean(row?.standby);
    if (!isStandby && standby !== isStandby) {
      log?.warn('DATABASE_REPLICA_URL is not a standby (not in recovery): reading from the primary');
    }
    standby = isStandby;
    replay = parseLsn(row?.replay);
    if (!wasUp && log) log.info('read replica available again');
  };

  const refresh = () => {
    if (closed) return Promise.resolve();
    inFlight ??= probe().finally(() => {
      inFlight = null;
    });
    return inFlight;
  };

  return {
    db,
    maxLagMs: options.maxLagMs,
    refresh,
    choose: async (minLsn) => {
      const now = Date.now();
      if (!up && checkedAt !== null) {
        // Down: probe again in the background once the retry time has passed.
        if (now >= downUntil) void refresh().catch(() => {});
        return { target: 'primary', reason: 'down' };
      }
      /** The answer the probe we have gives (an older probe only answers 'primary' more often). */
      const decide = (): ReadChoice => {
        if (checkedAt === null) return { target: 'primary', reason: 'unknown' };
        if (!up) return { target: 'primary', reason: 'down' };
        if (!standby) return { target: 'primary', reason: 'not_standby' };
        if (minLsn !== null && (replay === null || replay < minLsn))
          return { target: 'primary', reason: 'own_write' };
        const lag = lagMs(Date.now());
        if (lag === null || lag > options.maxLagMs) return { target: 'primary', reason: 'lag' };
        return { target: 'replica', reason: 'replica' };
      };
      const age = checkedAt === null ? Number.POSITIVE_INFINITY : now - checkedAt;
      const cached = decide();
      // The replica may answer on what we know: renew an old probe for later reads, unwaited.
      if (cached.target === 'replica') {
        if (age > refreshMs) void refresh().catch(() => {});
        return cached;
      }
      // The primary on what we know: a new probe may say otherwise (a writer's entry replayed
      // moments after the write, the first read after an idle spell), so it is waited for.
      if (age > OWN_WRITE_RECHECK_MS) {
        await refresh();
        return decide();
      }
      return cached;
    },
    primaryLsn: async () => {
      const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(primary);
      const lsn = parseLsn(rows[0]?.lsn);
      if (lsn === null) throw new Error(`unexpected WAL position ${rows[0]?.lsn}`);
      return lsn;
    },
    markDown: setDown,
    status: () => ({
      up,
      standby,
      replayLsn: replay === null ? null : formatLsn(replay),
      lagMs: up ? lagMs(Date.now()) : null,
      checkedAt,
      error: lastError,
    }),
    setLog: (next) => {
      log = next;
    },
    close: async () => {
      closed = true;
      await inFlight?.catch(() => {});
      await db.destroy();
    },
  };
};

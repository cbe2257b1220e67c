import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../db/client.ts';
import { createClock } from '../../testing/app.ts';
import { createTestDatabase } from '../../testing/db.ts';
import { backoffSeconds, createJobQueue } from './queue.ts';

// The job queue on a fresh database (PGlite, or a schema on PostgreSQL with TEST_DATABASE_URL):
// transactional send, retries with backoff, the dead state, singletons, schedules once per
// interval, and two queue instances (two "processes") that never run one job twice.

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.close();
});

const jobRow = async (id: string) =>
  (
    await sql<{
      state: string;
      retry_count: number;
      start_after: Date;
      last_error: string | null;
    }>`select state, retry_count, start_after, last_error from jobs where id = ${id}`.execute(database.db)
  ).rows[0];

describe('job queue', () => {
  it('queues a job only when the sender’s transaction commits', async () => {
    const clock = createClock(new Date('2026-11-28T10:00:00Z'));
    const queue = createJobQueue({ db: database.db, now: clock.now });
    const seen: unknown[] = [];
    queue.work<{ n: number }>('tx.test', async (job) => {
      seen.push(job.data.n);
    });
    await expect(
      database.db.transaction().execute(async (trx) => {
        await queue.send('tx.test', { n: 1 }, { db: trx });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    let committed: string | null = null;
    await database.db.transaction().execute(async (trx) => {
      committed = await queue.send('tx.test', { n: 2 }, { db: trx });
    });
    expect(await queue.runDue()).toBe(1);
    expect(seen).toEqual([2]);
    expect((await jobRow(committed!))?.state).toBe('completed');
  });

  it('retries with exponential backoff and is dead after the retry limit', async () => {
    const clock = createClock(new Date('2026-11-28T10:00:00Z'));
    const queue = createJobQueue({ db: database.db, now: clock.now });
    let attempts = 0;
    queue.work('flaky.test', async () => {
      attempts += 1;
      throw new Error(`refused ${attempts}`);
    });
    const id = (await queue.send('flaky.test', {}, { retryLimit: 2, retryDelaySeconds: 10 }))!;
    expect(await queue.runDue()).toBe(1);
    let row = await jobRow(id);
    expect(row?.state).toBe('retry');
    expect(row?.last_error).toBe('refused 1');
    expect(new Date(row!.start_after).getTime() - clock.now().getTime()).toBe(10_000);
    // Not before its time.
    clock.advance(9_000);
    expect(await queue.runDue()).toBe(0);
    clock.advance(1_000);
    expect(await queue.runDue()).toBe(1);
    row = await jobRow(id);
    expect(row?.state).toBe('retry');
    expect(new Date(row!.start_after).getTime() - clock.now().getTime()).toBe(20_000);
    clock.advance(20_000);
    expect(await queue.runDue()).toBe(1);
    row = await jobRow(id);
    expect(row?.state).toBe('dead');
    expect(row?.retry_count).toBe(3);
    expect(row?.last_error).toBe('refused 3');
    clock.advance(3_600_000);
    expect(await queue.runDue()).toBe(0);
    expect(attempts).toBe(3);
    expect(backoffSeconds(10, 1)).toBe(10);
    expect(backoffSeconds(10, 4)).toBe(80);
    expect(backoffSeconds(10, 40)).toBe(6 * 3600);
  });

  it('keeps one waiting job per singleton key', async () => {
    const clock = createClock(new Date('2026-11-28T10:00:00Z'));
    const queue = createJobQueue({ db: database.db, now: clock.now });
    const first = await queue.send('single.test', {}, { singletonKey: 'k' });
    const second = await queue.send('single.test', {}, { singletonKey: 'k' });
    expect(first).not.toBeNull();
    expect(second).toBeNull();
    queue.work('single.test', async () => {});
    expect(await queue.runDue()).toBe(1);
    expect(await queue.send('single.test', {}, { singletonKey: 'k' })).not.toBeNull();
  });

  it('gives an attempt that never finished to another worker after it expires', async () => {
    const clock = createClock(new Date('2026-11-28T10:00:00Z'));
    const id = (await createJobQueue({ db: database.db, now: clock.now }).send('stale.test', {}))!;
    // A process claimed it and died: active with a lock in the past.
    await sql`update jobs set state = 'active', started_at = ${clock.now()},
      locked_until = ${new Date(clock.now().getTime() + 60_000)} where id = ${id}`.execute(database.db);
    const queue = createJobQueue({ db: database.db, now: clock.now });
    let ran = 0;
    queue.work('stale.test', async () => {
      ran += 1;
    });
    expect(await queue.runDue()).toBe(0);
    clock.advance(61_000);
    expect(await queue.runDue()).toBe(1);
    expect(ran).toBe(1);
    const row = await jobRow(id);
    expect(row?.state).toBe('completed');
    expect(row?.retry_count).toBe(1);
  });

  it('runs a schedule once per interval across two processes, one run at a time', async () => {
    const clock = createClock(new Date('2026-11-28T10:00:00Z'));
    let runs = 0;
    const make = () => {
      const q = createJobQueue({ db: database.db, now: clock.now });
      q.schedule('tick.test', 60);
      q.work('tick.test', async () => {
        runs += 1;
      });
      return q;
    };
    const a = make();
    const b = make();
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toBe(1);
    clock.advance(30_000);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toBe(1);
    clock.advance(30_000);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(runs).toBe(2);
  });
});

describe('two queue instances on one database', () => {
  let second: DatabaseHandle | undefined;
  afterAll(async () => {
    await second?.close();
  });

  it('run each of 200 jobs exactly once', async () => {
    // On PostgreSQL the second instance has its own connection pool, like a second process.
    let otherDb = database.db;
    if (database.kind === 'postgres' && process.env.TEST_DATABASE_URL) {
      const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(database.db)).rows[0]!.s;
      second = await openDatabase({ kind: 'postgres', url: process.env.TEST_DATABASE_URL, schema, max: 5 });
      otherDb = second.db;
    }
    const clock = createClock(new Date('2026-11-28T12:00:00Z'));
    const ranBy = new Map<number, string[]>();
    const make = (label: string, db: typeof database.db) => {
      const q = createJobQueue({ db, now: clock.now, concurrency: 4 });
      q.work<{ n: number }>('pair.test', async (job) => {
        await new Promise((r) => setTimeout(r, Math.random() * 3));
        ranBy.set(job.data.n, [...(ranBy.get(job.data.n) ?? []), label]);
      });
      return q;
    };
    const a = make('a', database.db);
    const b = make('b', otherDb);
    for (let n = 0; n < 200; n += 1) await a.send('pair.test', { n });
    const [ranA, ranB] = await Promise.all([a.runDue(), b.runDue()]);
    expect(ranA + ranB).toBe(200);
    expect(ranBy.size).toBe(200);
    for (const [, labels] of ranBy) expect(labels).toHaveLength(1);
    if (database.kind === 'postgres') {
      // Both took part (each claims a few at a time with skip locked).
      expect(ranA).toBeGreaterThan(0);
      expect(ranB).toBeGreaterThan(0);
    }
    const left = await sql<{ n: number }>`
      select count(*)::int as n from jobs where queue = 'pair.test' and state <> 'completed'`.execute(
      database.db,
    );
    expect(left.rows[0]?.n).toBe(0);
  });
});

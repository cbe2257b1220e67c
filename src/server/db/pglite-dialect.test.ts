import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from './client.ts';

// PGlite is one connection: concurrent requests must not run inside each other's transactions.
describe('PGlite transactions under concurrency', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase({ kind: 'pglite', dataDir: null });
    await sql`create table t (n int not null)`.execute(database.db);
  });
  afterAll(async () => {
    await database.close();
  });

  it('keeps a rolled-back transaction from taking a concurrent one with it', async () => {
    const db = database.db as unknown as import('kysely').Kysely<{ t: { n: number } }>;
    const failing = db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ n: 1 }).execute();
      await new Promise((r) => setTimeout(r, 20));
      throw new Error('roll back');
    });
    const succeeding = db.transaction().execute(async (trx) => {
      await trx.insertInto('t').values({ n: 2 }).execute();
    });
    const outside = db.insertInto('t').values({ n: 3 }).execute();
    const results = await Promise.allSettled([failing, succeeding, outside]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    const rows = await db.selectFrom('t').select('n').orderBy('n').execute();
    expect(rows.map((r) => r.n)).toEqual([2, 3]);
  });

  it('serialises many concurrent transactions without losing an update', async () => {
    const db = database.db as unknown as import('kysely').Kysely<{ t: { n: number } }>;
    await db.deleteFrom('t').execute();
    await db.insertInto('t').values({ n: 0 }).execute();
    await Promise.all(
      Array.from({ length: 25 }, () =>
        db.transaction().execute(async (trx) => {
          const row = await trx.selectFrom('t').select('n').executeTakeFirstOrThrow();
          await new Promise((r) => setTimeout(r, 1));
          await trx
            .updateTable('t')
            .set({ n: row.n + 1 })
            .execute();
        }),
      ),
    );
    expect((await db.selectFrom('t').select('n').executeTakeFirstOrThrow()).n).toBe(25);
  });
});

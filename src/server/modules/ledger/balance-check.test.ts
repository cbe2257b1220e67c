import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { setUpTestDatabase } from '../../testing/per-file-app.ts';
import type { Executor } from './queries.ts';
import { createTestCompanyInDatabase } from '../../testing/companies.ts';

// The database's own balance guard (migration 20261124_1000): checked once per transaction at
// commit, over every entry posted in it. These write SQL by hand, as a buggy module or an
// operator could, and expect the database to refuse.

const handle = setUpTestDatabase();

type Org = Awaited<ReturnType<typeof createTestCompanyInDatabase>>;

const entry = (trx: Executor, org: Org, id: string, number: number, status = 'posted') =>
  sql`insert into journal_entries (organization_id, id, number, date, source, status)
      values (${org.id}, ${id}, ${status === 'posted' ? number : null}, '2026-10-01', 'manual', ${status})`.execute(
    trx,
  );

const line = (
  trx: Executor,
  org: Org,
  id: string,
  lineNo: number,
  number: number,
  debit: number,
  credit: number,
) =>
  sql`insert into journal_lines (organization_id, entry_id, line_no, account_id, date, entry_number, debit, credit)
      values (${org.id}, ${id}, ${lineNo}, ${debit > 0 ? org.accounts.bank! : org.accounts.sales!}, '2026-10-01',
              ${number}, ${debit}, ${credit})`.execute(trx);

const count = async (table: 'journal_entries' | 'journal_lines' | 'ledger_balance_checks', org?: Org) => {
  const where = org ? sql`where organization_id = ${org.id}` : sql``;
  const r = await sql<{ n: string }>`select count(*) as n from ${sql.table(table)} ${where}`.execute(
    handle.db,
  );
  return Number(r.rows[0]!.n);
};

describe('balanced entries, checked once per transaction at commit', () => {
  it('refuses a posted entry without lines, or with one line', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    await expect(handle.db.transaction().execute((trx) => entry(trx, org, 'none', 1))).rejects.toThrow(
      /needs at least two lines/,
    );
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await entry(trx, org, 'one', 1);
        await line(trx, org, 'one', 1, 1, 100, 0);
      }),
    ).rejects.toThrow(/needs at least two lines/);
    expect(await count('journal_entries', org)).toBe(0);
  });

  it('accepts lines written in several statements when the entry balances in the end, and names the one that does not', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    await handle.db.transaction().execute(async (trx) => {
      await entry(trx, org, 'split', 1);
      await line(trx, org, 'split', 1, 1, 100, 0);
      await line(trx, org, 'split', 2, 1, 0, 60);
      await line(trx, org, 'split', 3, 1, 0, 40);
    });
    expect(await count('journal_lines', org)).toBe(3);
    await expect(
      handle.db.transaction().execute(async (trx) => {
        for (let n = 2; n <= 40; n += 1) {
          await entry(trx, org, `ok-${n}`, n);
          await line(trx, org, `ok-${n}`, 1, n, 100, 0);
          await line(trx, org, `ok-${n}`, 2, n, 0, n === 37 ? 99 : 100);
        }
      }),
    ).rejects.toThrow(/ok-37 is unbalanced by 1 minor units/);
    expect(await count('journal_entries', org)).toBe(1);
    expect(await count('ledger_balance_checks')).toBe(0);
  });

  it('refuses a posted entry inserted with another transaction’s stamp', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    await expect(
      sql`insert into journal_entries (organization_id, id, number, date, source, status, posted_txid)
          values (${org.id}, 'forged', 1, '2026-10-01', 'manual', 'posted', 1)`.execute(handle.db),
    ).rejects.toThrow(/must be stamped/);
    expect(await count('journal_entries', org)).toBe(0);
  });

  it('checks a draft posted by an update', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    await handle.db.transaction().execute((trx) => entry(trx, org, 'draft', 0, 'draft'));
    await expect(
      sql`update journal_entries set status = 'posted', number = 1 where organization_id = ${org.id} and id = 'draft'`.execute(
        handle.db,
      ),
    ).rejects.toThrow(/needs at least two lines/);
    const row = await sql<{
      status: string;
    }>`select status from journal_entries where organization_id = ${org.id} and id = 'draft'`.execute(
      handle.db,
    );
    expect(row.rows[0]?.status).toBe('draft');
  });

  it('cannot be dodged by deleting the marker row or by a rolled-back savepoint', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await entry(trx, org, 'sneaky', 1);
        await line(trx, org, 'sneaky', 1, 1, 100, 0);
        await line(trx, org, 'sneaky', 2, 1, 0, 1);
        await sql`delete from ledger_balance_checks`.execute(trx);
      }),
    ).rejects.toThrow(/sneaky is unbalanced/);
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await sql`savepoint a`.execute(trx);
        await entry(trx, org, 'kept', 1);
        await sql`release savepoint a`.execute(trx);
        await sql`savepoint b`.execute(trx);
        await entry(trx, org, 'gone', 2);
        await sql`rollback to savepoint b`.execute(trx);
      }),
    ).rejects.toThrow(/kept needs at least two lines/);
    expect(await count('journal_entries', org)).toBe(0);
    expect(await count('ledger_balance_checks')).toBe(0);
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerConfig } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { createTestDatabase } from '../../testing/db.ts';
import { postJournalEntry } from '../ledger/posting.ts';
import { createTestCompanyInDatabase } from '../../testing/companies.ts';
import { createMoneyAccount } from '../wallet/service.ts';

// Import speed dropped three row-level foreign keys on the import's hot path (migrations
// 20261125_0100 and _0101, decision 0020); their rules are checked once per statement instead.
// These write SQL by hand, as a buggy module or an operator could, and expect the database to
// refuse exactly what the foreign keys refused.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

type Org = Awaited<ReturnType<typeof createTestCompanyInDatabase>>;

const post = (org: Org) =>
  postJournalEntry(handle.db, {
    organizationId: org.id,
    actorUserId: 'u1',
    date: '2026-05-01',
    source: 'manual',
    lines: [
      { accountId: org.accounts.bank!, debit: 100 },
      { accountId: org.accounts.sales!, credit: 100 },
    ],
  });

const moneyAccount = async (org: Org) => {
  const ctx: AppContext = {
    config: loadServerConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent' }),
    database: handle,
    now: () => new Date(),
  };
  const account = await createMoneyAccount(
    ctx,
    { organizationId: org.id, userId: 'u1', role: 'owner' },
    {
      name: 'Checking',
      kind: 'bank',
      currency: 'USD',
      institution: '',
      openingBalance: 0,
      openingDate: '2026-01-01',
    },
  );
  return account.id;
};

const bankRow = (org: Org, money: string, id: string, entryId: string) =>
  sql`insert into bank_transactions (organization_id, id, money_account_id, date, description, amount, status,
                                     category_kind, entry_id, dedupe_key, description_key)
      values (${org.id}, ${id}, ${money}, '2026-05-01', 'Line', 100, 'uncategorized', 'none', ${entryId},
              ${`k-${id}`}, 'line')`.execute(handle.db);

describe('database references checked per statement', () => {
  it('a journal line on an unknown account or another company’s account is refused', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const other = await createTestCompanyInDatabase(handle.db);
    for (const account of ['no-such-account', other.accounts.bank!]) {
      await expect(
        handle.db.transaction().execute(async (trx) => {
          await sql`insert into journal_entries (organization_id, id, number, date, source, status)
                    values (${org.id}, 'x-acc', 900, '2026-10-01', 'manual', 'posted')`.execute(trx);
          await sql`insert into journal_lines (organization_id, entry_id, line_no, account_id, date, entry_number, debit, credit)
                    values (${org.id}, 'x-acc', 1, ${account}, '2026-10-01', 900, 100, 0),
                           (${org.id}, 'x-acc', 2, ${org.accounts.sales!}, '2026-10-01', 900, 0, 100)`.execute(
            trx,
          );
        }),
      ).rejects.toThrow(/foreign key/);
    }
  });

  it('a journal line naming no entry, or another company’s entry, is refused', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const other = await createTestCompanyInDatabase(handle.db);
    const theirs = await post(other);
    for (const entryId of ['no-such-entry', theirs.id]) {
      await expect(
        sql`insert into journal_lines (organization_id, entry_id, line_no, account_id, date, entry_number, debit, credit)
            values (${org.id}, ${entryId}, 1, ${org.accounts.bank!}, '2026-05-01', 1, 100, 0),
                   (${org.id}, ${entryId}, 2, ${org.accounts.sales!}, '2026-05-01', 1, 0, 100)`.execute(
          handle.db,
        ),
      ).rejects.toThrow(/posted in this transaction/);
    }
  });

  it('an account with lines cannot be deleted, and its kept balances cannot be deleted first', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    await post(org);
    await expect(
      sql`delete from accounts where organization_id = ${org.id} and id = ${org.accounts.sales!}`.execute(
        handle.db,
      ),
    ).rejects.toThrow(/foreign key/);
    await expect(
      sql`delete from account_period_balances where organization_id = ${org.id}`.execute(handle.db),
    ).rejects.toThrow(/cannot be deleted/);
    await expect(sql`truncate account_period_balances`.execute(handle.db)).rejects.toThrow(
      /cannot be deleted/,
    );
  });

  it('a bank line must name a posted entry of its own company, on insert and on update', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const other = await createTestCompanyInDatabase(handle.db);
    const money = await moneyAccount(org);
    const mine = await post(org);
    const theirs = await post(other);
    await sql`insert into journal_entries (organization_id, id, date, source, status)
              values (${org.id}, 'draft-1', '2026-05-01', 'manual', 'draft')`.execute(handle.db);
    for (const entryId of ['no-such-entry', theirs.id, 'draft-1']) {
      await expect(bankRow(org, money, `bt-${entryId}`, entryId)).rejects.toMatchObject({ code: '23503' });
    }
    await bankRow(org, money, 'bt-ok', mine.id);
    await expect(
      sql`update bank_transactions set entry_id = ${theirs.id} where organization_id = ${org.id} and id = 'bt-ok'`.execute(
        handle.db,
      ),
    ).rejects.toMatchObject({ code: '23503' });
    // The draft could otherwise be deleted from under the line; a posted entry never can.
    await expect(
      sql`delete from journal_entries where organization_id = ${org.id} and id = ${mine.id}`.execute(
        handle.db,
      ),
    ).rejects.toThrow(/cannot be deleted/);
    const row = await handle.db
      .selectFrom('bank_transactions')
      .select('entry_id')
      .where('organization_id', '=', org.id)
      .where('id', '=', 'bt-ok')
      .executeTakeFirstOrThrow();
    expect(row.entry_id).toBe(mine.id);
  });
});

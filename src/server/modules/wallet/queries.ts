import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.ts';

// SQL of the wallet. Every query filters by organization_id first.

export const selectBaseCurrency = async (db: Executor, organizationId: string) => {
  const row = await db
    .selectFrom('organizations')
    .select('base_currency')
    .where('id', '=', organizationId)
    .executeTakeFirst();
  return row?.base_currency.trim() ?? null;
};

const moneyAccountColumns = [
  'm.organization_id',
  'm.id',
  'm.ledger_account_id',
  'm.name',
  'm.kind',
  'm.currency',
  'm.institution',
  'm.account_number_last4',
  'm.opening_balance',
  'm.opening_date',
  'm.opening_entry_id',
  'm.balance',
  'm.csv_mapping',
  'm.archived_at',
  'm.created_at',
  'a.code as ledger_account_code',
] as const;

export const selectMoneyAccounts = (db: Executor, organizationId: string) =>
  db
    .selectFrom('money_accounts as m')
    .innerJoin('accounts as a', (j) =>
      j.onRef('a.organization_id', '=', 'm.organization_id').onRef('a.id', '=', 'm.ledger_account_id'),
    )
    .select(moneyAccountColumns)
    .select([
      sql<number>`(select count(*) from bank_transactions t where t.organization_id = m.organization_id and t.money_account_id = m.id and t.status = 'uncategorized')::int`.as(
        'uncategorized_count',
      ),
      sql<
        string | null
      >`(select max(r.statement_date)::text from reconciliations r where r.organization_id = m.organization_id and r.money_account_id = m.id and r.status = 'completed')`.as(
        'last_reconciled_date',
      ),
    ])
    .where('m.organization_id', '=', organizationId)
    .orderBy('m.archived_at', (ob) => ob.nullsFirst())
    .orderBy('m.created_at')
    .execute();

export type MoneyAccountRow = Awaited<ReturnType<typeof selectMoneyAccounts>>[number];

export const selectMoneyAccount = (
  db: Executor,
  organizationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
) => {
  let q = db
    .selectFrom('money_accounts as m')
    .innerJoin('accounts as a', (j) =>
      j.onRef('a.organization_id', '=', 'm.organization_id').onRef('a.id', '=', 'm.ledger_account_id'),
    )
    .select(moneyAccountColumns)
    .where('m.organization_id', '=', organizationId)
    .where('m.id', '=', id);
  if (options.forUpdate) q = q.forUpdate(['m']);
  return q.executeTakeFirst();
};

export const selectMoneyAccountByLedgerAccount = (
  db: Executor,
  organizationId: string,
  ledgerAccountIds: string[],
) =>
  ledgerAccountIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('money_accounts')
        .select(['id', 'ledger_account_id'])
        .where('organization_id', '=', organizationId)
        .where('ledger_account_id', 'in', ledgerAccountIds)
        .execute();

export const addToBalance = (db: Executor, organizationId: string, id: string, delta: number) =>
  delta === 0
    ? Promise.resolve()
    : db
        .updateTable('money_accounts')
        .set({ balance: sql`balance + ${delta}`, updated_at: new Date() })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .execute()
        .then(() => undefined);

export const selectAccountCodes = async (db: Executor, organizationId: string) =>
  (
    await db.selectFrom('accounts').select('code').where('organization_id', '=', organizationId).execute()
  ).map((r) => r.code);

/** The latest rate of each currency on or before a date. */
export const selectLatestRates = async (db: Executor, organizationId: string, asOf: string | null) => {
  const result = await sql<{ currency: string; date: string; rate: string }>`
    select distinct on (currency) currency, date::text as date, rate::text as rate
      from exchange_rates
     where organization_id = ${organizationId} ${asOf ? sql`and date <= ${asOf}` : sql``}
     order by currency, date desc`.execute(db);
  return result.rows.map((r) => ({ ...r, currency: r.currency.trim() }));
};

export const selectRatesOf = (db: Executor, organizationId: string, currency: string) =>
  db
    .selectFrom('exchange_rates')
    .select(['date', sql<string>`rate::text`.as('rate')])
    .where('organization_id', '=', organizationId)
    .where('currency', '=', currency)
    .orderBy('date')
    .execute();

export const selectRateOn = (db: Executor, organizationId: string, currency: string, date: string) =>
  db
    .selectFrom('exchange_rates')
    .select(['date', sql<string>`rate::text`.as('rate')])
    .where('organization_id', '=', organizationId)
    .where('currency', '=', currency)
    .where('date', '<=', date)
    .orderBy('date', 'desc')
    .limit(1)
    .executeTakeFirst();

export const upsertRate = (
  db: Executor,
  row: { organizationId: string; currency: string; date: string; rate: string; createdBy: string },
) =>
  db
    .insertInto('exchange_rates')
    .values({
      organization_id: row.organizationId,
      currency: row.currency,
      date: row.date,
      rate: row.rate,
      created_by: row.createdBy,
    })
    .onConflict((oc) =>
      oc
        .columns(['organization_id', 'currency', 'date'])
        .doUpdateSet({ rate: row.rate, created_by: row.createdBy }),
    )
    .execute();

export const listRates = (db: Executor, organizationId: string, limit: number) =>
  db
    .selectFrom('exchange_rates')
    .select(['currency', sql<string>`date::text`.as('date'), sql<string>`rate::text`.as('rate')])
    .where('organization_id', '=', organizationId)
    .orderBy('date', 'desc')
    .orderBy('currency')
    .limit(limit)
    .execute();

/** Net movement per account and month, for the balance-over-time chart. */
export const selectMonthlyMovements = async (db: Executor, organizationId: string, from: string) => {
  const result = await sql<{ money_account_id: string; month: string; total: number; before: boolean }>`
    select money_account_id, to_char(date_trunc('month', date), 'YYYY-MM-DD') as month, sum(amount)::bigint as total, false as before
      from bank_transactions
     where organization_id = ${organizationId} and date >= ${from}
     group by money_account_id, date_trunc('month', date)
    union all
    select money_account_id, ${from} as month, sum(amount)::bigint as total, true as before
      from bank_transactions
     where organization_id = ${organizationId} and date < ${from}
     group by money_account_id`.execute(db);
  return result.rows;
};

export const selectTransfer = (db: Executor, organizationId: string, id: string) =>
  db
    .selectFrom('transfers')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();

import { type Updateable, sql } from 'kysely';
import type { Executor } from '../../db/transaction.ts';
import type { MoneyAccountsTable } from '../../db/types.ts';

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
  // One name: the ledger account's (renaming either renames both).
  'a.name',
  'm.kind',
  'm.currency',
  'm.institution',
  'm.account_number_last4',
  'm.opening_balance',
  'm.opening_date',
  'm.opening_entry_id',
  'm.is_default_deposit',
  'm.csv_mapping',
  'm.archived_at',
  'm.created_at',
  'a.code as ledger_account_code',
  'a.type as ledger_account_type',
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
    // The deposit account first: forms that start on the first account start on it.
    .orderBy('m.is_default_deposit', 'desc')
    .orderBy('m.created_at')
    .orderBy('a.code')
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

/**
 * Gives every money-holding account of the chart (bank, cash and cash-equivalent assets,
 * credit-card liabilities; MONEY_SUBTYPES) that has none its money account, opening on
 * `openingDate` with nothing of its own to open with, and makes the chart's bank account the
 * deposit account when the company has none. Used when a company is created (the standard
 * chart's 1000, 1010, 1050 and 2100); migration 20261125_0200 did the same for existing ones.
 */
export const adoptChartMoneyAccounts = async (
  db: Executor,
  organizationId: string,
  openingDate: string,
  createdBy: string | null,
) => {
  await sql`
    insert into money_accounts (organization_id, id, ledger_account_id, name, kind, currency,
                                institution, opening_balance, opening_date, archived_at, created_by)
    select a.organization_id, gen_random_uuid()::text, a.id, a.name,
           case when a.type = 'liability' and a.subtype = 'loan' then 'loan'
                when a.type = 'liability' then 'credit_card'
                when a.subtype = 'bank' then 'bank'
                when a.subtype = 'cash' then 'cash'
                else 'payment_processor' end,
           a.currency, '', 0, ${openingDate}, a.archived_at, ${createdBy}
      from accounts a
     where a.organization_id = ${organizationId}
       and ((a.type = 'asset' and a.subtype in ('bank', 'cash', 'cash_equivalent'))
            or (a.type = 'liability' and a.subtype in ('credit_card', 'loan')))
       and not exists (select 1 from money_accounts m
                        where m.organization_id = a.organization_id and m.ledger_account_id = a.id)
     order by a.code`.execute(db);
  await sql`
    update money_accounts m set is_default_deposit = true
     where m.organization_id = ${organizationId}
       and not exists (select 1 from money_accounts d where d.organization_id = m.organization_id and d.is_default_deposit)
       and m.id = (select m2.id from money_accounts m2
                     join accounts a on a.organization_id = m2.organization_id and a.id = m2.ledger_account_id
                    where m2.organization_id = ${organizationId} and m2.archived_at is null and m2.kind = 'bank'
                    order by (a.system_key = 'bank') desc nulls last, m2.created_at, m2.id
                    limit 1)`.execute(db);
};

/** The company's deposit account (where money comes in unless another is picked), if set. */
export const selectDefaultDepositAccount = (db: Executor, organizationId: string) =>
  db
    .selectFrom('money_accounts')
    .select(['id', 'ledger_account_id', 'name', 'currency', 'archived_at'])
    .where('organization_id', '=', organizationId)
    .where('is_default_deposit', '=', true)
    .executeTakeFirst();

/** Changes columns of one money account. */
export const updateMoneyAccountRow = (
  db: Executor,
  organizationId: string,
  id: string,
  values: Updateable<MoneyAccountsTable>,
) =>
  db
    .updateTable('money_accounts')
    .set(values)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute();

/** Makes one money account the deposit account (the unique index allows one per company). */
export const setDefaultDepositAccount = async (db: Executor, organizationId: string, id: string) => {
  await db
    .updateTable('money_accounts')
    .set({ is_default_deposit: false })
    .where('organization_id', '=', organizationId)
    .where('is_default_deposit', '=', true)
    .where('id', '<>', id)
    .execute();
  await updateMoneyAccountRow(db, organizationId, id, { is_default_deposit: true, updated_at: new Date() });
};

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

/**
 * Net movement per ledger account and month from the posted lines, in each account's own
 * currency (the foreign amount for a foreign-currency account) and in the base currency, for
 * the balance-over-time chart: rows before `from` are summed into one row flagged `before`.
 */
export const selectMonthlyLedgerMovements = async (
  db: Executor,
  organizationId: string,
  ledgerAccountIds: string[],
  from: string,
  to: string,
) => {
  if (ledgerAccountIds.length === 0) return [];
  const result = await sql<{
    account_id: string;
    month: string;
    total: string;
    base_total: string;
    before: boolean;
  }>`
    select account_id, month, before,
           sum(case when currency is null then debit - credit
                    when debit > 0 then amount else -amount end)::bigint as total,
           sum(debit - credit)::bigint as base_total
      from (select account_id, currency, debit, credit, amount, date < ${from} as before,
                   case when date < ${from} then ${from}::text
                        else to_char(date_trunc('month', date), 'YYYY-MM-DD') end as month
              from journal_lines
             where organization_id = ${organizationId} and account_id in (${sql.join(ledgerAccountIds)})
               and date <= ${to}) l
     group by account_id, month, before`.execute(db);
  return result.rows.map((r) => ({ ...r, total: Number(r.total), baseTotal: Number(r.base_total) }));
};

/** Whether a money account has anything of its own: bank lines, transfers, reconciliations or imports. */
export const moneyAccountHasActivity = async (db: Executor, organizationId: string, id: string) => {
  const result = await sql<{ used: boolean }>`
    select exists (select 1 from bank_transactions where organization_id = ${organizationId} and money_account_id = ${id})
        or exists (select 1 from transfers where organization_id = ${organizationId}
                      and (from_money_account_id = ${id} or to_money_account_id = ${id}))
        or exists (select 1 from reconciliations where organization_id = ${organizationId} and money_account_id = ${id})
        or exists (select 1 from statement_imports where organization_id = ${organizationId} and money_account_id = ${id})
        as used`.execute(db);
  return Boolean(result.rows[0]?.used);
};

export const selectTransfer = (db: Executor, organizationId: string, id: string) =>
  db
    .selectFrom('transfers')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();

/** The account's reconciliation in progress, if one is. */
export const selectOpenReconciliation = (db: Executor, organizationId: string, moneyAccountId: string) =>
  db
    .selectFrom('reconciliations')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('money_account_id', '=', moneyAccountId)
    .where('status', '=', 'in_progress')
    .executeTakeFirst();

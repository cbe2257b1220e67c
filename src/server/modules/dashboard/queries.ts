import { sql } from 'kysely';
import { addDays, monthEnd, monthStart } from '../../../shared/dates.ts';
import type { Executor } from '../../db/transaction.ts';
import { type DayRange, keptSpan } from '../ledger/kept-span.ts';

// The dashboard's own reads (it never writes). Sums come from the ledger's kept monthly
// balances wherever a whole month is asked, and from the lines only for the edge days, as the
// reports do (ledger/queries.ts selectBalances), so 24 months cost 24 kept rows per account,
// whatever the number of entries. Every query filters by the company.

export type MonthlyRow = {
  /** The month's first day. */
  month: string;
  /** Income as the income statement adds it: credits less debits of income accounts, closing entries left out. */
  income: number;
  /** Expenses likewise: debits less credits of expense accounts, closing entries left out. */
  expenses: number;
  /** The change of the cash accounts `cashIds` (every line, closing or not). */
  cash: number;
};

/**
 * One `union all` branch per edge range: its lines (taken away when `sign` is -1), labelled
 * with the range's month. Each range lies within one month, so each branch is a plain range
 * scan of the date index.
 */
const edgeLines = (organizationId: string, ranges: DayRange[], sign: 1 | -1) =>
  ranges.length === 0
    ? sql``
    : sql.join(
        ranges.map(
          (r) => sql`union all
        select account_id, ${monthStart(r.from)}::date as month, is_closing as closing,
               ${sign} * debit, ${sign} * credit
          from journal_lines
         where organization_id = ${organizationId} and date >= ${r.from} and date <= ${r.to}`,
        ),
        sql` `,
      );

/**
 * Income, expenses and the change of cash per calendar month over [from, to], added up by the
 * database (one row a month). Whole months are their kept balances; a partial month at either
 * edge is read as the ledger's sums read it (ledger/kept-span.ts): its lines in the range, or
 * its kept balance less its lines outside the range, whichever touches fewer days. So a range
 * ending today reads no line of the current month but the few dated after today.
 */
export const selectMonthlyMovements = async (
  db: Executor,
  organizationId: string,
  from: string,
  to: string,
  cashIds: readonly string[],
): Promise<MonthlyRow[]> => {
  const span = keptSpan(from, to);
  const isCash = cashIds.length === 0 ? sql`false` : sql`x.account_id in (${sql.join([...cashIds])})`;
  const result = await sql<MonthlyRow>`
    select to_char(x.month, 'YYYY-MM-DD') as month,
           coalesce(sum(x.credit - x.debit) filter (where a.type = 'income' and not x.closing), 0)::bigint as income,
           coalesce(sum(x.debit - x.credit) filter (where a.type = 'expense' and not x.closing), 0)::bigint as expenses,
           coalesce(sum(x.debit - x.credit) filter (where ${isCash}), 0)::bigint as cash
      from (
        select account_id, period as month, is_closing as closing, debit, credit
          from account_period_balances
         where organization_id = ${organizationId} and period >= ${span.keptFrom} and period < ${span.keptTo}
        ${edgeLines(organizationId, span.add, 1)}
        ${edgeLines(organizationId, span.subtract, -1)}
      ) x
      join accounts a on a.organization_id = ${organizationId} and a.id = x.account_id
     group by x.month`.execute(db);
  return result.rows.map((r) => ({
    month: r.month,
    income: Number(r.income),
    expenses: Number(r.expenses),
    cash: Number(r.cash),
  }));
};

export type OpenDocumentRow = {
  id: string;
  number: string | null;
  name: string;
  due_date: string;
  balance: number;
};

/** Sent and partly paid invoices with what is still owed (base currency). */
export const selectOpenInvoices = async (db: Executor, organizationId: string): Promise<OpenDocumentRow[]> =>
  (
    await db
      .selectFrom('invoices as i')
      .innerJoin('customers as c', (j) =>
        j.onRef('c.organization_id', '=', 'i.organization_id').onRef('c.id', '=', 'i.customer_id'),
      )
      .select(['i.id', 'i.number', 'c.name', 'i.due_date', 'i.balance_base as balance'])
      .where('i.organization_id', '=', organizationId)
      .where('i.status', 'in', ['sent', 'partially_paid'])
      .where('i.balance_base', '<>', 0)
      .execute()
  ).map((r) => ({ ...r, balance: Number(r.balance) }));

/** Open and partly paid bills with what is still owed (base currency). */
export const selectOpenBills = async (db: Executor, organizationId: string): Promise<OpenDocumentRow[]> =>
  (
    await db
      .selectFrom('bills as b')
      .innerJoin('suppliers as s', (j) =>
        j.onRef('s.organization_id', '=', 'b.organization_id').onRef('s.id', '=', 'b.supplier_id'),
      )
      .select(['b.id', 'b.number', 's.name', 'b.due_date', 'b.balance_base as balance'])
      .where('b.organization_id', '=', organizationId)
      .where('b.status', 'in', ['open', 'partially_paid'])
      .where('b.balance_base', '<>', 0)
      .execute()
  ).map((r) => ({ ...r, balance: Number(r.balance) }));

const scheduleColumns = [
  'id',
  'frequency',
  'start_date',
  'end_date',
  'max_count',
  'next_index',
  'next_date',
  'currency',
  'exchange_rate',
  'payment_terms_days',
] as const;

/** Active recurring invoice schedules with what the forecast needs of them. */
export const selectActiveInvoiceSchedules = (db: Executor, organizationId: string) =>
  db
    .selectFrom('recurring_schedules')
    .select(scheduleColumns)
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'active')
    .where('next_date', 'is not', null)
    .execute();

/** Active recurring bill schedules with what the forecast needs of them. */
export const selectActiveBillSchedules = (db: Executor, organizationId: string) =>
  db
    .selectFrom('bill_schedules')
    .select(scheduleColumns)
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'active')
    .where('next_date', 'is not', null)
    .execute();

export type SpendingRow = { week: number; currency: string; rate: string | null; spent: number };

/**
 * Money out in the bank register over the `weeks` weeks ending `today` (week 0 the oldest):
 * every withdrawal that is not a transfer between the company's accounts and not the payment
 * of an invoice or bill (those the forecast takes from the documents), uncategorised or
 * categorised to an account or split. Grouped by the account's currency and the line's rate.
 */
export const selectSpendingByWeek = async (
  db: Executor,
  organizationId: string,
  today: string,
  weeks: number,
): Promise<SpendingRow[]> => {
  const first = addDays(today, 1 - 7 * weeks);
  const result = await sql<SpendingRow>`
    select ((t.date - ${first}::date) / 7)::int as week, m.currency, t.rate,
           sum(-t.amount)::bigint as spent
      from bank_transactions t
      join money_accounts m on m.organization_id = t.organization_id and m.id = t.money_account_id
     where t.organization_id = ${organizationId} and t.date >= ${first} and t.date <= ${today}
       and t.amount < 0 and t.category_kind in ('none', 'account', 'split')
     group by 1, 2, 3`.execute(db);
  return result.rows.map((r) => ({ ...r, currency: r.currency.trim(), spent: Number(r.spent) }));
};

/** Invoiced sales (base currency, before payment) issued in [from, to]. */
export const selectInvoicedSales = async (db: Executor, organizationId: string, from: string, to: string) => {
  const row = await db
    .selectFrom('invoices')
    .select(sql<string>`coalesce(sum(total_base), 0)::bigint`.as('total'))
    .where('organization_id', '=', organizationId)
    .where('status', 'in', ['sent', 'partially_paid', 'paid'])
    .where('issue_date', '>=', from)
    .where('issue_date', '<=', to)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
};

export type LatePayerRow = {
  invoice_id: string;
  invoice_number: string | null;
  customer_id: string;
  customer_name: string;
  due_date: string;
  balance: number;
  usual: number;
  paid_count: number;
};

/**
 * Overdue invoices of customers with at least `minPaid` invoices paid since `since`, with the
 * median number of days after the due date those were paid (by their last live payment).
 */
export const selectLatePayerCandidates = async (
  db: Executor,
  organizationId: string,
  today: string,
  since: string,
  minPaid: number,
): Promise<LatePayerRow[]> => {
  const result = await sql<LatePayerRow>`
    with paid as (
      select i.customer_id, (max(p.date) - i.due_date) as late
        from invoices i
        join invoice_payments p
          on p.organization_id = i.organization_id and p.invoice_id = i.id and p.reversal_entry_id is null
       where i.organization_id = ${organizationId} and i.status = 'paid' and i.issue_date >= ${since}
       group by i.id, i.customer_id, i.due_date
    ), usual as (
      select customer_id, count(*)::int as paid_count,
             percentile_cont(0.5) within group (order by late) as usual
        from paid group by customer_id having count(*) >= ${minPaid}
    )
    select i.id as invoice_id, i.number as invoice_number, i.customer_id, c.name as customer_name,
           to_char(i.due_date, 'YYYY-MM-DD') as due_date, i.balance_base::bigint as balance,
           u.usual::float8 as usual, u.paid_count
      from invoices i
      join usual u on u.customer_id = i.customer_id
      join customers c on c.organization_id = i.organization_id and c.id = i.customer_id
     where i.organization_id = ${organizationId} and i.status in ('sent', 'partially_paid')
       and i.balance_base <> 0 and i.due_date < ${today}`.execute(db);
  return result.rows.map((r) => ({
    ...r,
    balance: Number(r.balance),
    usual: Number(r.usual),
    paid_count: Number(r.paid_count),
  }));
};

export type UnusualRow = {
  entry_id: string;
  entry_number: number | null;
  date: string;
  account_id: string;
  memo: string;
  amount: number;
  median: number;
  sample: number;
};

/** How many of an account's latest expense lines the median and the candidates look at. */
export const UNUSUAL_LINES_PER_ACCOUNT = 50;

/**
 * Expense lines dated in [recentFrom, today] larger than `factor` × the median of their
 * account's expense lines over [sampleFrom, today], for accounts with at least `minSample`
 * such lines. Both look at an account's latest UNUSUAL_LINES_PER_ACCOUNT lines at most (read
 * backwards on the account's date index, once for both), so a busy account costs what a quiet
 * one does.
 */
export const selectUnusualExpenses = async (
  db: Executor,
  organizationId: string,
  today: string,
  recentFrom: string,
  sampleFrom: string,
  factor: number,
  minSample: number,
): Promise<UnusualRow[]> => {
  const cap = UNUSUAL_LINES_PER_ACCOUNT;
  // One backward read per account serves both: its latest lines of [sampleFrom, today] sorted
  // newest first, so those dated from recentFrom are exactly its latest lines of
  // [recentFrom, today] (at most `cap`), the candidates.
  const result = await sql<UnusualRow>`
    with sample as (
      select a.id as account_id, s.entry_id, s.entry_number, s.date, s.amount
        from accounts a
        cross join lateral (
          select l.entry_id, l.entry_number, l.date, l.debit - l.credit as amount from journal_lines l
           where l.organization_id = ${organizationId} and l.account_id = a.id
             and l.date >= ${sampleFrom} and l.date <= ${today} and not l.is_closing
           order by l.date desc, l.entry_number desc, l.line_no desc
           limit ${cap}
        ) s
       where a.organization_id = ${organizationId} and a.type = 'expense'
    ), medians as (
      select account_id, percentile_cont(0.5) within group (order by amount) as median, count(*)::int as sample
        from sample where amount > 0 group by account_id having count(*) >= ${minSample}
    ), candidates as (
      select m.account_id, m.median, m.sample, s.entry_id, s.entry_number, s.date, s.amount
        from medians m
        join sample s on s.account_id = m.account_id
       where s.date >= ${recentFrom} and s.amount > ${factor} * m.median
       order by s.amount / m.median desc, s.date desc, s.entry_id
       limit 5
    )
    select x.entry_id, x.entry_number, to_char(x.date, 'YYYY-MM-DD') as date, x.account_id,
           e.memo, x.amount::bigint as amount, x.median::float8 as median, x.sample
      from candidates x
      join journal_entries e on e.organization_id = ${organizationId} and e.id = x.entry_id
     order by x.amount / x.median desc, x.date desc, x.entry_id`.execute(db);
  return result.rows.map((r) => ({
    ...r,
    amount: Number(r.amount),
    median: Math.round(Number(r.median)),
    sample: Number(r.sample),
    entry_number: r.entry_number === null ? null : Number(r.entry_number),
  }));
};

export type RecentEntryRow = {
  id: string;
  number: number | null;
  date: string;
  memo: string;
  source: string;
  status: string;
  reversed_by: string | null;
  total_debit: number;
};

/** The latest posted entries (by date, then creation), with their debit total and reversal. */
export const selectRecentEntries = async (db: Executor, organizationId: string, limit: number) => {
  const result = await sql<RecentEntryRow>`
    with latest as (
      select id, number, date, memo, source, status, created_at from journal_entries
       where organization_id = ${organizationId} and status = 'posted'
       order by date desc, created_at desc, id desc
       limit ${limit}
    )
    select e.id, e.number, to_char(e.date, 'YYYY-MM-DD') as date, e.memo, e.source, e.status,
           (select r.id from journal_entries r
             where r.organization_id = ${organizationId} and r.reverses_entry_id = e.id) as reversed_by,
           (select coalesce(sum(l.debit), 0) from journal_lines l
             where l.organization_id = ${organizationId} and l.entry_id = e.id)::bigint as total_debit
      from latest e
     order by e.date desc, e.created_at desc, e.id desc`.execute(db);
  return result.rows.map((r) => ({ ...r, total_debit: Number(r.total_debit) }));
};

import { type Expression, type SqlBool, sql } from 'kysely';
import { afterKey } from '../../db/cursor.ts';
import type { Executor } from '../../db/transaction.ts';
import { bankLinesWithAccount } from '../bank-transactions/read.ts';

// Reads of bank transactions (every write is in modules/bank-transactions, decision 0024).
// Every query filters by organization_id first; the list pages by keyset on (date, id),
// (amount, id) or (description, id), each served by an index that starts with
// organization_id, so the first and the thousandth page cost the same.

const chunks = <T>(items: T[], size: number) => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

export const selectTransactionsForUpdate = async (db: Executor, organizationId: string, ids: string[]) => {
  const rows = [];
  for (const part of chunks(ids, 5000)) {
    rows.push(
      ...(await db
        .selectFrom('bank_transactions')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', 'in', part)
        .orderBy('id')
        .forUpdate()
        .execute()),
    );
  }
  return rows;
};

export type BankTransactionRow = Awaited<ReturnType<typeof selectTransactionsForUpdate>>[number];

export const selectSplits = (db: Executor, organizationId: string, transactionIds: string[]) =>
  transactionIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('bank_transaction_splits as s')
        .innerJoin('accounts as a', (j) =>
          j.onRef('a.organization_id', '=', 's.organization_id').onRef('a.id', '=', 's.category_account_id'),
        )
        .select([
          's.transaction_id',
          's.line_no',
          's.category_account_id',
          's.amount',
          's.description',
          'a.name as category_name',
          'a.code as category_code',
        ])
        .where('s.organization_id', '=', organizationId)
        .where('s.transaction_id', 'in', transactionIds)
        .orderBy('s.transaction_id')
        .orderBy('s.line_no')
        .execute();

/** Dedupe keys and bank ids already in the account over a date range, to mark a file's duplicates. */
export const selectExistingKeys = async (
  db: Executor,
  organizationId: string,
  moneyAccountId: string,
  from: string,
  to: string,
) =>
  db
    .selectFrom('bank_transactions')
    .select(['dedupe_key', 'external_id'])
    .where('organization_id', '=', organizationId)
    .where('money_account_id', '=', moneyAccountId)
    .where('date', '>=', from)
    .where('date', '<=', to)
    .execute();

export const selectExternalIds = async (
  db: Executor,
  organizationId: string,
  moneyAccountId: string,
  ids: string[],
) => {
  const found = new Set<string>();
  for (const part of chunks(ids, 5000)) {
    const rows = await db
      .selectFrom('bank_transactions')
      .select('external_id')
      .where('organization_id', '=', organizationId)
      .where('money_account_id', '=', moneyAccountId)
      .where('external_id', 'in', part)
      .execute();
    for (const r of rows) if (r.external_id) found.add(r.external_id);
  }
  return found;
};

export type ListFilter = {
  type: 'all' | 'income' | 'expense';
  moneyAccountId?: string;
  categoryId?: string;
  status?: 'uncategorized' | 'categorized' | 'reconciled';
  from?: string;
  to?: string;
  minAmount?: number;
  maxAmount?: number;
  search?: string;
  ids?: string[];
  reconciliationCandidatesFor?: { moneyAccountId: string; statementDate: string; reconciliationId: string };
};

const escapeLike = (s: string) => s.replace(/[\\%_]/g, '\\$&');

// The filter composes over the list query's join aliases, so the builder is typed loosely.
const filterConditions = (eb: any, organizationId: string, f: ListFilter): Expression<SqlBool>[] => {
  const conditions: Expression<SqlBool>[] = [eb('t.organization_id', '=', organizationId)];
  // Money moved between the company's own accounts is neither income nor an expense.
  if (f.type === 'income') conditions.push(eb('t.amount', '>', 0), eb('t.category_kind', '<>', 'transfer'));
  if (f.type === 'expense') conditions.push(eb('t.amount', '<', 0), eb('t.category_kind', '<>', 'transfer'));
  if (f.moneyAccountId) conditions.push(eb('t.money_account_id', '=', f.moneyAccountId));
  if (f.status) conditions.push(eb('t.status', '=', f.status));
  if (f.categoryId === 'uncategorized') conditions.push(eb('t.category_kind', '=', 'none'));
  else if (f.categoryId === 'transfer') conditions.push(eb('t.category_kind', '=', 'transfer'));
  else if (f.categoryId) {
    conditions.push(
      sql<SqlBool>`(t.category_account_id = ${f.categoryId} or (t.category_kind = 'split' and exists (select 1 from bank_transaction_splits s where s.organization_id = t.organization_id and s.transaction_id = t.id and s.category_account_id = ${f.categoryId})))`,
    );
  }
  if (f.from) conditions.push(eb('t.date', '>=', f.from));
  if (f.to) conditions.push(eb('t.date', '<=', f.to));
  if (f.minAmount !== undefined) conditions.push(sql<SqlBool>`abs(t.amount) >= ${f.minAmount}`);
  if (f.maxAmount !== undefined) conditions.push(sql<SqlBool>`abs(t.amount) <= ${f.maxAmount}`);
  if (f.search) {
    const like = `%${escapeLike(f.search)}%`;
    conditions.push(
      sql<SqlBool>`(t.description ilike ${like} or t.payee ilike ${like} or t.notes ilike ${like})`,
    );
  }
  if (f.ids) conditions.push(f.ids.length > 0 ? eb('t.id', 'in', f.ids) : sql<SqlBool>`false`);
  if (f.reconciliationCandidatesFor) {
    const r = f.reconciliationCandidatesFor;
    conditions.push(eb('t.money_account_id', '=', r.moneyAccountId));
    conditions.push(
      sql<SqlBool>`((t.status <> 'reconciled' and t.date <= ${r.statementDate}) or t.reconciliation_id = ${r.reconciliationId})`,
    );
  }
  return conditions;
};

export type ListSort = { sort: 'date' | 'amount' | 'description'; direction: 'asc' | 'desc' };
export type ListCursor = { value: string | number; id: string };

export const selectTransactionPage = (
  db: Executor,
  organizationId: string,
  filter: ListFilter,
  sort: ListSort,
  cursor: ListCursor | null,
  limit: number,
) => {
  const query = bankLinesWithAccount(db)
    .leftJoin('accounts as c', (j) =>
      j.onRef('c.organization_id', '=', 't.organization_id').onRef('c.id', '=', 't.category_account_id'),
    )
    .selectAll('t')
    .select(['m.name as money_account_name', 'm.currency', 'c.name as category_name'])
    .where((eb) => eb.and(filterConditions(eb, organizationId, filter)));
  return afterKey(query, [[`t.${sort.sort}`], ['t.id']], cursor && [cursor.value, cursor.id], sort.direction)
    .limit(limit)
    .execute();
};

export type TransactionListRow = Awaited<ReturnType<typeof selectTransactionPage>>[number];

export const selectTotals = (db: Executor, organizationId: string, filter: ListFilter) =>
  bankLinesWithAccount(db)
    .select([
      'm.currency',
      sql<number>`count(*)::bigint`.as('count'),
      sql<number>`coalesce(sum(t.amount) filter (where t.amount > 0), 0)::bigint`.as('money_in'),
      sql<number>`coalesce(-sum(t.amount) filter (where t.amount < 0), 0)::bigint`.as('money_out'),
    ])
    .where((eb) => eb.and(filterConditions(eb, organizationId, filter)))
    .groupBy('m.currency')
    .orderBy('m.currency')
    .execute();

/** For each description key, the category most often chosen for it (ties: the most recent use). */
export const selectSuggestions = async (db: Executor, organizationId: string, keys: string[]) => {
  if (keys.length === 0) return [];
  const result = await sql<{
    description_key: string;
    category_account_id: string;
    category_name: string;
    n: number;
  }>`
    select distinct on (x.description_key) x.description_key, x.category_account_id, a.name as category_name, x.n
      from (
        select description_key, category_account_id, count(*)::int as n, max(date) as last_used
          from bank_transactions
         where organization_id = ${organizationId} and category_kind = 'account' and description_key in (${sql.join(keys)})
         group by description_key, category_account_id
      ) x
      join accounts a on a.organization_id = ${organizationId} and a.id = x.category_account_id and a.archived_at is null
     order by x.description_key, x.n desc, x.last_used desc`.execute(db);
  return result.rows;
};

export const selectRules = (db: Executor, organizationId: string) =>
  db
    .selectFrom('categorization_rules as r')
    .innerJoin('accounts as a', (j) =>
      j.onRef('a.organization_id', '=', 'r.organization_id').onRef('a.id', '=', 'r.set_category_account_id'),
    )
    .selectAll('r')
    .select('a.name as category_name')
    .where('r.organization_id', '=', organizationId)
    .orderBy('r.priority')
    .orderBy('r.created_at')
    .execute();

export type RuleRow = Awaited<ReturnType<typeof selectRules>>[number];

import { badRequest, notFound } from '../../../shared/errors.ts';
import {
  REGISTER_SOURCE_LABELS,
  type Transaction,
  type transactionListQuerySchema,
} from '../../../shared/transactions.ts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { decodeCursor, encodeCursor } from '../../db/cursor.ts';
import type { Executor } from '../../db/transaction.ts';
import { csvAmount, csvRows } from '../../http/csv.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import {
  type ListCursor,
  type ListFilter,
  type ListSort,
  type TransactionListRow,
  selectSplits,
  selectSuggestions,
  selectTotals,
  selectTransactionPage,
} from './queries.ts';

// Reading bank transactions: the filtered list a page at a time (keyset cursor), its totals,
// its CSV and one transaction, each with its splits and, when uncategorised, a suggestion.

type ListQuery = z.output<typeof transactionListQuerySchema>;

const iso = (d: Date | string) => new Date(d).toISOString();

// --- Reading ---------------------------------------------------------------------------

const toTransaction = (
  row: TransactionListRow,
  splits: Awaited<ReturnType<typeof selectSplits>>,
  suggestion: Transaction['suggestion'],
): Transaction => ({
  id: row.id,
  moneyAccountId: row.money_account_id,
  moneyAccountName: row.money_account_name,
  currency: row.currency.trim(),
  date: row.date,
  description: row.description,
  payee: row.payee,
  amount: row.amount,
  status: row.status,
  categoryKind: row.category_kind,
  categoryAccountId: row.category_account_id,
  categoryName:
    row.category_kind === 'transfer'
      ? 'Transfer'
      : row.category_kind === 'split'
        ? 'Split'
        : row.category_kind === 'payment'
          ? REGISTER_SOURCE_LABELS[row.source_kind ?? 'invoice_payment']
          : row.category_name,
  transferId: row.transfer_id,
  taxRate: row.tax_rate,
  notes: row.notes,
  entryId: row.entry_id,
  importId: row.import_id,
  externalId: row.external_id,
  reconciliationId: row.reconciliation_id,
  source:
    row.source_kind && row.source_id
      ? { kind: row.source_kind, id: row.source_id, invoiceId: row.invoice_id }
      : null,
  splits: splits.map((s) => ({
    lineNo: s.line_no,
    categoryAccountId: s.category_account_id,
    categoryName: s.category_name,
    amount: s.amount,
    description: s.description,
  })),
  suggestion,
  createdAt: iso(row.created_at as Date),
});

/** Turns rows into API transactions with their splits and, for uncategorised ones, a suggestion. */
const hydrate = async (db: Executor, organizationId: string, rows: TransactionListRow[]) => {
  const splitIds = rows.filter((r) => r.category_kind === 'split').map((r) => r.id);
  const splits = await selectSplits(db, organizationId, splitIds);
  const splitsById = new Map<string, typeof splits>();
  for (const s of splits) splitsById.set(s.transaction_id, [...(splitsById.get(s.transaction_id) ?? []), s]);
  const keys = [
    ...new Set(
      rows.filter((r) => r.category_kind === 'none' && r.description_key).map((r) => r.description_key),
    ),
  ];
  const suggestions = new Map(
    (await selectSuggestions(db, organizationId, keys)).map((s) => [s.description_key, s]),
  );
  return rows.map((r) => {
    const s = r.category_kind === 'none' ? suggestions.get(r.description_key) : undefined;
    return toTransaction(
      r,
      splitsById.get(r.id) ?? [],
      s ? { categoryAccountId: s.category_account_id, categoryName: s.category_name, count: s.n } : null,
    );
  });
};

// Keyset cursor (src/server/db/cursor.ts): the sort value and the unique id of the last row.
const cursorKinds = { date: 'date', amount: 'integer', description: 'string' } as const;
const encodeListCursor = (c: ListCursor) => encodeCursor({ value: c.value, id: c.id });
const decodeListCursor = (text: string, sort: ListSort['sort']): ListCursor =>
  decodeCursor(text, { value: cursorKinds[sort], id: 'string' })!;

export const filterFromQuery = (q: ListQuery): ListFilter => {
  if (q.from && q.to && q.from > q.to)
    throw badRequest('invalid_range', 'The start date is after the end date.');
  if (q.minAmount !== undefined && q.maxAmount !== undefined && q.minAmount > q.maxAmount) {
    throw badRequest('invalid_range', 'The lowest amount is above the highest.');
  }
  return {
    type: q.type,
    moneyAccountId: q.moneyAccountId,
    categoryId: q.categoryId,
    status: q.status,
    from: q.from,
    to: q.to,
    minAmount: q.minAmount,
    maxAmount: q.maxAmount,
    search: q.search || undefined,
    ids: q.ids,
  };
};

export const listTransactions = async (ctx: AppContext, member: MemberContext, q: ListQuery) => {
  const db = ctx.database.db;
  const sort: ListSort = { sort: q.sort, direction: q.direction };
  const cursor = q.cursor ? decodeListCursor(q.cursor, q.sort) : null;
  const filter = await withReconciliation(db, member.organizationId, filterFromQuery(q), q.reconciliationId);
  const rows = await selectTransactionPage(db, member.organizationId, filter, sort, cursor, q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    transactions: await hydrate(db, member.organizationId, page),
    nextCursor: rows.length > q.limit && last ? encodeListCursor({ value: last[q.sort], id: last.id }) : null,
  };
};

const withReconciliation = async (
  db: Executor,
  organizationId: string,
  filter: ListFilter,
  reconciliationId?: string,
) => {
  if (!reconciliationId) return filter;
  const rec = await db
    .selectFrom('reconciliations')
    .select(['id', 'money_account_id', 'statement_date'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', reconciliationId)
    .executeTakeFirst();
  if (!rec) throw notFound('Reconciliation not found.');
  return {
    ...filter,
    reconciliationCandidatesFor: {
      moneyAccountId: rec.money_account_id,
      statementDate: rec.statement_date,
      reconciliationId: rec.id,
    },
  };
};

export const transactionTotals = async (ctx: AppContext, member: MemberContext, q: ListQuery) => {
  const filter = await withReconciliation(
    ctx.database.db,
    member.organizationId,
    filterFromQuery(q),
    q.reconciliationId,
  );
  const rows = await selectTotals(ctx.database.db, member.organizationId, filter);
  return {
    byCurrency: rows.map((r) => ({
      currency: r.currency.trim(),
      count: Number(r.count),
      moneyIn: Number(r.money_in),
      moneyOut: Number(r.money_out),
    })),
    count: rows.reduce((s, r) => s + Number(r.count), 0),
  };
};

/** The filtered list as CSV, every page of it (up to 200,000 rows), in the list's order. */
export async function* exportTransactionsCsv(ctx: AppContext, member: MemberContext, q: ListQuery) {
  const db = ctx.database.db;
  const filter = filterFromQuery(q);
  const sort: ListSort = { sort: q.sort, direction: q.direction };
  yield csvRows([
    ['Date', 'Account', 'Description', 'Payee', 'Category', 'Status', 'Currency', 'Amount', 'Notes'],
  ]);
  let cursor: ListCursor | null = null;
  for (let done = 0; done < 200_000; ) {
    const rows = await selectTransactionPage(db, member.organizationId, filter, sort, cursor, 2000);
    if (rows.length === 0) break;
    const hydrated = await hydrate(db, member.organizationId, rows);
    yield csvRows(
      hydrated.map((t) => [
        t.date,
        t.moneyAccountName,
        t.description,
        t.payee ?? '',
        t.categoryKind === 'split'
          ? t.splits.map((s) => s.categoryName).join(' / ')
          : (t.categoryName ?? 'Uncategorised'),
        t.status,
        t.currency,
        csvAmount(t.amount, t.currency),
        t.notes,
      ]),
    );
    done += rows.length;
    const last = rows[rows.length - 1]!;
    cursor = { value: last[q.sort], id: last.id };
    if (rows.length < 2000) break;
  }
}

/** One transaction as the API shows it, read with the given executor (inside a write's transaction). */
export const readTransaction = async (db: Executor, organizationId: string, id: string) => {
  const rows = await selectTransactionPage(
    db,
    organizationId,
    { type: 'all', ids: [id] },
    { sort: 'date', direction: 'desc' },
    null,
    1,
  );
  if (rows.length === 0) throw notFound('Transaction not found.');
  return (await hydrate(db, organizationId, rows))[0]!;
};

export const getTransaction = (ctx: AppContext, member: MemberContext, { id }: { id: string }) =>
  readTransaction(ctx.database.db, member.organizationId, id);

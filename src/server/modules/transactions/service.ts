import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import {
  type Transaction,
  type TransactionCreate,
  type TransactionUpdate,
  descriptionKey,
  type transactionListQuerySchema,
} from '../../../shared/transactions.ts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { decodeCursor, encodeCursor } from '../../db/cursor.ts';
import { csvAmount, csvRows } from '../../http/csv.ts';
import { recordAudit } from '../audit/record.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { inTransaction } from '../../db/transaction.ts';
import { postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import type { Executor } from '../../db/transaction.ts';
import { selectMoneyAccount, selectRateOn } from '../wallet/queries.ts';
import { postEntriesInBulk, reverseEntriesInBulk } from '../ledger/bulk.ts';
import { assertNotReconciled } from '../bank-transactions/guard.ts';
import { nextDedupeKey } from '../bank-transactions/keys.ts';
import {
  deleteBankTransactions,
  deleteSplits,
  insertBankTransactions,
  replaceSplits,
  updateBankTransaction,
  updateCategorisation,
} from '../bank-transactions/writes.ts';
import {
  checkCategory,
  entryForTransaction,
  loadPostingContext,
  missingRateError,
  type PostableTransaction,
  type PostingContext,
} from './posting-context.ts';
import {
  type BankTransactionRow,
  type ListCursor,
  type ListFilter,
  type ListSort,
  type TransactionListRow,
  selectRules,
  selectSplits,
  selectSuggestions,
  selectTotals,
  selectTransactionPage,
  selectTransactionsForUpdate,
} from './queries.ts';
import { firstMatchingRule } from './rules.ts';

// Bank transactions: recording one posts it to the ledger in the same database transaction;
// changing what it posts (date, amount, category, split, tax) reverses the old entry and posts
// a new one; a reconciled transaction is locked. Every write goes through the bank-transactions
// module; the rules stay here.

type ListQuery = z.output<typeof transactionListQuerySchema>;

const iso = (d: Date | string) => new Date(d).toISOString();

const paymentError = () =>
  conflict(
    'transaction_is_payment',
    "This line is the money of an invoice payment or refund; its entry is the payment's. Remove the payment on the invoice to undo it.",
  );

const transferError = () =>
  conflict(
    'transaction_is_transfer',
    'This is one side of a transfer between your accounts. Delete the transfer and record it again to change the amount, date or accounts.',
  );

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
          ? row.source_kind === 'refund'
            ? 'Refund'
            : 'Invoice payment'
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

export const getTransaction = async (
  ctx: AppContext,
  member: MemberContext,
  id: string,
  db: Executor = ctx.database.db,
) => {
  const rows = await selectTransactionPage(
    db,
    member.organizationId,
    { type: 'all', ids: [id] },
    { sort: 'date', direction: 'desc' },
    null,
    1,
  );
  if (rows.length === 0) throw notFound('Transaction not found.');
  return (await hydrate(db, member.organizationId, rows))[0]!;
};

// --- Recording and editing ------------------------------------------------------------------

const loadMoneyAccountForPosting = async (trx: Executor, organizationId: string, id: string) => {
  const money = await selectMoneyAccount(trx, organizationId, id, { forUpdate: true });
  if (!money) throw notFound('Money account not found.');
  return { ...money, currency: money.currency.trim() };
};

const rateFor = async (
  trx: Executor,
  pc: PostingContext,
  currency: string,
  date: string,
  given?: string | null,
) => {
  if (currency === pc.baseCurrency) return null;
  if (given) return given;
  const found = await selectRateOn(trx, pc.organizationId, currency, date);
  if (!found) throw missingRateError(currency, pc.baseCurrency, date);
  return found.rate;
};

const checkSplits = (
  pc: PostingContext,
  amount: number,
  splits: { categoryAccountId: string; amount: number }[],
) => {
  for (const s of splits) checkCategory(pc, s.categoryAccountId);
  const total = splits.reduce((sum, s) => sum + s.amount, 0);
  if (total !== amount) {
    throw badRequest(
      'split_mismatch',
      `The parts add up to ${total} but the transaction is ${amount} (minor units). Make the parts add up to the whole amount.`,
      { partsTotal: total, amount },
    );
  }
};

export const recordTransaction = (ctx: AppContext, member: MemberContext, input: TransactionCreate) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    const money = await loadMoneyAccountForPosting(trx, organizationId, input.moneyAccountId);
    if (money.archived_at)
      throw conflict('account_archived', `${money.name} is archived; unarchive it to record transactions.`);
    if (input.date < money.opening_date) {
      throw badRequest(
        'before_opening',
        `${money.name} opens on ${money.opening_date}; record transactions on or after that date.`,
      );
    }
    const pc = await loadPostingContext(trx, organizationId);
    if (input.categoryAccountId) checkCategory(pc, input.categoryAccountId);
    const rate = await rateFor(trx, pc, money.currency, input.date, input.rate);
    const id = randomUUID();
    const tx: PostableTransaction = {
      id,
      date: input.date,
      description: input.description,
      amount: input.amount,
      categoryKind: input.categoryAccountId ? 'account' : 'none',
      categoryAccountId: input.categoryAccountId ?? null,
      splits: [],
      taxRate: input.categoryAccountId ? (input.taxRate ?? null) : null,
      rate,
    };
    const entry = await postJournalEntry(trx, {
      organizationId,
      actorUserId: userId,
      ...entryForTransaction(pc, money, tx),
    });
    const dedupeKey = await nextDedupeKey(trx, organizationId, money.id, input);
    await insertBankTransactions(trx, [
      {
        organization_id: organizationId,
        id,
        money_account_id: money.id,
        date: input.date,
        description: input.description,
        payee: input.payee || null,
        amount: input.amount,
        status: tx.categoryKind === 'none' ? 'uncategorized' : 'categorized',
        category_kind: tx.categoryKind,
        category_account_id: tx.categoryAccountId,
        transfer_id: null,
        tax_rate: tx.taxRate,
        notes: input.notes ?? '',
        rate,
        entry_id: entry.id,
        import_id: null,
        external_id: null,
        dedupe_key: dedupeKey,
        description_key: descriptionKey(input.description),
        rule_id: null,
        reconciliation_id: null,
        created_by: userId,
      },
    ]);
    const created = await getTransaction(ctx, member, id, trx);
    await recordAudit(trx, {
      organizationId,
      actorUserId: userId,
      action: 'bank_transaction.created',
      entityType: 'bank_transaction',
      entityId: id,
      after: created,
    });
    return created;
  });

const lockOne = async (trx: Executor, organizationId: string, id: string) => {
  const [row] = await selectTransactionsForUpdate(trx, organizationId, [id]);
  if (!row) throw notFound('Transaction not found.');
  return row;
};

const postableOf = (
  row: BankTransactionRow,
  splits: { category_account_id: string; amount: number; description: string | null }[],
): PostableTransaction => ({
  id: row.id,
  date: row.date,
  description: row.description,
  amount: row.amount,
  categoryKind: row.category_kind,
  categoryAccountId: row.category_account_id,
  splits: splits.map((s) => ({
    accountId: s.category_account_id,
    amount: s.amount,
    description: s.description,
  })),
  taxRate: row.tax_rate,
  rate: row.rate,
});

export const updateTransaction = (
  ctx: AppContext,
  member: MemberContext,
  id: string,
  input: TransactionUpdate,
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    const row = await lockOne(trx, organizationId, id);
    await assertNotReconciled(trx, organizationId, { ids: [id] });
    const before = await getTransaction(ctx, member, id, trx);
    const postingFields = ['date', 'amount', 'categoryAccountId', 'splits', 'taxRate'] as const;
    const touchesPosting = postingFields.some((f) => input[f] !== undefined);
    if (row.category_kind === 'transfer' && touchesPosting) throw transferError();
    if (row.category_kind === 'payment' && touchesPosting) throw paymentError();
    const money = await loadMoneyAccountForPosting(trx, organizationId, row.money_account_id);
    const oldSplits = (await selectSplits(trx, organizationId, [id])).map((s) => ({ ...s }));
    const next = postableOf(row, oldSplits);
    if (input.date !== undefined) {
      if (input.date < money.opening_date) {
        throw badRequest(
          'before_opening',
          `${money.name} opens on ${money.opening_date}; use that date or a later one.`,
        );
      }
      next.date = input.date;
    }
    if (input.amount !== undefined) next.amount = input.amount;
    if (input.description !== undefined) next.description = input.description;
    let pc: PostingContext | null = null;
    if (touchesPosting) {
      pc = await loadPostingContext(trx, organizationId);
      if (input.splits) {
        checkSplits(pc, next.amount, input.splits);
        next.categoryKind = 'split';
        next.categoryAccountId = null;
        next.splits = input.splits.map((s) => ({
          accountId: s.categoryAccountId,
          amount: s.amount,
          description: s.description ?? null,
        }));
        next.taxRate = null;
      } else if (input.categoryAccountId !== undefined) {
        if (input.categoryAccountId) checkCategory(pc, input.categoryAccountId);
        next.categoryKind = input.categoryAccountId ? 'account' : 'none';
        next.categoryAccountId = input.categoryAccountId;
        next.splits = [];
      } else if (next.categoryKind === 'split' && input.amount !== undefined) {
        checkSplits(
          pc,
          next.amount,
          next.splits.map((s) => ({ categoryAccountId: s.accountId, amount: s.amount })),
        );
      }
      if (input.taxRate !== undefined) next.taxRate = next.categoryKind === 'account' ? input.taxRate : null;
      if (next.categoryKind !== 'account') next.taxRate = null;
      if (money.currency !== pc.baseCurrency && (input.date !== undefined || !next.rate)) {
        next.rate = await rateFor(trx, pc, money.currency, next.date);
      }
    }
    let entryId = row.entry_id;
    if (touchesPosting && pc) {
      await reverseJournalEntry(trx, { organizationId, entryId: row.entry_id, actorUserId: userId });
      const entry = await postJournalEntry(trx, {
        organizationId,
        actorUserId: userId,
        ...entryForTransaction(pc, money, next),
      });
      entryId = entry.id;
    }
    await updateBankTransaction(trx, organizationId, id, {
      date: next.date,
      amount: next.amount,
      description: next.description,
      description_key: descriptionKey(next.description),
      ...(input.payee !== undefined ? { payee: input.payee || null } : {}),
      ...(input.notes !== undefined ? { notes: input.notes } : {}),
      category_kind: next.categoryKind,
      category_account_id: next.categoryAccountId,
      status: next.categoryKind === 'none' ? 'uncategorized' : 'categorized',
      tax_rate: next.taxRate,
      rate: next.rate,
      entry_id: entryId,
      ...(input.categoryAccountId !== undefined || input.splits ? { rule_id: null } : {}),
    });
    if (input.splits || (input.categoryAccountId !== undefined && row.category_kind === 'split')) {
      await replaceSplits(trx, organizationId, id, input.splits ?? []);
    }
    const after = await getTransaction(ctx, member, id, trx);
    await recordAudit(trx, {
      organizationId,
      actorUserId: userId,
      action: 'bank_transaction.updated',
      entityType: 'bank_transaction',
      entityId: id,
      before,
      after,
    });
    return after;
  });

export const deleteTransaction = (ctx: AppContext, member: MemberContext, id: string) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    const row = await lockOne(trx, organizationId, id);
    await assertNotReconciled(trx, organizationId, { ids: [id] });
    if (row.category_kind === 'transfer') throw transferError();
    if (row.category_kind === 'payment') throw paymentError();
    if (row.reconciliation_id) {
      throw conflict(
        'transaction_in_reconciliation',
        'This transaction is ticked in a reconciliation in progress; untick it first.',
      );
    }
    const before = await getTransaction(ctx, member, id, trx);
    await reverseJournalEntry(trx, {
      organizationId,
      entryId: row.entry_id,
      actorUserId: userId,
      memo: `Deleted bank transaction: ${row.description}`,
    });
    await deleteBankTransactions(trx, organizationId, [id]);
    await recordAudit(trx, {
      organizationId,
      actorUserId: userId,
      action: 'bank_transaction.deleted',
      entityType: 'bank_transaction',
      entityId: id,
      before,
    });
  });

// --- Categorising many ------------------------------------------------------------------------

type Recategorisation = {
  row: BankTransactionRow;
  categoryAccountId: string;
  payee?: string | null;
  taxRate?: number | null;
  ruleId?: string | null;
};

/** Reverses the rows' entries and posts them again under their new categories, in bulk. */
const recategorize = async (
  trx: Executor,
  member: MemberContext,
  pc: PostingContext,
  changes: Recategorisation[],
  action: 'bank_transactions.categorized' | 'bank_transactions.rules_applied',
) => {
  if (changes.length === 0) return 0;
  const { organizationId, userId } = member;
  const moneyRows = await trx
    .selectFrom('money_accounts')
    .select(['id', 'ledger_account_id', 'currency'])
    .where('organization_id', '=', organizationId)
    .execute();
  const moneyById = new Map(moneyRows.map((m) => [m.id, m]));
  const batchId = randomUUID();
  const audit = { action, entityType: 'bank_transaction_batch', entityId: batchId };
  await reverseEntriesInBulk(
    trx,
    { organizationId, actorUserId: userId, audit: { ...audit, action: `${action}.reversed` } },
    changes.map((c) => c.row.entry_id),
  );
  const newIds = await postEntriesInBulk(
    trx,
    { organizationId, actorUserId: userId, audit },
    changes.map((c) => {
      const taxRate = c.taxRate !== undefined ? c.taxRate : c.row.tax_rate;
      return entryForTransaction(pc, moneyById.get(c.row.money_account_id)!, {
        ...postableOf(c.row, []),
        categoryKind: 'account',
        categoryAccountId: c.categoryAccountId,
        taxRate,
      });
    }),
  );
  await deleteSplits(
    trx,
    organizationId,
    changes.filter((c) => c.row.category_kind === 'split').map((c) => c.row.id),
  );
  await updateCategorisation(
    trx,
    organizationId,
    changes.map((c, i) => ({
      id: c.row.id,
      entryId: newIds[i]!,
      categoryKind: 'account',
      categoryAccountId: c.categoryAccountId,
      ...(c.payee !== undefined && c.payee !== null ? { payee: c.payee } : {}),
      ...(c.taxRate !== undefined ? { taxRate: c.taxRate } : {}),
      ruleId: c.ruleId ?? null,
    })),
  );
  return changes.length;
};

export const bulkCategorize = (
  ctx: AppContext,
  member: MemberContext,
  input: { transactionIds: string[]; categoryAccountId: string },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const ids = [...new Set(input.transactionIds)];
    const rows = await selectTransactionsForUpdate(trx, member.organizationId, ids);
    if (rows.length !== ids.length) {
      throw notFound(
        `${ids.length - rows.length} of the selected transactions were not found; reload the list and try again.`,
      );
    }
    await assertNotReconciled(trx, member.organizationId, { ids });
    const locked = rows.filter((r) => r.category_kind === 'transfer' || r.category_kind === 'payment');
    if (locked.length > 0) {
      throw conflict(
        'transactions_locked',
        `${locked.length} of the selected transactions are transfers or invoice payments and cannot be recategorised. Unselect them and try again.`,
        { ids: locked.map((r) => r.id) },
      );
    }
    const pc = await loadPostingContext(trx, member.organizationId);
    checkCategory(pc, input.categoryAccountId);
    const changes = rows
      .filter((r) => !(r.category_kind === 'account' && r.category_account_id === input.categoryAccountId))
      .map((row) => ({ row, categoryAccountId: input.categoryAccountId }));
    const updated = await recategorize(trx, member, pc, changes, 'bank_transactions.categorized');
    return { updated, unchanged: rows.length - updated };
  });

/** Runs the rules over uncategorised transactions (of one account, or all) and categorises the matches. */
export const applyRulesNow = (
  ctx: AppContext,
  member: MemberContext,
  input: { moneyAccountId?: string | null },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId } = member;
    const rules = (await selectRules(trx, organizationId)).filter((r) => r.enabled);
    if (rules.length === 0) return { categorized: 0, checked: 0 };
    let q = trx
      .selectFrom('bank_transactions')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('status', '=', 'uncategorized')
      .where('category_kind', '=', 'none');
    if (input.moneyAccountId) q = q.where('money_account_id', '=', input.moneyAccountId);
    const rows = await q.orderBy('id').forUpdate().execute();
    const pc = await loadPostingContext(trx, organizationId);
    const changes: Recategorisation[] = [];
    for (const row of rows) {
      const rule = firstMatchingRule(rules, {
        description: row.description,
        payee: row.payee,
        amount: row.amount,
        moneyAccountId: row.money_account_id,
      });
      if (!rule) continue;
      const category = pc.accounts.get(rule.set_category_account_id);
      if (!category || category.archived) continue;
      changes.push({
        row,
        categoryAccountId: rule.set_category_account_id,
        payee: rule.set_payee,
        taxRate: rule.set_tax_rate ?? undefined,
        ruleId: rule.id,
      });
    }
    const categorized = await recategorize(trx, member, pc, changes, 'bank_transactions.rules_applied');
    return { categorized, checked: rows.length };
  });

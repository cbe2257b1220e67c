import { notFound } from '../../../shared/errors.ts';
import type { MatchSuggestion } from '../../../shared/matching.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { selectOpenInvoicesForMatching, selectRecordedPayments } from '../invoices/bank-payments.ts';
import { loadPostingContext } from '../transactions/posting-context.ts';
import { suggestBillsForLine } from './bills.ts';
import { companyRowExists, selectMatchesOfPayments } from './queries.ts';
import { type LineForMatching, PAYMENT_WINDOW_DAYS, buildIndex, rankLine } from './rank.ts';
import { bankLinesWithAccount } from '../bank-transactions/read.ts';

// Matching suggestions: for one bank line, and for every line of a statement import, the open
// invoices and hand-recorded payments it most likely settles, best first (ranked by rank.ts).

const addDays = (iso: string, days: number) =>
  new Date(Date.parse(`${iso}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

type LineRow = {
  id: string;
  date: string;
  amount: number;
  description: string;
  payee: string | null;
  category_kind: string;
  ledger_account_id: string;
  currency: string;
};

const selectLinesForMatching = (db: Executor, organizationId: string) =>
  bankLinesWithAccount(db)
    .select([
      't.id',
      't.date',
      't.amount',
      't.description',
      't.payee',
      't.category_kind',
      'm.ledger_account_id',
      'm.currency',
    ])
    .where('t.organization_id', '=', organizationId);

/**
 * Suggestions for many lines at once (a whole statement): open invoices and recorded payments
 * are read once and indexed, then each line is ranked against the indexes. Lines that are not
 * uncategorised money in, or not in the base currency, get none.
 */
export const suggestForLines = async (
  db: Executor,
  organizationId: string,
  baseCurrency: string,
  rows: LineRow[],
  limit: number,
): Promise<Map<string, MatchSuggestion[]>> => {
  const result = new Map<string, MatchSuggestion[]>(rows.map((r) => [r.id, []]));
  const lines: LineForMatching[] = rows
    .filter((r) => r.category_kind === 'none' && r.amount > 0 && r.currency.trim() === baseCurrency)
    .map((r) => ({
      id: r.id,
      date: r.date,
      amount: r.amount,
      description: r.description,
      payee: r.payee,
      ledgerAccountId: r.ledger_account_id,
    }));
  if (lines.length === 0) return result;
  let from = lines[0]!.date;
  let to = lines[0]!.date;
  for (const l of lines) {
    if (l.date < from) from = l.date;
    if (l.date > to) to = l.date;
  }
  const [invoices, recorded] = await Promise.all([
    selectOpenInvoicesForMatching(db, organizationId, baseCurrency),
    selectRecordedPayments(
      db,
      organizationId,
      [...new Set(lines.map((l) => l.ledgerAccountId))],
      addDays(from, -PAYMENT_WINDOW_DAYS),
      addDays(to, PAYMENT_WINDOW_DAYS),
    ),
  ]);
  // A payment that is already the cash of a line is not suggested again.
  const taken = new Set(
    (
      await selectMatchesOfPayments(
        db,
        organizationId,
        recorded.map((p) => p.id),
      )
    ).map((m) => m.payment_id),
  );
  const index = buildIndex(
    invoices,
    recorded.filter((p) => !taken.has(p.id)),
  );
  for (const line of lines) result.set(line.id, rankLine(index, line, limit));
  return result;
};

export const suggestionsForTransaction = async (
  ctx: AppContext,
  member: MemberContext,
  { id }: { id: string },
) => {
  const db = ctx.database.db;
  const row = await selectLinesForMatching(db, member.organizationId)
    .where('t.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Transaction not found.');
  const pc = await loadPostingContext(db, member.organizationId);
  const map = await suggestForLines(db, member.organizationId, pc.baseCurrency, [row], 8);
  // Money out: the open bills it may pay.
  const bills =
    row.category_kind === 'none'
      ? await suggestBillsForLine(
          db,
          member.organizationId,
          pc.baseCurrency,
          {
            id: row.id,
            date: row.date,
            amount: row.amount,
            description: row.description,
            payee: row.payee,
            ledgerAccountId: row.ledger_account_id,
            currency: row.currency.trim(),
          },
          8,
        )
      : [];
  return { transactionId: id, suggestions: map.get(id) ?? [], bills };
};

/** Suggestions for every uncategorised line of one imported statement (at most 5,000 lines). */
export const suggestionsForStatement = async (
  ctx: AppContext,
  member: MemberContext,
  { importId, limit }: { importId: string; limit: number },
) => {
  const db = ctx.database.db;
  if (!(await companyRowExists(db, 'statement_imports', member.organizationId, importId)))
    throw notFound('Statement import not found.');
  const rows = await selectLinesForMatching(db, member.organizationId)
    .where('t.import_id', '=', importId)
    .where('t.category_kind', '=', 'none')
    .where('t.amount', '>', 0)
    .orderBy('t.date')
    .orderBy('t.id')
    .limit(5000)
    .execute();
  const pc = await loadPostingContext(db, member.organizationId);
  const map = await suggestForLines(db, member.organizationId, pc.baseCurrency, rows, limit);
  return {
    lines: rows.map((r) => ({ transactionId: r.id, suggestions: map.get(r.id) ?? [], bills: [] })),
  };
};

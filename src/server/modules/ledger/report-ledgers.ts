import { sql } from 'kysely';
import { notFound } from '../../../shared/errors.ts';
import type { GeneralLedger } from '../../../shared/ledger.ts';
import { LEDGER_VOLUME_LIMIT } from '../../../shared/money.ts';
import { addDays } from './dates.ts';
import { decodeCursor, invalidCursor, keysetPage } from '../../db/cursor.ts';
import { ENTRY_KEY, type Executor, selectPostedLinesByEntry } from './queries.ts';
import { balancesOver, checkRange, loadContext, natural, ref } from './report-basics.ts';

// The ledgers, with keyset pagination: the general ledger, the journal and one account's
// transactions.

// Cursors (src/server/db/cursor.ts) hold (date, entry number, line number): exact integers,
// unique per company, so every line is on exactly one page.
/** Posted lines in a date range with their entry's memo and source, for the line ledgers. */
const postedLinesIn = (db: Executor, organizationId: string, from: string | null, to: string) => {
  const q = db
    .selectFrom('journal_lines as l')
    .innerJoin('journal_entries as e', (j) =>
      j.onRef('e.organization_id', '=', 'l.organization_id').onRef('e.id', '=', 'l.entry_id'),
    )
    .select([
      'l.entry_id',
      'l.entry_number',
      'l.line_no',
      'l.date',
      'l.debit',
      'l.credit',
      'l.description',
      'e.memo',
      'e.source',
    ])
    .where('l.organization_id', '=', organizationId)
    .where('l.date', '<=', to);
  return from ? q.where('l.date', '>=', from) : q;
};

const linePage = (cursor: { date: string; number: number; line: number } | null, limit: number) => ({
  keys: [
    ['l.date', 'date'],
    ['l.entry_number', 'bigint'],
    ['l.line_no', 'bigint'],
  ] as const,
  after: cursor && [cursor.date, cursor.number, cursor.line],
  limit,
});

/** One account's posted lines in date order with a running balance; pages by (date, number, line). */
export const generalLedger = async (
  db: Executor,
  organizationId: string,
  query: { accountId: string; from?: string | null; to: string; limit: number; cursor?: string },
): Promise<GeneralLedger> => {
  const from = query.from ?? null;
  checkRange(from, query.to);
  const ctx = await loadContext(db, organizationId);
  const account = ctx.byId.get(query.accountId);
  if (!account) throw notFound('Account not found.');
  const cursor = decodeCursor(query.cursor, {
    date: 'date',
    number: 'integer',
    line: 'integer',
    balance: 'integer',
  });
  // The running balance rides in the cursor; a real one is within the ledger's volume limit.
  if (cursor && Math.abs(cursor.balance) > LEDGER_VOLUME_LIMIT) throw invalidCursor();
  const openingRows = from
    ? await balancesOver(db, organizationId, null, addDays(from, -1), null, account.id)
    : [];
  const openingBalance = natural(
    account.type,
    openingRows.reduce((s, r) => s + r.debit - r.credit, 0),
  );
  const totalRows = await balancesOver(db, organizationId, null, query.to, null, account.id);
  const closingBalance = natural(
    account.type,
    totalRows.reduce((s, r) => s + r.debit - r.credit, 0),
  );
  const q = postedLinesIn(db, organizationId, from, query.to)
    .select('e.reference')
    .where('l.account_id', '=', account.id);
  const { page, nextCursor } = await keysetPage(q, linePage(cursor, query.limit));
  let balance = cursor ? cursor.balance : openingBalance;
  const out = page.map((r) => {
    balance += natural(account.type, r.debit - r.credit);
    return {
      entryId: r.entry_id,
      entryNumber: r.entry_number,
      lineNo: r.line_no,
      date: r.date,
      memo: r.memo,
      reference: r.reference,
      source: r.source,
      description: r.description,
      debit: r.debit,
      credit: r.credit,
      balance,
    };
  });
  return {
    currency: ctx.currency,
    account: ref(account),
    from,
    to: query.to,
    openingBalance,
    closingBalance,
    rows: out,
    // After the map, `balance` is the running balance at the page's last line.
    nextCursor: nextCursor((last) => ({
      date: last.date,
      number: last.entry_number,
      line: last.line_no,
      balance,
    })),
  };
};

/** The journal: posted entries in date and number order with their lines. */
export const journalReport = async (
  db: Executor,
  organizationId: string,
  query: { from?: string | null; to: string; limit: number; cursor?: string },
) => {
  const from = query.from ?? null;
  checkRange(from, query.to);
  const ctx = await loadContext(db, organizationId);
  const cursor = decodeCursor(query.cursor, { date: 'date', number: 'integer' });
  let q = db
    .selectFrom('journal_entries')
    .select(['id', 'number', 'date', 'memo', 'reference', 'source', 'reverses_entry_id'])
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'posted')
    .where('date', '<=', query.to);
  if (from) q = q.where('date', '>=', from);
  const { page, nextCursor } = await keysetPage(q, {
    keys: ENTRY_KEY,
    after: cursor && [cursor.date, cursor.number],
    limit: query.limit,
  });
  const byEntry = await selectPostedLinesByEntry(
    db,
    organizationId,
    page.map((e) => e.id),
  );
  return {
    currency: ctx.currency,
    from,
    to: query.to,
    entries: page.map((e) => ({
      id: e.id,
      number: e.number!,
      date: e.date,
      memo: e.memo,
      reference: e.reference,
      source: e.source,
      reversesEntryId: e.reverses_entry_id,
      lines: (byEntry.get(e.id) ?? []).map((l) => {
        const a = ctx.byId.get(l.account_id)!;
        return {
          lineNo: l.line_no,
          accountId: l.account_id,
          accountCode: a.code,
          accountName: a.name,
          debit: l.debit,
          credit: l.credit,
          currency: l.currency?.trim() ?? null,
          amount: l.amount,
          description: l.description,
        };
      }),
    })),
    nextCursor: nextCursor((last) => ({ date: last.date, number: last.number ?? 0 })),
  };
};

/**
 * Account transactions: every posted line in the range (optionally of one account) with the
 * other side of its entry, as QuickBooks' "transaction detail by account" shows it.
 */
export const accountTransactions = async (
  db: Executor,
  organizationId: string,
  query: { accountId?: string; from?: string | null; to: string; limit: number; cursor?: string },
) => {
  const from = query.from ?? null;
  checkRange(from, query.to);
  const ctx = await loadContext(db, organizationId);
  if (query.accountId && !ctx.byId.has(query.accountId)) throw notFound('Account not found.');
  const cursor = decodeCursor(query.cursor, { date: 'date', number: 'integer', line: 'integer' });
  let q = postedLinesIn(db, organizationId, from, query.to).select([
    'l.account_id',
    sql<string[]>`(select array_agg(distinct o.account_id) from journal_lines o
        where o.organization_id = l.organization_id and o.entry_id = l.entry_id and o.account_id <> l.account_id)`.as(
      'other_accounts',
    ),
  ]);
  if (query.accountId) q = q.where('l.account_id', '=', query.accountId);
  const { page, nextCursor } = await keysetPage(q, linePage(cursor, query.limit));
  const label = (id: string) => {
    const a = ctx.byId.get(id);
    return a ? `${a.code} ${a.name}` : id;
  };
  return {
    currency: ctx.currency,
    from,
    to: query.to,
    rows: page.map((r) => {
      const others = r.other_accounts ?? [];
      return {
        entryId: r.entry_id,
        entryNumber: r.entry_number,
        lineNo: r.line_no,
        date: r.date,
        accountId: r.account_id,
        account: label(r.account_id),
        memo: r.memo,
        source: r.source,
        description: r.description,
        split: others.length === 0 ? '' : others.length === 1 ? label(others[0]!) : '-Split-',
        debit: r.debit,
        credit: r.credit,
      };
    }),
    nextCursor: nextCursor((last) => ({ date: last.date, number: last.entry_number, line: last.line_no })),
  };
};

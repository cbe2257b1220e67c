import { type Selectable, sql } from 'kysely';
import type { Executor } from '../../db/transaction.ts';
import type { Database } from '../../db/types.ts';
import { inRanges, keptSpan } from './kept-span.ts';

// SQL of the ledger module. Every query filters by organization_id first, matching the
// leading column of each key and index.

/** The one executor type (db/transaction.ts), re-exported for this module's own files. */
export type { Executor };

export const selectSettings = (db: Executor, organizationId: string) =>
  db
    .selectFrom('ledger_settings as s')
    .innerJoin('organizations as o', 'o.id', 's.organization_id')
    .select([
      's.organization_id',
      's.lock_date',
      's.approval_required',
      'o.base_currency',
      'o.fiscal_year_start_month',
    ])
    .where('s.organization_id', '=', organizationId)
    .executeTakeFirst();

/**
 * Takes `count` consecutive entry numbers (the first is returned) with one update; the row
 * lock it takes serialises postings of one company. Undefined when the company has no ledger.
 */
export const takeEntryNumbers = async (db: Executor, organizationId: string, count: number) => {
  const row = await db
    .updateTable('ledger_settings')
    .set({ next_entry_number: sql`next_entry_number + ${count}` })
    .where('organization_id', '=', organizationId)
    .returning([sql<number>`next_entry_number - ${count}`.as('first'), 'lock_date'])
    .executeTakeFirst();
  return row && { first: Number(row.first), lock_date: row.lock_date };
};

/** Takes the next entry number (see takeEntryNumbers). */
export const takeEntryNumber = async (db: Executor, organizationId: string) => {
  const row = await takeEntryNumbers(db, organizationId, 1);
  return row && { number: row.first, lock_date: row.lock_date };
};

export const selectAccountsByIds = (db: Executor, organizationId: string, ids: string[]) =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('accounts')
        .select(['id', 'code', 'name', 'type', 'subtype', 'currency', 'archived_at', 'system_key'])
        .where('organization_id', '=', organizationId)
        .where('id', 'in', ids)
        .execute();

export const selectAccounts = (db: Executor, organizationId: string) =>
  db
    .selectFrom('accounts as a')
    .selectAll('a')
    .select(
      sql<boolean>`exists (select 1 from account_period_balances b where b.organization_id = a.organization_id and b.account_id = a.id)`.as(
        'has_postings',
      ),
    )
    .where('a.organization_id', '=', organizationId)
    .orderBy('a.code')
    .execute();

/** One row of a company's accounts or journal entries by id; `forUpdate` locks it. */
const selectById =
  <T extends 'accounts' | 'journal_entries'>(table: T) =>
  (db: Executor, organizationId: string, id: string, options: { forUpdate?: boolean } = {}) => {
    const q = db
      .selectFrom(table as 'accounts' | 'journal_entries')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id);
    return (options.forUpdate ? q.forUpdate() : q).executeTakeFirst() as Promise<
      Selectable<Database[T]> | undefined
    >;
  };

export const selectAccount = selectById('accounts');

/** Whether the account has kept balances (so posted lines) or appears on a draft. */
export const accountHasPostings = async (db: Executor, organizationId: string, accountId: string) => {
  for (const table of ['account_period_balances', 'journal_draft_lines'] as const) {
    const row = await db
      .selectFrom(table)
      .select('account_id')
      .where('organization_id', '=', organizationId)
      .where('account_id', '=', accountId)
      .limit(1)
      .executeTakeFirst();
    if (row) return true;
  }
  return false;
};

export const selectEntry = selectById('journal_entries');

/** A journal entry row as read. */
export type EntryRow = NonNullable<Awaited<ReturnType<typeof selectEntry>>>;

export const selectEntryForUpdate = (db: Executor, organizationId: string, id: string) =>
  selectEntry(db, organizationId, id, { forUpdate: true });

/**
 * The lines of entries with their account's code and name, from the posted lines or the
 * draft lines (both tables share these columns).
 */
const selectLinesFrom =
  (table: 'journal_lines' | 'journal_draft_lines') =>
  (db: Executor, organizationId: string, entryIds: string[]) =>
    entryIds.length === 0
      ? Promise.resolve([])
      : db
          // The two tables share every column read here; the cast only picks one of them for
          // Kysely's column types.
          .selectFrom(`${table} as l` as 'journal_lines as l')
          .innerJoin('accounts as a', (j) =>
            j.onRef('a.organization_id', '=', 'l.organization_id').onRef('a.id', '=', 'l.account_id'),
          )
          .select([
            'l.entry_id',
            'l.line_no',
            'l.account_id',
            'a.code as account_code',
            'a.name as account_name',
            'l.debit',
            'l.credit',
            'l.currency',
            'l.amount',
            'l.rate',
            'l.description',
            'l.contact_id',
          ])
          .where('l.organization_id', '=', organizationId)
          .where('l.entry_id', 'in', entryIds)
          .orderBy('l.entry_id')
          .orderBy('l.line_no')
          .execute();

export const selectPostedLines = selectLinesFrom('journal_lines');

export const selectDraftLines = selectLinesFrom('journal_draft_lines');

/** The keyset key of posted entries in journal order (src/server/db/cursor.ts): date, then number. */
export const ENTRY_KEY = [
  ['date', 'date'],
  ['number', 'bigint'],
] as const;

/** The posted lines of entries grouped by entry id, each entry's in line order. */
export const selectPostedLinesByEntry = async (db: Executor, organizationId: string, entryIds: string[]) => {
  const byEntry = new Map<string, Awaited<ReturnType<typeof selectPostedLines>>>();
  for (const l of await selectPostedLines(db, organizationId, entryIds)) {
    const list = byEntry.get(l.entry_id);
    if (list) list.push(l);
    else byEntry.set(l.entry_id, [l]);
  }
  return byEntry;
};

export const selectReversalsOf = (db: Executor, organizationId: string, entryIds: string[]) =>
  entryIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('journal_entries')
        .select(['id', 'reverses_entry_id'])
        .where('organization_id', '=', organizationId)
        .where('reverses_entry_id', 'in', entryIds)
        .execute();

/** The attachments of entries (one query for a whole page), each entry's oldest first. */
export const selectAttachments = (db: Executor, organizationId: string, entryIds: string[]) =>
  entryIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('journal_attachments')
        // The file's metadata only: its bytes are read on download (attachments/store.ts).
        .select(['entry_id', 'id', 'file_name', 'content_type', 'size_bytes', 'created_at'])
        .where('organization_id', '=', organizationId)
        .where('entry_id', 'in', entryIds)
        .orderBy('entry_id')
        .orderBy('created_at')
        .execute();

export const selectOpenCloses = (db: Executor, organizationId: string) =>
  db
    .selectFrom('fiscal_year_closes')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('reopened_at', 'is', null)
    .orderBy('end_date')
    .execute();

/** A closed fiscal year containing `date`, if any. */
export const selectClosedYearContaining = (db: Executor, organizationId: string, date: string) =>
  db
    .selectFrom('fiscal_year_closes')
    .select(['start_date', 'end_date'])
    .where('organization_id', '=', organizationId)
    .where('reopened_at', 'is', null)
    .where('start_date', '<=', date)
    .where('end_date', '>=', date)
    .executeTakeFirst();

export type BalanceRow = { account_id: string; debit: number; credit: number };

/**
 * Debit and credit totals per account over [from, to] (`from` null: since the beginning):
 * whole months from the kept balances, the edge days from the lines, added or taken away as
 * `keptSpan` decides. `closing` picks regular lines (false), closing lines (true) or both
 * (null). An account appears only when it has a line in the range.
 */
export const selectBalances = async (
  db: Executor,
  organizationId: string,
  range: { from: string | null; to: string },
  closing: boolean | null,
  accountId?: string | string[],
): Promise<BalanceRow[]> => {
  const span = keptSpan(range.from, range.to);
  const closingFilter = closing === null ? sql`true` : sql`is_closing = ${closing}`;
  const accountFilter =
    accountId === undefined
      ? sql`true`
      : Array.isArray(accountId)
        ? accountId.length === 0
          ? sql`false`
          : sql`account_id in (${sql.join(accountId)})`
        : sql`account_id = ${accountId}`;
  const kept =
    span.keptFrom < span.keptTo
      ? sql`
      select account_id, debit, credit from account_period_balances
       where organization_id = ${organizationId} and period >= ${span.keptFrom} and period < ${span.keptTo}
         and ${closingFilter} and ${accountFilter}`
      : sql`select null::text as account_id, 0::bigint as debit, 0::bigint as credit where false`;
  const result = await sql<BalanceRow>`
    select account_id, sum(debit)::bigint as debit, sum(credit)::bigint as credit from (
      ${kept}
      union all
      select account_id, debit, credit from journal_lines
       where organization_id = ${organizationId} and ${inRanges(span.add)}
         and ${closingFilter} and ${accountFilter}
      union all
      select account_id, -debit, -credit from journal_lines
       where organization_id = ${organizationId} and ${inRanges(span.subtract)}
         and ${closingFilter} and ${accountFilter}
    ) x
    group by account_id
    having sum(debit) <> 0 or sum(credit) <> 0`.execute(db);
  return result.rows;
};

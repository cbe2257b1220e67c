import { sql } from 'kysely';
import { badRequest } from '../../../shared/errors.ts';
import type { JournalSourceName } from '../../../shared/ledger.ts';
import {
  AMOUNT_LIMIT_MESSAGE,
  MAX_AMOUNT_MINOR,
  MoneyParseError,
  convertMinorExact,
  isAmountWithinLimit,
  isCurrencyCode,
  parseRate,
} from '../../../shared/money.ts';
import { type EntryRow, type Executor, selectAccountsByIds, type selectDraftLines } from './queries.ts';

// The lines of a journal entry: their shape (normalizeLines), their accounts (checkAccounts)
// and how they are written as posted or draft rows. Used by posting, drafts, batches and bulk.

export type PostingLineInput = {
  accountId: string;
  /** Base-currency minor units; exactly one of debit and credit is positive. */
  debit?: number;
  credit?: number;
  /** A foreign-currency line: currency, amount in its minor units, rate to the base currency. */
  currency?: string;
  amount?: number;
  rate?: string | number;
  description?: string | null;
  contactId?: string | null;
};

export type PostJournalEntryInput = {
  organizationId: string;
  date: string;
  memo?: string;
  reference?: string | null;
  source: JournalSourceName;
  sourceId?: string | null;
  lines: PostingLineInput[];
  actorUserId: string | null;
};

const lineError = (index: number, message: string, code = 'invalid_line') =>
  badRequest(code, `Line ${index + 1}: ${message}`, { line: index + 1 });

export type ValidLine = {
  accountId: string;
  debit: number;
  credit: number;
  currency: string | null;
  amount: number | null;
  rate: string | null;
  description: string | null;
  contactId: string | null;
};

const isMinor = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * Checks the shape of each line. A foreign-currency line carries currency, amount and rate
 * besides its base-currency debit or credit, which must agree with amount x rate (rounded
 * half away from zero) to within one minor unit, so callers can place a rounding cent.
 */
export const normalizeLines = (
  lines: PostingLineInput[],
  baseCurrency: string,
  options: {
    requireBalanced: boolean;
    /**
     * Largest line amount: the field bound (MAX_AMOUNT_MINOR) for anything a person or a file
     * gives; a year-end close (and its reopening) carries whole-year balances, which the
     * ledger's volume limit bounds instead (decision 0013).
     */
    lineLimit?: number;
  },
): ValidLine[] => {
  const lineLimit = options.lineLimit ?? MAX_AMOUNT_MINOR;
  if (!Array.isArray(lines) || (options.requireBalanced && lines.length < 2)) {
    throw badRequest('entry_too_few_lines', 'An entry needs at least two lines: one debit and one credit.');
  }
  if (lines.length > 500) throw badRequest('entry_too_many_lines', 'An entry can have at most 500 lines.');
  const result = lines.map((line, i): ValidLine => {
    if (!line || typeof line.accountId !== 'string' || line.accountId === '') {
      throw lineError(i, 'choose an account.');
    }
    for (const [name, value] of [
      ['debit', line.debit],
      ['credit', line.credit],
      ['amount', line.amount],
    ] as const) {
      if (isMinor(value) && value > lineLimit) {
        throw lineError(i, `${name} is too large. ${AMOUNT_LIMIT_MESSAGE}`, 'amount_too_large');
      }
      if (value !== undefined && value !== null && !isMinor(value)) {
        throw lineError(
          i,
          typeof value === 'number' && value < 0
            ? `${name} cannot be negative; put the amount on the other side instead.`
            : `${name} must be a whole number of minor units (cents).`,
          typeof value === 'number' && value < 0 ? 'negative_amount' : 'invalid_line',
        );
      }
    }
    let debit = line.debit ?? 0;
    let credit = line.credit ?? 0;
    let currency: string | null = null;
    let amount: number | null = null;
    let rate: string | null = null;
    if (line.currency !== undefined && line.currency !== null && line.currency !== baseCurrency) {
      if (!isCurrencyCode(line.currency)) throw lineError(i, `"${line.currency}" is not a currency code.`);
      if (line.amount === undefined || line.rate === undefined) {
        throw lineError(
          i,
          `a ${line.currency} line needs its amount and the exchange rate to ${baseCurrency}.`,
        );
      }
      try {
        rate = String(line.rate).trim();
        parseRate(rate);
      } catch (error) {
        if (error instanceof MoneyParseError) throw lineError(i, error.message);
        throw error;
      }
      currency = line.currency;
      amount = line.amount;
      const exact = convertMinorExact(line.amount, line.currency, rate, baseCurrency);
      if (!isAmountWithinLimit(exact)) {
        throw lineError(
          i,
          `${line.amount} ${line.currency} at ${rate} is ${exact} ${baseCurrency} minor units. ${AMOUNT_LIMIT_MESSAGE}`,
          'amount_too_large',
        );
      }
      const converted = Number(exact);
      if (debit === 0 && credit === 0) {
        throw lineError(
          i,
          'say whether the line is a debit or a credit (give that side, even as the converted amount).',
        );
      }
      const given = debit > 0 ? debit : credit;
      if (Math.abs(given - converted) > 1) {
        throw lineError(
          i,
          `the base amount ${given} does not match ${line.amount} ${line.currency} at ${rate} (${converted}).`,
          'rate_mismatch',
        );
      }
    }
    if (debit > 0 && credit > 0) throw lineError(i, 'a line is either a debit or a credit, not both.');
    if (debit === 0 && credit === 0) throw lineError(i, 'enter a debit or a credit greater than zero.');
    debit = debit || 0;
    credit = credit || 0;
    const description = line.description?.trim() || null;
    if (description && description.length > 500)
      throw lineError(i, 'the description is longer than 500 characters.');
    return {
      accountId: line.accountId,
      debit,
      credit,
      currency,
      amount,
      rate,
      description,
      contactId: line.contactId ?? null,
    };
  });
  if (options.requireBalanced) {
    const debits = result.reduce((s, l) => s + l.debit, 0);
    const credits = result.reduce((s, l) => s + l.credit, 0);
    if (!Number.isSafeInteger(debits) || !Number.isSafeInteger(credits)) {
      throw badRequest('entry_too_large', 'The entry total is too large.');
    }
    if (debits !== credits) {
      throw badRequest(
        'entry_unbalanced',
        `Debits (${debits}) and credits (${credits}) must be equal; they differ by ${Math.abs(debits - credits)} minor units.`,
        { debits, credits, difference: debits - credits },
      );
    }
  }
  return result;
};

/** Checks every line's account belongs to the company, takes postings and fits the line's currency. */
export const checkAccounts = async (
  db: Executor,
  organizationId: string,
  baseCurrency: string,
  lines: ValidLine[],
  options: { allowArchived: boolean },
) => {
  const ids = [...new Set(lines.map((l) => l.accountId))];
  const accounts = await selectAccountsByIds(db, organizationId, ids);
  const byId = new Map(accounts.map((a) => [a.id, a]));
  lines.forEach((line, i) => {
    const account = byId.get(line.accountId);
    if (!account) throw lineError(i, 'the account does not exist in this company.', 'account_not_found');
    if (account.archived_at && !options.allowArchived) {
      throw lineError(
        i,
        `account ${account.code} ${account.name} is archived and takes no new postings.`,
        'account_archived',
      );
    }
    const accountCurrency = account.currency.trim();
    if (accountCurrency !== baseCurrency && line.currency !== accountCurrency) {
      throw lineError(
        i,
        `account ${account.code} ${account.name} is kept in ${accountCurrency}; give the line's ${accountCurrency} amount and rate.`,
        'currency_mismatch',
      );
    }
  });
  return byId;
};

/** The columns a posted line and a draft line share, for line `i` of an entry. */
const lineColumns = (organizationId: string, entryId: string, l: ValidLine, i: number) => ({
  organization_id: organizationId,
  entry_id: entryId,
  line_no: i + 1,
  account_id: l.accountId,
  debit: l.debit,
  credit: l.credit,
  currency: l.currency,
  amount: l.amount,
  rate: l.rate,
  description: l.description,
  contact_id: l.contactId,
});

/** Writes a posted entry's lines, carrying its date, number and closing flag on each. */
export const insertPostedLines = async (
  db: Executor,
  entry: { organizationId: string; id: string; date: string; number: number; isClosing: boolean },
  lines: ValidLine[],
) => {
  await db
    .insertInto('journal_lines')
    .values(
      lines.map((l, i) => ({
        ...lineColumns(entry.organizationId, entry.id, l, i),
        date: entry.date,
        entry_number: entry.number,
        is_closing: entry.isClosing,
      })),
    )
    .execute();
};

export type NewPostedEntry = {
  organizationId: string;
  id: string;
  date: string;
  memo: string;
  reference: string | null;
  source: string;
  sourceId: string | null;
  reversesEntryId: string | null;
  isClosing: boolean;
  createdBy: string | null;
  approvedBy: string | null;
  postedBy: string | null;
  postedAt: Date;
};

/**
 * The last statement of a posting: takes the company's next entry number and writes the
 * entry and its lines stamped with it, in one round trip. The counter row it locks (which
 * keeps numbers gap-free and in commit order) is therefore held only from here to the commit,
 * not for the whole posting (issue 20 §4, decision 0046). The lines' statement trigger keeps
 * the balances and checks the lines as before; the balance check still runs at commit.
 *
 * The counter moves only when the entry's date is after the lock date in force: a racing
 * lock-date change either commits first (this update then sees it and writes nothing) or waits
 * for this posting. Undefined when nothing was written (locked, or no ledger).
 */
export const insertNumberedEntry = async (db: Executor, entry: NewPostedEntry, lines: ValidLine[]) => {
  const result = await sql<EntryRow>`
    with n as (
      update ledger_settings set next_entry_number = next_entry_number + 1
       where organization_id = ${entry.organizationId}
         and (lock_date is null or lock_date < ${entry.date}::date)
      returning next_entry_number - 1 as number
    ), e as (
      insert into journal_entries (organization_id, id, number, date, memo, reference, source, source_id, status,
                                   reverses_entry_id, is_closing, created_by, approved_by, posted_by, posted_at)
      select ${entry.organizationId}, ${entry.id}, n.number, ${entry.date}::date, ${entry.memo}, ${entry.reference},
             ${entry.source}, ${entry.sourceId}, 'posted', ${entry.reversesEntryId}, ${entry.isClosing},
             ${entry.createdBy}, ${entry.approvedBy}, ${entry.postedBy}, ${entry.postedAt}::timestamptz
        from n
      returning *
    ), l as (
      insert into journal_lines (organization_id, entry_id, line_no, account_id, date, entry_number, is_closing,
                                 debit, credit, currency, amount, rate, description, contact_id)
      select ${entry.organizationId}, ${entry.id}, u.line_no, u.account_id, ${entry.date}::date, n.number,
             ${entry.isClosing}, u.debit, u.credit, u.currency, u.amount, u.rate, u.description, u.contact_id
        from n, unnest(${lines.map((_, i) => i + 1)}::smallint[], ${lines.map((l) => l.accountId)}::text[],
                       ${lines.map((l) => l.debit)}::bigint[], ${lines.map((l) => l.credit)}::bigint[],
                       ${lines.map((l) => l.currency)}::text[], ${lines.map((l) => l.amount)}::bigint[],
                       ${lines.map((l) => l.rate)}::numeric[], ${lines.map((l) => l.description)}::text[],
                       ${lines.map((l) => l.contactId)}::text[])
          as u(line_no, account_id, debit, credit, currency, amount, rate, description, contact_id)
    )
    select * from e`.execute(db);
  return result.rows[0];
};

/** Writes a draft's lines (a draft may have none yet). */
export const insertDraftLines = async (
  db: Executor,
  organizationId: string,
  entryId: string,
  lines: ValidLine[],
) => {
  if (lines.length === 0) return;
  await db
    .insertInto('journal_draft_lines')
    .values(lines.map((l, i) => lineColumns(organizationId, entryId, l, i)))
    .execute();
};

/** A stored line (posted or draft) as posting input again, as it was given. */
export const toPostingLine = (l: Awaited<ReturnType<typeof selectDraftLines>>[number]): PostingLineInput => ({
  accountId: l.account_id,
  debit: l.debit,
  credit: l.credit,
  ...(l.currency ? { currency: l.currency.trim(), amount: l.amount ?? 0, rate: l.rate ?? '1' } : {}),
  description: l.description,
  contactId: l.contact_id,
});

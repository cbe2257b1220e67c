import type { JournalEntry, JournalLineInput } from '../../../shared/ledger.ts';
import { formatMinorPlain, MoneyParseError, parseMoney } from '../../../shared/money.ts';

// The journal entry editor's rules, kept apart from React so they are tested on their own:
// amounts are typed as decimal text and parsed to minor units by the shared money module,
// the running difference is debits minus credits, and an entry posts only when it is zero.

export type EditorLine = {
  key: string;
  accountId: string;
  debit: string;
  credit: string;
  description: string;
};

let counter = 0;
export const newLine = (partial: Partial<EditorLine> = {}): EditorLine => {
  counter += 1;
  return { key: `line-${counter}`, accountId: '', debit: '', credit: '', description: '', ...partial };
};

export type LineCheck = {
  debit: number;
  credit: number;
  /** Problems with this line, worded for the person typing. */
  errors: { field: 'account' | 'debit' | 'credit'; message: string }[];
  blank: boolean;
};

const parseAmount = (text: string, currency: string): { value: number; error?: string } => {
  if (text.trim() === '') return { value: 0 };
  try {
    return { value: parseMoney(text, currency) };
  } catch (e) {
    if (e instanceof MoneyParseError) return { value: 0, error: e.message };
    throw e;
  }
};

export const checkLine = (line: EditorLine, currency: string): LineCheck => {
  const debit = parseAmount(line.debit, currency);
  const credit = parseAmount(line.credit, currency);
  const errors: LineCheck['errors'] = [];
  if (debit.error) errors.push({ field: 'debit', message: debit.error });
  if (credit.error) errors.push({ field: 'credit', message: credit.error });
  const blank =
    !line.accountId && line.debit.trim() === '' && line.credit.trim() === '' && !line.description.trim();
  if (!blank) {
    if (!line.accountId) errors.push({ field: 'account', message: 'Choose an account.' });
    if (debit.value > 0 && credit.value > 0)
      errors.push({ field: 'credit', message: 'Enter a debit or a credit on a line, not both.' });
    else if (debit.value === 0 && credit.value === 0 && !debit.error && !credit.error)
      errors.push({ field: 'debit', message: 'Enter a debit or a credit amount.' });
  }
  return { debit: debit.value, credit: credit.value, errors, blank };
};

export type EntryCheck = {
  lines: LineCheck[];
  totalDebit: number;
  totalCredit: number;
  /** Debits minus credits, in minor units. Zero means balanced. */
  difference: number;
  /** Why the entry cannot be posted yet; empty when it can. */
  blockers: string[];
  /** Why it cannot even be saved as a draft; empty when it can. */
  draftBlockers: string[];
};

export const checkEntry = (input: { date: string; lines: EditorLine[] }, currency: string): EntryCheck => {
  const lines = input.lines.map((l) => checkLine(l, currency));
  const used = lines.filter((l) => !l.blank);
  const totalDebit = used.reduce((s, l) => s + l.debit, 0);
  const totalCredit = used.reduce((s, l) => s + l.credit, 0);
  const difference = totalDebit - totalCredit;
  const draftBlockers: string[] = [];
  if (!/^\d{4}-\d{2}-\d{2}$/.test(input.date)) draftBlockers.push('Enter the entry date.');
  if (used.length < 2) draftBlockers.push('An entry needs at least two lines.');
  if (used.some((l) => l.errors.length > 0)) draftBlockers.push('Fix the highlighted lines.');
  const blockers = [...draftBlockers];
  if (difference !== 0) blockers.push('Debits and credits must be equal before the entry can be posted.');
  else if (totalDebit === 0 && used.length >= 2) blockers.push('The entry has no amounts.');
  return { lines, totalDebit, totalCredit, difference, blockers, draftBlockers };
};

/** The lines to send to the API: blank lines dropped, amounts in minor units. */
export const toApiLines = (lines: EditorLine[], currency: string): JournalLineInput[] =>
  lines.flatMap((line) => {
    const c = checkLine(line, currency);
    if (c.blank) return [];
    return [
      {
        accountId: line.accountId,
        ...(c.debit > 0 ? { debit: c.debit } : {}),
        ...(c.credit > 0 ? { credit: c.credit } : {}),
        ...(line.description.trim() ? { description: line.description.trim() } : {}),
      },
    ];
  });

/** Editor lines from a saved draft, amounts back to exact decimal text. */
export const fromEntry = (entry: JournalEntry, currency: string): EditorLine[] =>
  entry.lines.map((l) =>
    newLine({
      accountId: l.accountId,
      debit: l.debit > 0 ? formatMinorPlain(l.debit, currency) : '',
      credit: l.credit > 0 ? formatMinorPlain(l.credit, currency) : '',
      description: l.description ?? '',
    }),
  );

/**
 * The amount that would balance the entry on a new line: QuickBooks and Xero pre-fill the
 * next line with it, which saves typing on the common two-line entry.
 */
export const balancingAmount = (check: EntryCheck, currency: string) =>
  check.difference === 0
    ? { debit: '', credit: '' }
    : check.difference > 0
      ? { debit: '', credit: formatMinorPlain(check.difference, currency) }
      : { debit: formatMinorPlain(-check.difference, currency), credit: '' };

/** Accounts matching what was typed: code prefix first, then name words, archived left out. */
export const searchAccounts = <A extends { code: string; name: string; archived: boolean }>(
  accounts: A[],
  query: string,
  limit = 50,
): A[] => {
  const q = query.trim().toLowerCase();
  const active = accounts.filter((a) => !a.archived);
  if (!q) return active.slice(0, limit);
  const byCode = active.filter((a) => a.code.toLowerCase().startsWith(q));
  const words = q.split(/\s+/);
  const byName = active.filter(
    (a) => !byCode.includes(a) && words.every((w) => `${a.code} ${a.name}`.toLowerCase().includes(w)),
  );
  return [...byCode, ...byName].slice(0, limit);
};

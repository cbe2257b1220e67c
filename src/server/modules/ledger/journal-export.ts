import { notFound } from '../../../shared/errors.ts';
import type { AccountTypeName } from '../../../shared/ledger.ts';
import { currencyExponent, minorToDecimalString } from '../../../shared/money.ts';
import { afterKey } from '../../db/cursor.ts';
import { ENTRY_KEY, type Executor, selectPostedLinesByEntry, selectSettings } from './queries.ts';

// Plain-text accounting interop: the journal as an hledger/ledger file, and back. Accounts
// are named "<Type>:<code> <name>" (Assets:1010 Business bank account) so a re-import finds
// them by code; amounts carry the ISO currency code as commodity; foreign-currency postings
// carry their base-currency cost with @@, so `hledger balance -B` / `ledger balance -B`
// report in the base currency exactly as our trial balance does.

const TOP: Record<AccountTypeName, string> = {
  asset: 'Assets',
  liability: 'Liabilities',
  equity: 'Equity',
  income: 'Income',
  expense: 'Expenses',
};

/** A name part safe in a journal file: no colons (hierarchy), no double spaces (amount separator). */
const namePart = (s: string) =>
  s
    .replace(/[:;\t\r\n]/g, '-')
    .replace(/\s{2,}/g, ' ')
    .trim();

export const journalAccountName = (a: { type: AccountTypeName; code: string; name: string }) =>
  `${TOP[a.type]}:${namePart(a.code)} ${namePart(a.name)}`;

const formatAmount = (minor: number, currency: string) =>
  `${minorToDecimalString(minor, currencyExponent(currency))} ${currency}`;

/** One line of text with no ';', which would start a comment in a journal file. */
const oneLine = (s: string) =>
  s
    .replace(/[\r\n]+/g, ' ')
    .replace(/;/g, ',')
    .trim();

/** The journal file in chunks, in date and number order, read in pages so memory stays flat. */
export async function* exportJournal(
  db: Executor,
  organizationId: string,
  range: { from?: string | null; to?: string | null } = {},
): AsyncGenerator<string> {
  const settings = await selectSettings(db, organizationId);
  if (!settings) throw notFound('Company not found.');
  const base = settings.base_currency.trim();
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'code', 'name', 'type'])
    .where('organization_id', '=', organizationId)
    .orderBy('code')
    .execute();
  const names = new Map(accounts.map((a) => [a.id, journalAccountName(a)]));
  const company = await db
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', organizationId)
    .executeTakeFirst();
  let header = `; Kontor journal export: ${oneLine(company?.name ?? organizationId)}\n; Base currency ${base}. Check with: hledger -f FILE balance -B\n\n`;
  for (const a of accounts) header += `account ${names.get(a.id)}\n`;
  yield `${header}\n`;
  let after: { date: string; number: number } | null = null;
  const PAGE = 2000;
  /** One page of posted entries in journal order, after the last one of the page before. */
  const entryPage = (after: { date: string; number: number } | null) => {
    let q = db
      .selectFrom('journal_entries')
      .select(['id', 'number', 'date', 'memo', 'reference'])
      .where('organization_id', '=', organizationId)
      .where('status', '=', 'posted');
    if (range.from) q = q.where('date', '>=', range.from);
    if (range.to) q = q.where('date', '<=', range.to);
    return afterKey(q, ENTRY_KEY, after && [after.date, after.number])
      .limit(PAGE)
      .execute();
  };
  for (;;) {
    const entries = await entryPage(after);
    if (entries.length === 0) break;
    const byEntry = await selectPostedLinesByEntry(
      db,
      organizationId,
      entries.map((e) => e.id),
    );
    let chunk = '';
    for (const e of entries) {
      const memo = oneLine(e.memo) || `Entry ${e.number}`;
      chunk += `${e.date} * (${e.number}) ${memo}${e.reference ? `  ; ref: ${oneLine(e.reference)}` : ''}\n`;
      for (const l of byEntry.get(e.id) ?? []) {
        const sign = l.debit > 0 ? 1 : -1;
        const baseMinor = l.debit > 0 ? l.debit : -l.credit;
        const foreign = l.currency?.trim();
        const amount =
          foreign && l.amount !== null
            ? `${formatAmount(sign * l.amount, foreign)} @@ ${formatAmount(Math.abs(baseMinor), base)}`
            : formatAmount(baseMinor, base);
        chunk += `    ${names.get(l.account_id)}  ${amount}${l.description ? `  ; ${oneLine(l.description)}` : ''}\n`;
      }
      chunk += '\n';
    }
    yield chunk;
    const last = entries.at(-1)!;
    after = { date: last.date, number: last.number! };
    if (entries.length < PAGE) break;
  }
}

export const exportJournalText = async (db: Executor, organizationId: string) => {
  let text = '';
  for await (const chunk of exportJournal(db, organizationId)) text += chunk;
  return text;
};

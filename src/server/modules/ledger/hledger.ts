import { sql } from 'kysely';
import { badRequest, notFound } from '../../../shared/errors.ts';
import type { AccountTypeName } from '../../../shared/ledger.ts';
import {
  MoneyParseError,
  currencyExponent,
  divideRoundHalfAwayFromZero,
  isCurrencyCode,
  minorToDecimalString,
  parseDecimalToMinor,
} from '../../../shared/money.ts';
import { recordAudit } from '../audit/record.ts';
import { isIsoDate } from './dates.ts';
import { type PostingLineInput, inTransaction, postJournalEntry } from './posting.ts';
import { type Executor, selectSettings } from './queries.ts';

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
  for (;;) {
    let q = db
      .selectFrom('journal_entries')
      .select(['id', 'number', 'date', 'memo', 'reference'])
      .where('organization_id', '=', organizationId)
      .where('status', '=', 'posted');
    if (range.from) q = q.where('date', '>=', range.from);
    if (range.to) q = q.where('date', '<=', range.to);
    if (after) q = q.where(sql<boolean>`(date, number) > (${after.date}::date, ${after.number}::bigint)`);
    const entries = await q.orderBy('date').orderBy('number').limit(PAGE).execute();
    if (entries.length === 0) break;
    const lines = await db
      .selectFrom('journal_lines')
      .select(['entry_id', 'line_no', 'account_id', 'debit', 'credit', 'currency', 'amount', 'description'])
      .where('organization_id', '=', organizationId)
      .where(
        'entry_id',
        'in',
        entries.map((e) => e.id),
      )
      .orderBy('entry_id')
      .orderBy('line_no')
      .execute();
    const byEntry = new Map<string, typeof lines>();
    for (const l of lines) {
      const list = byEntry.get(l.entry_id);
      if (list) list.push(l);
      else byEntry.set(l.entry_id, [l]);
    }
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

// --- Import ----------------------------------------------------------------------------

const SYMBOLS: Record<string, string> = {
  $: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
  C$: 'CAD',
  A$: 'AUD',
};

type ParsedAmount = { minor: number; currency: string };
type ParsedPosting = {
  account: string;
  amount: ParsedAmount | null;
  cost: ParsedAmount | null;
  comment: string | null;
};
type ParsedTransaction = {
  line: number;
  date: string;
  code: string | null;
  description: string;
  postings: ParsedPosting[];
};

const importError = (line: number, message: string) =>
  badRequest('journal_invalid', `Line ${line}: ${message}`, { line });

const parseAmount = (text: string, line: number, base: string): ParsedAmount => {
  let t = text.trim();
  let negative = false;
  if (t.startsWith('-')) {
    negative = true;
    t = t.slice(1).trim();
  }
  let currency: string | null = null;
  const quoted = /^"([^"]+)"\s*(.*)$/.exec(t) ?? /^(.*?)\s*"([^"]+)"$/.exec(t);
  let number = t;
  if (quoted) {
    const [, a, b] = quoted;
    if (/^[\d.,-]/.test(a ?? '')) {
      number = a!;
      currency = b!;
    } else {
      currency = a!;
      number = b!;
    }
  } else {
    const prefix = /^([^\d\s.,-]+)\s*(-?[\d.,]+)$/.exec(t);
    const suffix = /^(-?[\d.,]+)\s*([^\d\s.,-]+)$/.exec(t);
    if (prefix) {
      currency = prefix[1]!;
      number = prefix[2]!;
    } else if (suffix) {
      number = suffix[1]!;
      currency = suffix[2]!;
    } else if (/^-?[\d.,]+$/.test(t)) {
      number = t;
    } else {
      throw importError(line, `"${text.trim()}" is not an amount.`);
    }
  }
  if (number.startsWith('-')) {
    negative = !negative;
    number = number.slice(1);
  }
  const code = currency === null ? base : (SYMBOLS[currency] ?? currency.toUpperCase());
  if (!isCurrencyCode(code))
    throw importError(
      line,
      `"${currency}" is not a currency this ledger knows; use an ISO code such as USD.`,
    );
  try {
    const minor = parseDecimalToMinor(number, currencyExponent(code));
    return { minor: negative ? -minor : minor, currency: code };
  } catch (error) {
    if (error instanceof MoneyParseError) throw importError(line, error.message);
    throw error;
  }
};

/** Parses the transactions of an hledger/ledger journal; directives and periodic rules are skipped. */
export const parseJournal = (text: string, base: string): ParsedTransaction[] => {
  const out: ParsedTransaction[] = [];
  let current: ParsedTransaction | null = null;
  let skippingBlock = false;
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const n = i + 1;
    if (/^\s*$/.test(raw)) {
      current = null;
      skippingBlock = false;
      return;
    }
    if (/^[;#*%|]/.test(raw)) return; // top-level comment
    if (/^\S/.test(raw)) {
      current = null;
      skippingBlock = false;
      const header =
        /^(\d{4}[-/.]\d{1,2}[-/.]\d{1,2})(?:=\S+)?\s*(?:([*!])\s*)?(?:\(([^)]*)\)\s*)?(.*)$/.exec(raw);
      if (!header) {
        // A directive (account, commodity, P, include, ~ periodic, = automated): skip it and its indented body.
        skippingBlock = true;
        return;
      }
      const [y, m, d] = header[1]!.split(/[-/.]/).map(Number) as [number, number, number];
      const date = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
      if (!isIsoDate(date)) throw importError(n, `${header[1]} is not a real date.`);
      const description = (header[4] ?? '')
        .split(/\s;|\t;/)[0]!
        .replace(/\s*;.*$/, '')
        .trim();
      current = { line: n, date, code: header[3] ?? null, description, postings: [] };
      out.push(current);
      return;
    }
    if (skippingBlock || current === null) return;
    const body = raw.trim();
    if (body.startsWith(';') || body.startsWith('#')) return; // transaction comment
    const tx: ParsedTransaction = current;
    const withoutStatus = body.replace(/^[*!]\s+/, '');
    const commentAt = withoutStatus.search(/;/);
    const comment = commentAt >= 0 ? withoutStatus.slice(commentAt + 1).trim() || null : null;
    const main = (commentAt >= 0 ? withoutStatus.slice(0, commentAt) : withoutStatus).trimEnd();
    const split = /^(.*?)(?: {2,}|\t)\s*(.+)$/.exec(main);
    let account = (split ? split[1]! : main).trim();
    if (/^[[(].*[\])]$/.test(account)) account = account.slice(1, -1); // virtual postings count as real ones
    let amount: ParsedAmount | null = null;
    let cost: ParsedAmount | null = null;
    if (split) {
      let amountText = split[2]!.replace(/\s*=\s*[^@]*$/, '').trim(); // drop balance assertions
      if (amountText !== '') {
        const priced = /^(.*?)\s*(@@?)\s*(.+)$/.exec(amountText);
        if (priced) {
          amountText = priced[1]!;
          amount = parseAmount(amountText, n, base);
          const price = parseAmount(priced[3]!, n, base);
          const totalMinor =
            priced[2] === '@@'
              ? Math.abs(price.minor)
              : Number(
                  divideRoundHalfAwayFromZero(
                    BigInt(Math.abs(amount.minor)) * BigInt(Math.abs(price.minor)),
                    10n ** BigInt(currencyExponent(amount.currency)),
                  ),
                );
          cost = { minor: Math.sign(amount.minor) * totalMinor, currency: price.currency };
        } else {
          amount = parseAmount(amountText, n, base);
        }
      }
    }
    tx.postings.push({ account, amount, cost, comment });
  });
  return out;
};

const TYPE_BY_TOP: Record<string, AccountTypeName> = {
  assets: 'asset',
  asset: 'asset',
  liabilities: 'liability',
  liability: 'liability',
  equity: 'equity',
  income: 'income',
  revenue: 'income',
  revenues: 'income',
  expenses: 'expense',
  expense: 'expense',
};

const DEFAULT_SUBTYPE: Record<AccountTypeName, string> = {
  asset: 'current_asset',
  liability: 'current_liability',
  equity: 'owner_equity',
  income: 'sales',
  expense: 'operating_expense',
};

/** Exact rate as decimal text with 10 places: base minor per foreign minor, scaled by the exponents. */
const rateOf = (amount: ParsedAmount, cost: ParsedAmount) => {
  const scale = 10n ** 10n;
  const num = BigInt(Math.abs(cost.minor)) * 10n ** BigInt(currencyExponent(amount.currency)) * scale;
  const den = BigInt(Math.abs(amount.minor)) * 10n ** BigInt(currencyExponent(cost.currency));
  return minorToDecimalString(divideRoundHalfAwayFromZero(num, den), 10);
};

/**
 * Imports a journal file: every transaction becomes a posted entry, unknown accounts are
 * created from their names. Nothing is written unless the whole file is valid.
 */
export const importJournal = (
  db: Executor,
  organizationId: string,
  actorUserId: string | null,
  text: string,
) =>
  inTransaction(db, async (trx) => {
    const settings = await selectSettings(trx, organizationId);
    if (!settings) throw notFound('Company not found.');
    const base = settings.base_currency.trim();
    const transactions = parseJournal(text, base);
    if (transactions.length === 0) throw badRequest('journal_empty', 'The file has no transactions.');
    const accounts = await trx
      .selectFrom('accounts')
      .select(['id', 'code', 'name', 'type'])
      .where('organization_id', '=', organizationId)
      .execute();
    const byCode = new Map(accounts.map((a) => [a.code, a]));
    const byName = new Map(accounts.map((a) => [journalAccountName(a).toLowerCase(), a]));
    const usedCodes = new Set(accounts.map((a) => a.code));
    let createdAccounts = 0;
    const resolve = async (name: string, line: number) => {
      const known = byName.get(name.toLowerCase());
      if (known) return known.id;
      const [top, ...rest] = name.split(':');
      const type = TYPE_BY_TOP[(top ?? '').trim().toLowerCase()];
      if (!type) {
        throw importError(
          line,
          `"${name}" must start with Assets, Liabilities, Equity, Income or Expenses so its type is known.`,
        );
      }
      const leaf = rest.join(':').trim();
      // "1010 Business bank account": a leading word with a digit in it is the account code.
      const codeMatch = /^(?=\S*\d)(\S{1,20}) (.+)$/.exec(leaf);
      if (codeMatch && rest.length === 1) {
        const byItsCode = byCode.get(codeMatch[1]!);
        if (byItsCode && byItsCode.type === type) return byItsCode.id;
      }
      const fullName = (leaf || top!).replace(/:/g, ' / ').slice(0, 120);
      let code = codeMatch && rest.length === 1 && !usedCodes.has(codeMatch[1]!) ? codeMatch[1]! : '';
      const accountName = code ? codeMatch![2]!.slice(0, 120) : fullName;
      for (let k = 1; !code; k += 1) {
        const candidate = `${type.slice(0, 1).toUpperCase()}${String(k).padStart(4, '0')}`;
        if (!usedCodes.has(candidate)) code = candidate;
      }
      usedCodes.add(code);
      const id = crypto.randomUUID();
      await trx
        .insertInto('accounts')
        .values({
          organization_id: organizationId,
          id,
          code,
          name: accountName,
          type,
          subtype: DEFAULT_SUBTYPE[type],
          parent_id: null,
          currency: base,
          description: `Imported from a journal file as ${name}`,
          system_key: null,
        })
        .execute();
      const created = { id, code, name: accountName, type };
      byName.set(name.toLowerCase(), created);
      byCode.set(code, created);
      createdAccounts += 1;
      return id;
    };
    let entries = 0;
    for (const tx of transactions) {
      if (tx.postings.length === 0) throw importError(tx.line, 'the transaction has no postings.');
      const elided = tx.postings.filter((p) => p.amount === null);
      if (elided.length > 1) throw importError(tx.line, 'only one posting may leave out its amount.');
      const lines: PostingLineInput[] = [];
      let sum = 0;
      for (const p of tx.postings) {
        if (p.amount === null) continue;
        const accountId = await resolve(p.account, tx.line);
        let baseMinor: number;
        if (p.amount.currency === base) {
          baseMinor = p.amount.minor;
        } else {
          if (!p.cost || p.cost.currency !== base) {
            throw importError(
              tx.line,
              `a ${p.amount.currency} posting needs its ${base} cost (write "@@ total ${base}" or "@ rate ${base}").`,
            );
          }
          baseMinor = p.cost.minor;
        }
        sum += baseMinor;
        if (baseMinor === 0) continue;
        lines.push({
          accountId,
          ...(baseMinor > 0 ? { debit: baseMinor } : { credit: -baseMinor }),
          ...(p.amount.currency !== base
            ? {
                currency: p.amount.currency,
                amount: Math.abs(p.amount.minor),
                rate: rateOf(p.amount, p.cost!),
              }
            : {}),
          description: p.comment?.slice(0, 500) ?? null,
        });
      }
      if (elided.length === 1 && sum !== 0) {
        const accountId = await resolve(elided[0]!.account, tx.line);
        lines.push({ accountId, ...(sum > 0 ? { credit: sum } : { debit: -sum }) });
        sum = 0;
      }
      if (sum !== 0)
        throw importError(
          tx.line,
          `the postings do not balance (off by ${minorToDecimalString(sum, currencyExponent(base))} ${base}).`,
        );
      if (lines.length === 0) continue;
      await postJournalEntry(trx, {
        organizationId,
        date: tx.date,
        memo: tx.description.slice(0, 1000),
        reference: tx.code ? `imported #${tx.code}`.slice(0, 100) : null,
        source: 'manual',
        lines,
        actorUserId,
      }).catch((error) => {
        if (error instanceof Error && 'code' in error) {
          (error as Error).message = `Transaction on line ${tx.line}: ${error.message}`;
        }
        throw error;
      });
      entries += 1;
    }
    await recordAudit(trx, {
      organizationId,
      actorUserId,
      action: 'ledger.journal_imported',
      entityType: 'ledger',
      entityId: organizationId,
      after: { entries, createdAccounts },
    });
    return { entries, createdAccounts };
  });

import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { AppError, badRequest, conflict, notFound } from '../../../shared/errors.ts';
import type { AccountTypeName, JournalImportResult } from '../../../shared/ledger.ts';
import { DEFAULT_SUBTYPE } from '../../../shared/ledger.ts';
import {
  currencyExponent,
  divideRoundHalfAwayFromZero,
  isCurrencyCode,
  minorToDecimalString,
} from '../../../shared/money.ts';
import { recordAudit } from '../audit/record.ts';
import {
  type Amount,
  type Assertion,
  JournalSyntaxError,
  type Transaction,
  parseJournalText,
} from './journal-parse.ts';
import {
  type PostJournalEntryInput,
  type PostingLineInput,
  inTransaction,
  postJournalEntries,
} from './posting.ts';
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
// The syntax is read by journal-parse.ts; here amounts become the company's currency,
// elided amounts, balance assignments and automated postings are filled in, balance
// assertions are checked, accounts are found or created, and the entries are posted, all in
// one database transaction. Anything Kontor cannot take exactly is refused naming its line.

const SYMBOLS: Record<string, string> = {
  $: 'USD',
  US$: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': 'JPY',
  '₹': 'INR',
  '₽': 'RUB',
  '₩': 'KRW',
  '₪': 'ILS',
  '₺': 'TRY',
  '₴': 'UAH',
  '₫': 'VND',
  '฿': 'THB',
  zł: 'PLN',
  Kč: 'CZK',
  C$: 'CAD',
  CA$: 'CAD',
  A$: 'AUD',
  AU$: 'AUD',
  NZ$: 'NZD',
  HK$: 'HKD',
  R$: 'BRL',
};

/** The currency a "$" means: the company's own when its symbol is "$" (CAD, AUD...), else USD. */
const dollarFor = (base: string) => {
  const symbol = new Intl.NumberFormat('en', {
    style: 'currency',
    currency: base,
    currencyDisplay: 'narrowSymbol',
  })
    .formatToParts(0)
    .find((p) => p.type === 'currency')?.value;
  return symbol === '$' ? base : 'USD';
};

export type { JournalImportResult };

const importError = (line: number, message: string) =>
  badRequest('journal_invalid', `Line ${line}: ${message}`, { line });

/** The file as text for the duplicate check: BOM, line endings and trailing blanks do not count. */
export const journalFingerprint = (text: string) =>
  createHash('sha256')
    .update(
      text
        .replace(/^\uFEFF/, '')
        .split(/\r\n|\n|\r/)
        .map((l) => l.replace(/[ \t]+$/, ''))
        .join('\n')
        .replace(/\n+$/, ''),
    )
    .digest('hex');

type Money = { currency: string; minor: bigint };
type Work = {
  line: number;
  account: string;
  virtual: '' | '(' | '[';
  amount: Money | null;
  /** The posting's value in the base currency (its amount, or its cost for a foreign amount). */
  cost: Money | null;
  costRounded: boolean;
  assertion: Assertion | null;
  comment: string | null;
  generated: boolean;
};

const TOP_TYPES: Record<string, AccountTypeName> = {
  assets: 'asset',
  asset: 'asset',
  liabilities: 'liability',
  liability: 'liability',
  debts: 'liability',
  debt: 'liability',
  equity: 'equity',
  income: 'income',
  revenue: 'income',
  revenues: 'income',
  expenses: 'expense',
  expense: 'expense',
};

const pow10 = (n: number) => 10n ** BigInt(n);

/** Exact rate as decimal text with 10 places: base units per foreign unit. */
const rateOf = (amount: Money, cost: Money) => {
  const num =
    (cost.minor < 0n ? -cost.minor : cost.minor) * pow10(currencyExponent(amount.currency)) * pow10(10);
  const den = (amount.minor < 0n ? -amount.minor : amount.minor) * pow10(currencyExponent(cost.currency));
  return minorToDecimalString(divideRoundHalfAwayFromZero(num, den), 10);
};

const money = (m: Money) => `${minorToDecimalString(m.minor, currencyExponent(m.currency))} ${m.currency}`;

/** Reads, checks and converts a journal for a company whose base currency is `base`. */
export const planJournalImport = (text: string, base: string) => {
  let parsed: ReturnType<typeof parseJournalText>;
  try {
    parsed = parseJournalText(text);
  } catch (error) {
    if (error instanceof JournalSyntaxError) throw importError(error.line, error.reason);
    throw error;
  }
  const notices = [...parsed.notices];
  const currencies = new Map<string, string>();
  const dollar = dollarFor(base);
  const currencyOf = (symbol: string, line: number) => {
    const known = currencies.get(symbol);
    if (known) return known;
    let code: string;
    if (symbol === '') {
      code = base;
      notices.push({
        line,
        message: `amounts without a commodity are taken as ${base}, the company's currency`,
      });
    } else {
      const mapped = symbol === '$' ? dollar : (SYMBOLS[symbol] ?? symbol);
      if (!isCurrencyCode(mapped)) {
        throw importError(
          line,
          `"${symbol}" is not a currency Kontor knows; it keeps money in ISO currencies (USD, EUR, or a symbol such as $ € £), so it cannot import amounts in "${symbol}".`,
        );
      }
      code = mapped;
      if (mapped !== symbol) notices.push({ line, message: `"${symbol}" read as ${mapped}` });
    }
    currencies.set(symbol, code);
    return code;
  };
  const toMoney = (a: Amount): Money => {
    const currency = currencyOf(a.symbol, a.line);
    const exp = currencyExponent(currency);
    const { units, scale } = a.value;
    if (scale <= exp) return { currency, minor: units * pow10(exp - scale) };
    const factor = pow10(scale - exp);
    if (units % factor !== 0n) {
      throw importError(
        a.line,
        `${minorToDecimalString(units, scale)} ${currency} has more decimals than ${currency} has (${exp}); Kontor will not round it.`,
      );
    }
    return { currency, minor: units / factor };
  };

  // Balances for assertions: account → currency → minor, in date order (as hledger checks them).
  const running = new Map<string, Map<string, bigint>>();
  const balanceOf = (account: string, currency: string, withSubs: boolean) => {
    let sum = 0n;
    for (const [name, byCur] of running) {
      if (name === account || (withSubs && name.startsWith(`${account}:`))) sum += byCur.get(currency) ?? 0n;
    }
    return sum;
  };
  const othersNonZero = (account: string, currency: string, withSubs: boolean) => {
    const totals = new Map<string, bigint>();
    for (const [name, byCur] of running) {
      if (name === account || (withSubs && name.startsWith(`${account}:`)))
        for (const [c, v] of byCur) totals.set(c, (totals.get(c) ?? 0n) + v);
    }
    return [...totals].find(([c, v]) => c !== currency && v !== 0n);
  };
  const add = (account: string, m: Money) => {
    let byCur = running.get(account);
    if (!byCur) {
      byCur = new Map();
      running.set(account, byCur);
    }
    byCur.set(m.currency, (byCur.get(m.currency) ?? 0n) + m.minor);
  };

  const ordered = [...parsed.transactions].sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : a.index - b.index,
  );
  const planned: {
    tx: Transaction;
    postings: Work[];
  }[] = [];
  for (const tx of ordered) {
    const work: Work[] = tx.postings.map((p) => ({
      line: p.line,
      account: p.account,
      virtual: p.virtual,
      amount: p.amount ? toMoney(p.amount) : null,
      cost: null,
      costRounded: false,
      assertion: p.assertion,
      comment: p.comment,
      generated: false,
    }));
    // Costs written with @ / @@.
    tx.postings.forEach((p, i) => {
      const w = work[i]!;
      if (!p.price || !w.amount) return;
      const priceCurrency = currencyOf(p.price.amount.symbol, p.line);
      if (w.amount.currency === base) {
        if (priceCurrency === base) return; // a base amount priced in base: its own value
        throw importError(
          p.line,
          `a ${base} amount priced in ${priceCurrency}: Kontor books ${base} amounts at face value; remove the price.`,
        );
      }
      if (priceCurrency !== base) {
        throw importError(
          p.line,
          `the cost of ${money(w.amount)} is in ${priceCurrency}; Kontor needs it in ${base}, the company's currency.`,
        );
      }
      const sign = w.amount.minor < 0n ? -1n : 1n;
      if (p.price.total) {
        const total = toMoney(p.price.amount);
        w.cost = { currency: base, minor: sign * (total.minor < 0n ? -total.minor : total.minor) };
      } else {
        // amount × unit price, exact in the price's own decimals, then to the base currency's cents.
        const unit = p.price.amount.value;
        const amountExp = currencyExponent(w.amount.currency);
        const baseExp = currencyExponent(base);
        const absUnit = unit.units < 0n ? -unit.units : unit.units;
        const num = (w.amount.minor < 0n ? -w.amount.minor : w.amount.minor) * absUnit * pow10(baseExp);
        const den = pow10(amountExp + unit.scale);
        const minor = divideRoundHalfAwayFromZero(num, den);
        w.cost = { currency: base, minor: sign * minor };
        if (minor * den !== num) {
          w.costRounded = true;
          notices.push({
            line: p.line,
            message: `cost ${minorToDecimalString(num, amountExp + unit.scale + baseExp)} ${base} rounded to ${money({ currency: base, minor })} (whole cents)`,
          });
        }
      }
    });
    // Balance assignments: a posting with only "= AMOUNT" gets what brings the account there.
    work.forEach((w, i) => {
      if (w.amount || !w.assertion) return;
      if (w.assertion.op.endsWith('*')) {
        throw importError(
          w.line,
          'a balance assignment including sub-accounts (=* / ==*) cannot be computed; write the amount.',
        );
      }
      const target = toMoney(w.assertion.amount);
      let current = balanceOf(w.account, target.currency, false);
      for (const earlier of work.slice(0, i))
        if (earlier.account === w.account && earlier.amount?.currency === target.currency)
          current += earlier.amount.minor;
      if (target.currency !== base) {
        throw importError(
          w.line,
          `a balance assignment in ${target.currency} needs its ${base} cost; write the amount with @@.`,
        );
      }
      w.amount = { currency: target.currency, minor: target.minor - current };
    });
    const baseValue = (w: Work) => (w.amount!.currency === base ? w.amount!.minor : (w.cost?.minor ?? null));
    const fillGroup = (group: Work[]) => {
      const elided = group.filter((w) => !w.amount);
      if (elided.length > 1)
        throw importError(elided[1]!.line, 'only one posting of a transaction may leave out its amount.');
      const withAmounts = group.filter((w) => w.amount);
      const foreign = withAmounts.filter((w) => baseValue(w) === null);
      if (elided.length === 0 && foreign.length === 1) {
        const currenciesUsed = new Set(withAmounts.map((w) => w.amount!.currency));
        if (currenciesUsed.size === 2 && currenciesUsed.has(base)) {
          // Two commodities and no price: both tools infer it, here the one foreign amount costs the rest.
          let sum = 0n;
          for (const w of withAmounts) if (w !== foreign[0]) sum += w.amount!.minor;
          foreign[0]!.cost = { currency: base, minor: -sum };
          notices.push({
            line: foreign[0]!.line,
            message: `cost of ${money(foreign[0]!.amount!)} taken from the other postings: ${money({ currency: base, minor: -sum })}`,
          });
        }
      }
      for (const w of withAmounts) {
        if (baseValue(w) === null)
          throw importError(
            w.line,
            `${money(w.amount!)} is not in ${base}, the company's currency, and has no cost; write its ${base} cost ("@@ total ${base}" or "@ rate ${base}").`,
          );
      }
      const sum = withAmounts.reduce((s, w) => s + baseValue(w)!, 0n);
      if (elided.length === 1) elided[0]!.amount = { currency: base, minor: -sum };
      else if (sum !== 0n) {
        throw importError(
          tx.line,
          `the postings do not balance (off by ${money({ currency: base, minor: sum })}).`,
        );
      }
    };
    const real = work.filter((w) => w.virtual === '');
    const balancedVirtual = work.filter((w) => w.virtual === '[');
    for (const w of work.filter((x) => x.virtual === '(')) {
      if (!w.amount) throw importError(w.line, 'a virtual posting in parentheses needs an amount.');
    }
    fillGroup(real);
    if (balancedVirtual.length) fillGroup(balancedVirtual);
    // Automated transactions defined above this one, as ledger applies them.
    for (const rule of parsed.autoRules) {
      if (rule.fromIndex > tx.index) continue;
      for (const matched of work.filter((w) => !w.generated && rule.matches(w.account))) {
        for (const ap of rule.postings) {
          let amount: Money;
          if (ap.multiplier) {
            const product = matched.amount!.minor * ap.multiplier.units;
            const factor = pow10(ap.multiplier.scale);
            if (product % factor !== 0n) {
              throw importError(
                ap.line,
                `this automated posting (for line ${matched.line}) gives ${minorToDecimalString(product, ap.multiplier.scale + currencyExponent(matched.amount!.currency))} ${matched.amount!.currency}, which is not a whole cent; Kontor will not round it.`,
              );
            }
            amount = { currency: matched.amount!.currency, minor: product / factor };
          } else amount = toMoney(ap.amount!);
          if (amount.currency !== base)
            throw importError(
              ap.line,
              `this automated posting (for line ${matched.line}) gives ${money(amount)}, which is not in ${base}.`,
            );
          work.push({
            line: ap.line,
            account: ap.account,
            virtual: ap.virtual,
            amount,
            cost: null,
            costRounded: false,
            assertion: null,
            comment: `automated posting (rule on line ${rule.line})`,
            generated: true,
          });
        }
      }
    }
    const generatedReal = work.filter((w) => w.generated && w.virtual === '');
    const generatedBracket = work.filter((w) => w.generated && w.virtual === '[');
    for (const [all, gen] of [
      [work.filter((w) => w.virtual === ''), generatedReal],
      [work.filter((w) => w.virtual === '['), generatedBracket],
    ] as const) {
      if (gen.length === 0) continue;
      const sum = all.reduce((s, w) => s + baseValue(w)!, 0n);
      if (sum !== 0n)
        throw importError(
          gen[0]!.line,
          `the automated postings make the transaction on line ${tx.line} unbalanced (off by ${money({ currency: base, minor: sum })}).`,
        );
    }
    for (const w of work) {
      if (w.virtual === '(' && w.amount!.minor !== 0n) {
        throw importError(
          w.line,
          `(${w.account}) is an unbalanced virtual posting of ${money(w.amount!)}${w.generated ? ` (added to the transaction on line ${tx.line} by the automated transaction)` : ''}: it has no other side, and Kontor's ledger always balances. Write it as a real posting with its counter-account.`,
        );
      }
    }
    // Running balances and assertions, posting by posting.
    for (const w of work) {
      add(w.account, w.amount!);
      const a = w.assertion;
      if (!a) continue;
      const target = toMoney(a.amount);
      const withSubs = a.op.endsWith('*');
      const actual = balanceOf(w.account, target.currency, withSubs);
      if (actual !== target.minor) {
        throw importError(
          w.line,
          `balance assertion failed: ${w.account} is ${money({ currency: target.currency, minor: actual })} here, the file says ${money(target)}.`,
        );
      }
      if (a.op.startsWith('==')) {
        const other = othersNonZero(w.account, target.currency, withSubs);
        if (other)
          throw importError(
            w.line,
            `balance assertion failed: ${w.account} also holds ${money({ currency: other[0], minor: other[1] })}, the file says it holds only ${money(target)}.`,
          );
      }
    }
    planned.push({ tx, postings: work });
  }
  return { planned, parsed, notices };
};

/**
 * Imports a journal file: every transaction becomes a posted entry, unknown accounts are
 * created from their names. Nothing is written unless the whole file is valid; the same file
 * a second time is refused (409 journal_already_imported).
 */
export const importJournal = (
  db: Executor,
  organizationId: string,
  actorUserId: string | null,
  text: string,
): Promise<JournalImportResult> =>
  inTransaction(db, async (trx) => {
    const settings = await selectSettings(trx, organizationId);
    if (!settings) throw notFound('Company not found.');
    const base = settings.base_currency.trim();
    const fingerprint = journalFingerprint(text);
    const already = await trx
      .selectFrom('journal_imports')
      .select(['created_at', 'entries'])
      .where('organization_id', '=', organizationId)
      .where('fingerprint', '=', fingerprint)
      .executeTakeFirst();
    if (already) throw alreadyImported(already);
    const { planned, parsed, notices } = planJournalImport(text, base);
    if (planned.length === 0) throw badRequest('journal_empty', 'The file has no transactions.');

    // Account names: Kontor's are unique ignoring case, so two spellings of one name are refused.
    const spellings = new Map<string, string>();
    for (const { postings } of planned)
      for (const w of postings) {
        const key = w.account.toLowerCase();
        const seen = spellings.get(key);
        if (seen === undefined) spellings.set(key, w.account);
        else if (seen !== w.account)
          throw importError(
            w.line,
            `"${w.account}" and "${seen}" differ only in letter case; hledger and ledger keep them apart, Kontor's account names ignore case. Use one spelling.`,
          );
      }

    const accounts = await trx
      .selectFrom('accounts')
      .select(['id', 'code', 'name', 'type'])
      .where('organization_id', '=', organizationId)
      .execute();
    const byCode = new Map(accounts.map((a) => [a.code, a]));
    const byExportName = new Map(accounts.map((a) => [journalAccountName(a).toLowerCase(), a]));
    const byName = new Map(accounts.map((a) => [a.name.toLowerCase(), a]));
    const usedCodes = new Set(accounts.map((a) => a.code));
    const mapping = new Map<string, JournalImportResult['accounts'][number]>();
    const typeOf = (name: string): AccountTypeName | undefined => {
      const parts = name.split(':');
      for (let k = parts.length; k > 0; k -= 1) {
        const declared = parsed.accountTypes.get(parts.slice(0, k).join(':'));
        if (declared) return declared;
      }
      return TOP_TYPES[parts[0]!.trim().toLowerCase()];
    };
    const resolve = async (name: string, line: number) => {
      const done = mapping.get(name);
      if (done) return done.accountId;
      const remember = (a: { id: string; code: string; name: string }, created: boolean) => {
        mapping.set(name, { journalName: name, accountId: a.id, code: a.code, name: a.name, created });
        return a.id;
      };
      const exported = byExportName.get(name.toLowerCase());
      if (exported) return remember(exported, false);
      const type = typeOf(name);
      if (!type) {
        throw importError(
          line,
          `"${name}" must start with Assets, Liabilities, Equity, Income (or Revenue) or Expenses, or be declared with "account NAME  ; type:A" (A, L, E, R, X), so its type is known.`,
        );
      }
      const [top, ...rest] = name.split(':');
      const typedByTop = TOP_TYPES[top!.trim().toLowerCase()] === type;
      const leaf = rest.join(':').trim();
      // "Assets:1010 Business bank account" (our own export): a leading word with a digit is the code.
      const codeMatch = /^(?=\S*\d)(\S{1,20}) (.+)$/.exec(leaf);
      if (codeMatch && rest.length === 1) {
        const byItsCode = byCode.get(codeMatch[1]!);
        if (byItsCode && byItsCode.type === type) return remember(byItsCode, false);
      }
      const useCode = codeMatch && rest.length === 1 && !usedCodes.has(codeMatch[1]!);
      const candidates = [
        useCode
          ? codeMatch[2]!
          : typedByTop && leaf
            ? leaf
                .split(':')
                .map((s) => s.trim())
                .join(' / ')
            : name
                .split(':')
                .map((s) => s.trim())
                .join(' / '),
        name
          .split(':')
          .map((s) => s.trim())
          .join(' / '),
      ];
      let accountName: string | null = null;
      for (const candidate of candidates) {
        const existing = byName.get(candidate.toLowerCase());
        if (existing && existing.type === type && !useCode) return remember(existing, false);
        if (!existing) {
          accountName = candidate;
          break;
        }
      }
      if (accountName === null) {
        throw importError(
          line,
          `"${name}" would be named "${candidates[1]}", but that name is taken by another kind of account in this company.`,
        );
      }
      if (accountName.length > 120)
        throw importError(line, `"${name}" is longer than the 120 characters an account name may have.`);
      let code = useCode ? codeMatch[1]! : '';
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
          description: `Imported from a journal file as ${name}`.slice(0, 500),
          system_key: null,
        })
        .execute()
        .catch((error) => {
          if ((error as { code?: string }).code === '23505')
            throw conflict(
              'account_name_taken',
              `Line ${line}: the account "${accountName}" (or its code ${code}) was created by another change at the same time; nothing was imported. Import the file again.`,
            );
          throw error;
        });
      const created = { id, code, name: accountName, type };
      byName.set(accountName.toLowerCase(), created);
      byCode.set(code, created);
      return remember(created, true);
    };

    /** Text longer than Kontor keeps is cut, and the cut is a notice. */
    const clip = (text: string | null, max: number, line: number, what: string) => {
      if (text === null || text.length <= max) return text;
      notices.push({ line, message: `${what} cut to its first ${max} characters` });
      return text.slice(0, max);
    };
    const entries: Omit<PostJournalEntryInput, 'organizationId'>[] = [];
    const entryLines: number[] = [];
    /** For each entry, the file line of each of its ledger lines. */
    const postingLinesOf: number[][] = [];
    for (const { tx, postings } of planned) {
      const lines: PostingLineInput[] = [];
      const lineRefs: number[] = [];
      for (const w of postings) {
        const value = w.amount!.currency === base ? w.amount!.minor : w.cost!.minor;
        if (value === 0n && w.amount!.minor === 0n) {
          await resolve(w.account, w.line);
          continue;
        }
        if (w.amount!.currency !== base && (w.amount!.minor === 0n || value === 0n)) {
          throw importError(
            w.line,
            `${money(w.amount!)} at a cost of ${money({ currency: base, minor: value })} has no exchange rate; write a non-zero amount and cost.`,
          );
        }
        const accountId = await resolve(w.account, w.line);
        const minor = Number(value < 0n ? -value : value);
        if (!Number.isSafeInteger(minor)) throw importError(w.line, 'the amount is too large.');
        lineRefs.push(w.line);
        lines.push({
          accountId,
          ...(value > 0n || (value === 0n && w.amount!.minor > 0n) ? { debit: minor } : { credit: minor }),
          ...(w.amount!.currency !== base
            ? {
                currency: w.amount!.currency,
                amount: Number(w.amount!.minor < 0n ? -w.amount!.minor : w.amount!.minor),
                rate: rateOf(w.amount!, w.cost!),
              }
            : {}),
          description: clip(w.comment, 500, w.line, 'comment') || null,
        });
      }
      if (lines.length === 0) {
        notices.push({
          line: tx.line,
          message: 'transaction with no amounts other than zero: nothing to post',
        });
        continue;
      }
      entries.push({
        date: tx.date,
        memo: clip(tx.description, 1000, tx.line, 'description') ?? '',
        reference: tx.code ? clip(`imported #${tx.code}`, 100, tx.line, 'code') : null,
        source: 'manual',
        lines,
        actorUserId,
      });
      entryLines.push(tx.line);
      postingLinesOf.push(lineRefs);
    }
    if (entries.length === 0) throw badRequest('journal_empty', 'The file has no transactions with amounts.');
    const BATCH = 500;
    for (let i = 0; i < entries.length; i += BATCH) {
      await postJournalEntries(trx, organizationId, entries.slice(i, i + BATCH), actorUserId).catch(
        (error) => {
          if (error instanceof AppError) {
            // The ledger names entries and lines of the batch; say which lines of the file they are.
            const batch = entries.slice(i, i + BATCH);
            const m = /^Entry (\d+) \([^)]*\): /.exec(error.message);
            const details = (error.details ?? {}) as {
              line?: number;
              lockDate?: string;
              startDate?: string;
              endDate?: string;
            };
            let txLine: number | undefined;
            let rest = error.message;
            if (m) {
              txLine = entryLines[i + Number(m[1]) - 1];
              rest = error.message.slice(m[0].length);
            } else if (error.code === 'period_locked' && details.lockDate) {
              const k = batch.findIndex((e) => e.date <= details.lockDate!);
              if (k >= 0) txLine = entryLines[i + k];
            } else if (error.code === 'fiscal_year_closed' && details.startDate && details.endDate) {
              const k = batch.findIndex((e) => details.startDate! <= e.date && e.date <= details.endDate!);
              if (k >= 0) txLine = entryLines[i + k];
            } else if (typeof details.line === 'number' && /^Line \d+: /.test(error.message)) {
              // A line of the whole batch, counted across its entries: the posting's own line.
              const postingLines = postingLinesOf.slice(i, i + BATCH).flat();
              const postingLine = postingLines[details.line - 1];
              if (postingLine !== undefined) {
                throw new AppError(
                  error.status,
                  error.code,
                  error.message.replace(/^Line \d+: /, `Line ${postingLine}: `),
                  { ...details, line: postingLine },
                );
              }
            }
            if (txLine !== undefined) {
              throw new AppError(error.status, error.code, `Transaction on line ${txLine}: ${rest}`, {
                ...details,
                line: txLine,
              });
            }
          }
          throw error;
        },
      );
    }
    const createdAccounts = [...mapping.values()].filter((a) => a.created).length;
    await trx
      .insertInto('journal_imports')
      .values({
        organization_id: organizationId,
        id: crypto.randomUUID(),
        fingerprint,
        entries: entries.length,
        created_accounts: createdAccounts,
        imported_by: actorUserId,
      })
      .execute()
      .catch((error) => {
        if ((error as { code?: string }).code === '23505') throw alreadyImported(null);
        throw error;
      });
    await recordAudit(trx, {
      organizationId,
      actorUserId,
      action: 'ledger.journal_imported',
      entityType: 'ledger',
      entityId: organizationId,
      after: { entries: entries.length, createdAccounts, fingerprint },
    });
    notices.sort((a, b) => a.line - b.line);
    return {
      entries: entries.length,
      createdAccounts,
      accounts: [...mapping.values()].sort((a, b) => a.journalName.localeCompare(b.journalName)),
      notices: notices.slice(0, 500),
      noticeCount: notices.length,
    };
  });

const alreadyImported = (prior: { created_at: Date | string; entries: number } | null) =>
  conflict(
    'journal_already_imported',
    prior
      ? `This journal file was already imported on ${new Date(prior.created_at).toISOString().slice(0, 10)} (${prior.entries} entries). Importing it again would double every amount, so nothing was imported.`
      : 'This journal file is being imported already. Importing it again would double every amount, so nothing was imported.',
  );

import { createHash } from 'node:crypto';
import { badRequest } from '../../../shared/errors.ts';
import type { AccountTypeName } from '../../../shared/ledger.ts';
import {
  currencyExponent,
  divideRoundHalfAwayFromZero,
  isCurrencyCode,
  minorToDecimalString,
} from '../../../shared/money.ts';
import { parseJournalText } from './journal-parse.ts';
import { type Amount, type Assertion, JournalSyntaxError, type Transaction } from './journal-syntax.ts';

// The syntax is read by journal-parse.ts; here amounts become the company's currency,
// elided amounts, balance assignments and automated postings are filled in, balance
// assertions are checked, accounts are found or created, and the entries are posted, all in
// one database transaction (journal-import.ts). Anything Kontor cannot take exactly is refused
// naming its line.

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

export const importError = (line: number, message: string) =>
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
  /** The commodity as written ('' when the amount had none). */
  symbol: string;
  assertion: Assertion | null;
  comment: string | null;
  generated: boolean;
};

export const TOP_TYPES: Record<string, AccountTypeName> = {
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
  // The same top levels in the languages journals are commonly kept in (hledger's i18n
  // examples, ledger's tests): French, German, Spanish, Portuguese, Italian, Dutch and the
  // Scandinavian languages.
  actif: 'asset',
  actifs: 'asset',
  passif: 'liability',
  passifs: 'liability',
  'capitaux propres': 'equity',
  revenu: 'income',
  revenus: 'income',
  produits: 'income',
  dépense: 'expense',
  dépenses: 'expense',
  charges: 'expense',
  aktiva: 'asset',
  vermögen: 'asset',
  passiva: 'liability',
  verbindlichkeiten: 'liability',
  eigenkapital: 'equity',
  einnahmen: 'income',
  erträge: 'income',
  ertrag: 'income',
  ausgaben: 'expense',
  aufwand: 'expense',
  aufwendungen: 'expense',
  activo: 'asset',
  activos: 'asset',
  pasivo: 'liability',
  pasivos: 'liability',
  patrimonio: 'equity',
  ingresos: 'income',
  gastos: 'expense',
  ativo: 'asset',
  ativos: 'asset',
  passivo: 'liability',
  passivos: 'liability',
  patrimônio: 'equity',
  receitas: 'income',
  despesas: 'expense',
  attività: 'asset',
  passività: 'liability',
  'patrimonio netto': 'equity',
  entrate: 'income',
  ricavi: 'income',
  uscite: 'expense',
  spese: 'expense',
  activa: 'asset',
  'eigen vermogen': 'equity',
  inkomsten: 'income',
  opbrengsten: 'income',
  uitgaven: 'expense',
  aktiver: 'asset',
  passiver: 'liability',
  egenkapital: 'equity',
  indtægter: 'income',
  udgifter: 'expense',
  tillgångar: 'asset',
  skulder: 'liability',
  'eget kapital': 'equity',
  intäkter: 'income',
  utgifter: 'expense',
  eiendeler: 'asset',
  gjeld: 'liability',
  inntekter: 'income',
};

const pow10 = (n: number) => 10n ** BigInt(n);

/** Exact rate as decimal text with 10 places: base units per foreign unit. */
export const rateOf = (amount: Money, cost: Money) => {
  const num =
    (cost.minor < 0n ? -cost.minor : cost.minor) * pow10(currencyExponent(amount.currency)) * pow10(10);
  const den = (amount.minor < 0n ? -amount.minor : amount.minor) * pow10(currencyExponent(cost.currency));
  return minorToDecimalString(divideRoundHalfAwayFromZero(num, den), 10);
};

export const money = (m: Money) =>
  `${minorToDecimalString(m.minor, currencyExponent(m.currency))} ${m.currency}`;

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
      symbol: p.amount?.symbol ?? '',
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
    // ledger's default account (bucket/A): a transaction of one posting is balanced against it.
    if (
      tx.bucket &&
      work.length === 1 &&
      work[0]!.virtual === '' &&
      work[0]!.amount &&
      work[0]!.amount.minor !== 0n
    ) {
      notices.push({
        line: tx.line,
        message: `balanced against ${tx.bucket.account}, the default account set on line ${tx.bucket.line}`,
      });
      work.push({
        line: tx.line,
        account: tx.bucket.account,
        virtual: '',
        amount: null,
        cost: null,
        costRounded: false,
        symbol: '',
        assertion: null,
        comment: null,
        generated: false,
      });
    }
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
        if (baseValue(w) === null) {
          const currency = w.amount!.currency;
          const same = withAmounts.filter((x) => x.amount!.currency === currency);
          // hledger's equity conversion postings: each commodity, the base one too, balances by itself.
          const inBase = withAmounts.filter((x) => x.amount!.currency === base);
          const balancesItself =
            same.length > 1 &&
            same.reduce((s, x) => s + x.amount!.minor, 0n) === 0n &&
            inBase.length > 1 &&
            inBase.reduce((s, x) => s + x.amount!.minor, 0n) === 0n &&
            withAmounts.every((x) => x.amount!.currency === base || x.amount!.currency === currency);
          throw importError(
            w.line,
            balancesItself
              ? `${money(w.amount!)} has no cost: the ${currency} postings of this transaction (lines ${same.map((x) => x.line).join(', ')}) balance among themselves, as hledger's equity conversion postings do, but Kontor books every ${currency} amount at its ${base} cost. Write the cost on the ${currency} amount ("@@ total ${base}") and leave out the conversion postings.`
              : `${money(w.amount!)} is not in ${base}, the company's currency, and has no cost; write its ${base} cost ("@@ total ${base}" or "@ rate ${base}").`,
          );
        }
      }
      const sum = withAmounts.reduce((s, w) => s + baseValue(w)!, 0n);
      if (elided.length === 1) elided[0]!.amount = { currency: base, minor: -sum };
      else if (sum !== 0n) {
        const off = money({ currency: base, minor: sum });
        const rounded = withAmounts.filter((w) => w.costRounded);
        const absSum = sum < 0n ? -sum : sum;
        if (rounded.length > 0 && absSum <= BigInt(rounded.length)) {
          throw importError(
            rounded[0]!.line,
            `the costs on line${rounded.length > 1 ? 's' : ''} ${rounded.map((w) => w.line).join(', ')} are not whole cents; rounded to cents, the transaction on line ${tx.line} is off by ${off}. Kontor keeps whole cents: write the costs as totals in cents ("@@ 0.01 ${base}").`,
          );
        }
        const bare = withAmounts.filter((w) => w.symbol === '');
        const written = withAmounts.filter((w) => w.symbol !== '' && w.amount!.currency === base);
        if (bare.length > 0 && written.length > 0) {
          throw importError(
            bare[0]!.line,
            `${minorToDecimalString(bare[0]!.amount!.minor, currencyExponent(base))} has no commodity, so Kontor reads it as ${base}, the company's currency, but then the transaction on line ${tx.line} does not balance with its "${written[0]!.symbol}" amounts (off by ${off}). hledger and ledger read an amount without a commodity as a commodity of its own (a count of something), which Kontor cannot keep: write the amount in money.`,
          );
        }
        throw importError(tx.line, `the postings do not balance (off by ${off}).`);
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
            symbol: ap.amount?.symbol ?? matched.symbol,
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

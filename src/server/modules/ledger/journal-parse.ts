// Reads hledger and ledger-cli journal files into transactions with exact decimal amounts.
// This is the syntax layer only: it knows nothing about the company's accounts or currency.
// Every line is either understood, ignored with a notice (directives Kontor has no use for,
// periodic transactions) or refused with a JournalSyntaxError naming the line. Nothing is
// dropped or changed silently. Decision record: docs/decisions/0018-journal-import.md.

export class JournalSyntaxError extends Error {
  override name = 'JournalSyntaxError';
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`Line ${line}: ${reason}`);
  }
}

function fail(line: number, reason: string): never {
  throw new JournalSyntaxError(line, reason);
}

export type Notice = { line: number; message: string };

/** An exact decimal: units × 10^-scale. */
export type Decimal = { units: bigint; scale: number };

export type RawAmount = {
  line: number;
  negative: boolean;
  /** The commodity symbol as written ('' when none; the D default commodity is filled in). */
  symbol: string;
  /** The digits with their marks, as written. */
  number: string;
  /** The decimal mark declared by a decimal-mark directive in force on this line. */
  declaredMark: '.' | ',' | null;
};

export type Amount = { symbol: string; value: Decimal; line: number };

export type Assertion = { op: '=' | '==' | '=*' | '==*'; amount: Amount };

export type Posting = {
  line: number;
  account: string;
  /** '(' unbalanced virtual, '[' balanced virtual, '' real. */
  virtual: '' | '(' | '[';
  amount: Amount | null;
  price: { total: boolean; amount: Amount } | null;
  assertion: Assertion | null;
  comment: string | null;
};

export type Transaction = {
  line: number;
  /** Position in the file, for automated transactions (they apply to what follows them). */
  index: number;
  date: string;
  code: string | null;
  description: string;
  postings: Posting[];
};

export type AutoPosting = {
  line: number;
  account: string;
  virtual: '' | '(' | '[';
  /** A multiplier of the matched posting's amount, or a fixed amount. */
  multiplier: Decimal | null;
  amount: Amount | null;
};

export type AutoRule = {
  line: number;
  /** Applies to transactions whose index is at least this (ledger applies rules to what follows). */
  fromIndex: number;
  matches: (account: string) => boolean;
  postings: AutoPosting[];
};

export type ParsedJournal = {
  transactions: Transaction[];
  autoRules: AutoRule[];
  /** Account types declared with `account NAME  ; type:A` (hledger). */
  accountTypes: Map<string, 'asset' | 'liability' | 'equity' | 'income' | 'expense'>;
  notices: Notice[];
};

type Pending = { raw: RawAmount; set: (amount: Amount) => void };

const DATE = /^(?:(\d{4})([-/.]))?(\d{1,2})([-/.])(\d{1,2})$/;
const DATE_TOKEN = /^(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2})(?:=(\S+))?(?=\s|$)/;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const realDate = (y: number, m: number, d: number) => {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
};

const parseDate = (text: string, year: number | null, line: number): string => {
  const m = DATE.exec(text);
  if (!m) return fail(line, `"${text}" is not a date.`);
  if (m[1] && m[2] !== m[4]) fail(line, `"${text}" mixes date separators.`);
  const y = m[1] ? Number(m[1]) : year;
  if (y === null) {
    return fail(
      line,
      `the date "${text}" has no year and no Y/year/apply year directive says which; write the full date.`,
    );
  }
  const month = Number(m[3]);
  const day = Number(m[5]);
  if (!realDate(y, month, day)) fail(line, `${text} is not a real date.`);
  return `${pad(y, 4)}-${pad(month)}-${pad(day)}`;
};

// --- Amounts ----------------------------------------------------------------------------

const SYMBOL_CHARS = String.raw`[^\s\d.,;@=\-+"(){}\[\]*/'<>!&|%#~]`;
const SYMBOL_REST = String.raw`[^\s\d;@=\-+"(){}\[\]*/<>!&|%#~,.]*`;
const COMMODITY = `"[^"]*"|${SYMBOL_CHARS}${SYMBOL_REST}`;
const NUMBER = String.raw`\d[\d.,'\u00a0\u202f ]*\d|\d[.,]?|[.,]\d+`;
const AMOUNT = new RegExp(
  `^([-+])?\\s*(?:(${COMMODITY})\\s*)?([-+])?\\s*(${NUMBER})\\s*(${COMMODITY})?$`,
  'u',
);

const unquote = (s: string) => (s.startsWith('"') ? s.slice(1, -1) : s);

/** Splits "-$1,000.00", "1.000,00 EUR", "€ -5" into sign, symbol and number text. */
export const splitAmount = (
  text: string,
  line: number,
  defaultSymbol: string,
  declaredMark: '.' | ',' | null,
): RawAmount => {
  const t = text.trim();
  const m = AMOUNT.exec(t);
  if (!m) return fail(line, `"${t}" is not an amount Kontor can read.`);
  const [, sign1, left, sign2, num, right] = m;
  if (sign1 && sign2) fail(line, `"${t}" has two signs.`);
  if (left && right) fail(line, `"${t}" has a commodity on both sides of the number.`);
  const number = num!.trim();
  if (/[\s\u00a0\u202f]$/.test(number)) fail(line, `"${t}" is not an amount Kontor can read.`);
  const symbol = unquote(left ?? right ?? '') || defaultSymbol;
  return { line, negative: (sign1 ?? sign2) === '-', symbol, number, declaredMark };
};

/** The decimal mark of a number on its own: null when it has none or it is ambiguous. */
const markOf = (number: string): { mark: '.' | ',' | null; ambiguous: boolean } => {
  const dots = (number.match(/\./g) ?? []).length;
  const commas = (number.match(/,/g) ?? []).length;
  if (dots && commas)
    return { mark: number.lastIndexOf('.') > number.lastIndexOf(',') ? '.' : ',', ambiguous: false };
  const only = dots ? '.' : commas ? ',' : null;
  if (!only) return { mark: null, ambiguous: false };
  if ((dots || commas) > 1) return { mark: only === '.' ? ',' : '.', ambiguous: false };
  const after = number.length - number.indexOf(only) - 1;
  if (after === 3) return { mark: null, ambiguous: true };
  return { mark: only, ambiguous: false };
};

/** Parses digits with group marks and a known decimal mark, strictly. */
export const toDecimal = (raw: RawAmount, mark: '.' | ','): Decimal => {
  const { number, line } = raw;
  const parts = number.split(mark);
  if (parts.length > 2) return fail(line, `"${number}" has the decimal mark "${mark}" more than once.`);
  const [whole = '', fraction = ''] = parts;
  if (!/^\d*$/.test(fraction))
    return fail(line, `"${number}": digit group marks after the decimal mark "${mark}".`);
  const groups = whole.split(/[.,'\u00a0\u202f ]/);
  if (groups.length > 1) {
    const bad =
      groups.some((g) => !/^\d+$/.test(g)) ||
      groups[0]!.length > 3 ||
      groups.slice(1).some((g) => g.length !== 3 && g.length !== 2) ||
      groups.at(-1)!.length !== 3;
    if (bad)
      return fail(
        line,
        `"${number}" does not read as a number with "${mark}" as decimal mark (digit groups are wrong); check the decimal-mark or commodity format.`,
      );
  }
  const digits = groups.join('') + fraction;
  if (digits === '') return fail(line, `"${number}" has no digits.`);
  const units = BigInt(digits);
  return { units: raw.negative ? -units : units, scale: fraction.length };
};

/** Resolves every raw amount to an exact decimal, learning each commodity's decimal mark. */
const resolveAmounts = (pending: Pending[], formats: Map<string, '.' | ','>) => {
  const learned = new Map<string, '.' | ',' | 'conflict'>();
  for (const { raw } of pending) {
    if (raw.declaredMark || formats.has(raw.symbol)) continue;
    const { mark } = markOf(raw.number);
    if (!mark) continue;
    const known = learned.get(raw.symbol);
    learned.set(raw.symbol, known && known !== mark ? 'conflict' : mark);
  }
  for (const { raw, set } of pending) {
    let mark: '.' | ',' | null = raw.declaredMark ?? formats.get(raw.symbol) ?? null;
    if (!mark) {
      const own = markOf(raw.number);
      const fromFile = learned.get(raw.symbol);
      if (own.mark) mark = own.mark;
      else if (own.ambiguous) {
        if (fromFile === '.' || fromFile === ',') mark = fromFile;
        else
          fail(
            raw.line,
            `"${raw.number}" is ambiguous: hledger reads a single mark before three digits as a decimal mark, ledger as a thousands separator. Add "decimal-mark ." or "decimal-mark ," (or a commodity directive such as "commodity 1,000.00 ${raw.symbol || 'USD'}").`,
          );
      } else mark = '.';
    }
    set({ symbol: raw.symbol, value: toDecimal(raw, mark ?? '.'), line: raw.line });
  }
};

/** The decimal mark of a format sample in a commodity/D/format directive ("1.000,00 EUR" → ','). */
const formatMark = (numberText: string): '.' | ',' | null => {
  const dots = (numberText.match(/\./g) ?? []).length;
  const commas = (numberText.match(/,/g) ?? []).length;
  if (dots && commas) return numberText.lastIndexOf('.') > numberText.lastIndexOf(',') ? '.' : ',';
  if (dots === 1 && !commas) return '.';
  if (commas === 1 && !dots) return ',';
  if (dots > 1) return ',';
  if (commas > 1) return '.';
  return null;
};

// --- Automated-transaction queries --------------------------------------------------------

const QUERY_PREFIX = /^(desc|payee|note|amt|cur|tag|date2?|status|real|depth|code|type|expr|inacct):/i;

const compileQuery = (text: string, line: number): ((account: string) => boolean) => {
  const terms = text.trim().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return fail(line, 'an automated transaction needs a query after "=".');
  const positive: RegExp[] = [];
  const negative: RegExp[] = [];
  let negateNext = false;
  for (const term of terms) {
    if (term === 'not') {
      negateNext = true;
      continue;
    }
    let t = term;
    let negate = negateNext;
    negateNext = false;
    if (t.startsWith('not:')) {
      negate = !negate;
      t = t.slice(4);
    }
    if (t.startsWith('acct:')) t = t.slice(5);
    if (QUERY_PREFIX.test(t) || /^(and|or|expr|payee)$/i.test(t) || /^[@%=()'"]/.test(t) || t === ')') {
      return fail(
        line,
        `the automated transaction query "${text.trim()}" uses "${term}"; Kontor applies only account-name queries (regular expressions, not:), so it refuses the file rather than skip the rule.`,
      );
    }
    if (t.length > 1 && t.startsWith('/') && t.endsWith('/')) t = t.slice(1, -1);
    // A quantified group holding a quantifier ("(a+)+") can take exponential time: refused.
    if (t.length > 200 || /\([^)]*[*+?}][^)]*\)\s*[*+?{]/.test(t)) {
      fail(
        line,
        `the regular expression "${t.slice(0, 60)}" is too complex for Kontor to apply safely; simplify it.`,
      );
    }
    let re: RegExp;
    try {
      re = new RegExp(t, 'i');
    } catch {
      return fail(line, `"${t}" is not a regular expression Kontor can read.`);
    }
    (negate ? negative : positive).push(re);
  }
  return (account) =>
    (positive.length === 0 || positive.some((re) => re.test(account))) &&
    !negative.some((re) => re.test(account));
};

// --- Lines ------------------------------------------------------------------------------

const TYPE_TAGS: Record<string, 'asset' | 'liability' | 'equity' | 'income' | 'expense'> = {
  a: 'asset',
  asset: 'asset',
  assets: 'asset',
  c: 'asset',
  cash: 'asset',
  l: 'liability',
  liability: 'liability',
  liabilities: 'liability',
  e: 'equity',
  equity: 'equity',
  v: 'equity',
  conversion: 'equity',
  r: 'income',
  revenue: 'income',
  revenues: 'income',
  x: 'expense',
  expense: 'expense',
  expenses: 'expense',
};

/** Directives that change nothing Kontor imports: ignored with a notice. */
const IGNORED: Record<string, string> = {
  account: 'account declaration ignored (accounts are created from the postings)',
  payee: 'payee declaration ignored',
  tag: 'tag declaration ignored',
  P: 'market price ignored (Kontor uses the costs written on postings, @ and @@)',
  N: 'no-market-price directive ignored',
  value: 'value directive ignored (valuation only)',
  define: 'define ignored (value expressions are not used by the import)',
};

/** Directives whose effect Kontor cannot reproduce: the file is refused naming the line. */
const REFUSED: Record<string, string> = {
  include: 'include cannot be followed in an upload; paste the included file in its place.',
  import: 'import cannot be followed in an upload.',
  C: 'commodity conversions (C) change amounts; Kontor cannot apply them.',
  A: 'a default balancing account (A/bucket) fills in amounts Kontor would have to guess; write the posting.',
  bucket:
    'a default balancing account (A/bucket) fills in amounts Kontor would have to guess; write the posting.',
  'apply bucket':
    'a default balancing account fills in amounts Kontor would have to guess; write the posting.',
  assert: 'assert directives cannot be checked by Kontor.',
  check: 'check directives cannot be checked by Kontor.',
  expr: 'value expressions cannot be evaluated by Kontor.',
  eval: 'value expressions cannot be evaluated by Kontor.',
  python: 'python blocks cannot be run by Kontor.',
  i: 'timeclock entries are not accounting transactions.',
  I: 'timeclock entries are not accounting transactions.',
  o: 'timeclock entries are not accounting transactions.',
  O: 'timeclock entries are not accounting transactions.',
  b: 'timeclock entries are not accounting transactions.',
  h: 'timeclock entries are not accounting transactions.',
  'apply parent': 'apply parent is not supported; use apply account.',
};

const firstWords = (line: string) => {
  const words = line.trim().split(/\s+/);
  return {
    one: words[0] ?? '',
    two: `${words[0] ?? ''} ${words[1] ?? ''}`,
    three: words.slice(0, 3).join(' '),
  };
};

/** The part of a posting line before its comment, and the comment. */
const splitComment = (text: string) => {
  let inQuote = false;
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '"') inQuote = !inQuote;
    if (ch === ';' && !inQuote) return { main: text.slice(0, i), comment: text.slice(i + 1).trim() };
  }
  return { main: text, comment: null as string | null };
};

/** Parses a journal's text. Throws JournalSyntaxError naming the first line it cannot take. */
export const parseJournalText = (input: string): ParsedJournal => {
  const text = input.replace(/^\uFEFF/, '');
  const lines = text.split(/\r\n|\n|\r/);
  const transactions: Transaction[] = [];
  const autoRules: AutoRule[] = [];
  const notices: Notice[] = [];
  const accountTypes: ParsedJournal['accountTypes'] = new Map();
  const pending: Pending[] = [];
  const formats = new Map<string, '.' | ','>();
  const notice = (line: number, message: string) => notices.push({ line, message });

  let block: { kind: string; line: number } | null = null;
  let tx: Transaction | null = null;
  let auto: AutoRule | null = null;
  let lastPosting: Posting | null = null;
  let body: 'periodic' | 'commodity' | 'account' | 'other' | null = null;
  let bodyCommodity = '';
  let year: number | null = null;
  const yearStack: (number | null)[] = [];
  let declaredMark: '.' | ',' | null = null;
  let defaultSymbol = '';
  const aliases: { from: string; to: string }[] = [];
  const applyAccount: string[] = [];
  const applyStack: string[] = [];

  const amountOf = (textPart: string, line: number, set: (a: Amount) => void) => {
    const raw = splitAmount(textPart, line, defaultSymbol, declaredMark);
    pending.push({ raw, set });
  };

  const accountName = (name: string, line: number) => {
    let n = name.trim();
    if (n === '') fail(line, 'a posting has no account name.');
    if (n.length > 250) fail(line, 'the account name is longer than 250 characters.');
    for (let i = aliases.length - 1; i >= 0; i -= 1) {
      const { from, to } = aliases[i]!;
      if (n === from || n.startsWith(`${from}:`)) n = to + n.slice(from.length);
    }
    if (applyAccount.length > 0) n = `${applyAccount.join(':')}:${n}`;
    return n;
  };

  /** Posting-level dates ("; [2011/01/01]", "; date:2011-01-01") move a posting to another day. */
  const checkPostingComment = (comment: string | null, line: number) => {
    if (!comment) return;
    const bracket = /\[([^\]]*)\]/.exec(comment);
    if (bracket && /^\s*[\d]/.test(bracket[1]!) && /^[\d/.=-]+$/.test(bracket[1]!.trim())) {
      const [primary] = bracket[1]!.trim().split('=');
      if (primary) {
        fail(
          line,
          `the posting date [${bracket[1]}] puts this posting on another day than its transaction; Kontor posts every line of an entry on one date.`,
        );
      }
      notice(line, `secondary posting date [${bracket[1]}] ignored (Kontor uses the transaction date)`);
    }
    if (/(^|[\s,])date:\s*\d/.test(comment)) {
      fail(
        line,
        'the date: tag puts this posting on another day than its transaction; Kontor posts every line of an entry on one date.',
      );
    }
  };

  const parsePosting = (bodyText: string, line: number): Posting | AutoPosting => {
    const { main, comment } = splitComment(bodyText);
    let rest = main.trim().replace(/^[*!]\s*/, '');
    const split = /^(.*?)(?: {2,}|\t|\s*\t)\s*(\S.*)?$/.exec(rest);
    let account = (split ? split[1]! : rest).trim();
    rest = split ? (split[2] ?? '').trim() : '';
    let virtual: '' | '(' | '[' = '';
    if (/^\(.*\)$/.test(account)) virtual = '(';
    else if (/^\[.*\]$/.test(account)) virtual = '[';
    if (virtual) account = account.slice(1, -1);
    account = accountName(account, line);
    checkPostingComment(comment, line);
    if (auto) {
      const p: AutoPosting = { line, account, virtual, multiplier: null, amount: null };
      if (rest === '') return fail(line, 'an automated posting needs an amount or a multiplier.');
      const mult = /^\(?\*\s*([-+]?\d+(?:\.\d+)?)\)?$|^([-+]?\d+(?:\.\d+)?)$/.exec(rest);
      if (mult) {
        const n = (mult[1] ?? mult[2])!;
        const [w, f = ''] = n.replace('+', '').split('.');
        p.multiplier = { units: BigInt(`${w}${f}`), scale: f.length };
      } else if (/^[([]/.test(rest)) {
        fail(line, `the automated amount "${rest}" is a value expression Kontor cannot evaluate.`);
      } else {
        amountOf(rest, line, (a) => {
          p.amount = a;
        });
      }
      return p;
    }
    const p: Posting = { line, account, virtual, amount: null, price: null, assertion: null, comment };
    if (rest === '') return p;
    if (/[{}]/.test(rest)) fail(line, `lot prices {…} are not supported; write the cost with @ or @@.`);
    const assertAt = /\s*(==?\*?)\s*(?=[^=]*$)/.exec(rest);
    let amountText = rest;
    if (assertAt) {
      amountText = rest.slice(0, assertAt.index).trim();
      let assertText = rest.slice(assertAt.index + assertAt[0].length).trim();
      assertText = assertText.replace(/\s*@@?.*$/, ''); // the cost in an assertion is not checked by hledger either
      if (assertText === '') fail(line, 'a balance assertion needs an amount after "=".');
      const op = assertAt[1] as Assertion['op'];
      amountOf(assertText, line, (a) => {
        p.assertion = { op, amount: a };
      });
    }
    if (amountText !== '') {
      const priced = /^(.*?)\s*(@@?)\s*(.+)$/.exec(amountText);
      if (priced) {
        if (priced[1]!.trim() === '') fail(line, 'a cost (@ or @@) needs an amount before it.');
        amountOf(priced[1]!, line, (a) => {
          p.amount = a;
        });
        const total = priced[2] === '@@';
        amountOf(priced[3]!, line, (a) => {
          p.price = { total, amount: a };
        });
      } else {
        if (/^\(.*\)$/.test(amountText))
          fail(line, `the amount "${amountText}" is a value expression Kontor cannot evaluate.`);
        amountOf(amountText, line, (a) => {
          p.amount = a;
        });
      }
    }
    return p;
  };

  const endEntry = () => {
    tx = null;
    auto = null;
    body = null;
    lastPosting = null;
  };

  for (let i = 0; i < lines.length; i += 1) {
    const n = i + 1;
    const line = lines[i]!;
    if (line.includes('\uFFFD')) {
      fail(
        n,
        'the line has a character that is not UTF-8 text (shown as �); hledger and ledger read UTF-8, so save the file as UTF-8 and import it again.',
      );
    }
    if (block) {
      if (/^end\s+(comment|test)\b/.test(line)) block = null;
      continue;
    }
    if (/^\s*$/.test(line)) {
      endEntry();
      continue;
    }
    if (/^\s/.test(line)) {
      const bodyText = line.trim();
      if (tx || auto) {
        if (bodyText.startsWith(';') || bodyText.startsWith('#')) {
          if (lastPosting && !auto) checkPostingComment(bodyText.slice(1), n);
          continue;
        }
        const p = parsePosting(bodyText, n);
        if (auto) auto.postings.push(p as AutoPosting);
        else {
          tx!.postings.push(p as Posting);
          lastPosting = p as Posting;
        }
        continue;
      }
      if (body === 'periodic') continue;
      if (bodyText.startsWith(';') || bodyText.startsWith('#')) continue;
      if (body === 'commodity') {
        const [word, ...restWords] = bodyText.split(/\s+/);
        if (word === 'format') {
          const sample = restWords.join(' ');
          const raw = splitAmount(sample, n, '', null);
          const mark = formatMark(raw.number);
          if (mark) formats.set(raw.symbol || bodyCommodity, mark);
          continue;
        }
        if (word === 'default') {
          defaultSymbol = bodyCommodity;
          continue;
        }
        notice(n, `commodity ${word} ignored`);
        continue;
      }
      if (body === 'account') {
        const word = bodyText.split(/\s+/)[0];
        if (word === 'default') fail(n, REFUSED.bucket!);
        if (word === 'alias')
          fail(n, 'account aliases inside an account directive are not supported; write the account name.');
        notice(n, `account ${word} ignored`);
        continue;
      }
      if (body === 'other') continue;
      fail(n, 'an indented line outside a transaction.');
    }
    endEntry();
    if (/^[;#*%|]/.test(line)) continue;
    const { one, two } = firstWords(line);
    if (/^(comment|test)$/.test(one)) {
      block = { kind: one, line: n };
      continue;
    }
    const dateToken = DATE_TOKEN.exec(line);
    if (/^\d/.test(line)) {
      if (!dateToken) fail(n, `"${line.trim().split(/\s/)[0]}" is not a date.`);
      const date = parseDate(dateToken[1]!, year, n);
      if (dateToken[2]) {
        notice(n, `secondary date ${dateToken[2]} ignored (Kontor uses the primary date ${date})`);
      }
      const rest = line.slice(dateToken[0].length);
      const header = /^\s*(?:([*!])\s*)?(?:\(([^)]*)\)\s*)?(.*)$/.exec(rest)!;
      const { main } = splitComment(header[3] ?? '');
      tx = {
        line: n,
        index: transactions.length,
        date,
        code: header[2]?.trim() || null,
        description: main.trim(),
        postings: [],
      };
      transactions.push(tx);
      continue;
    }
    if (line.startsWith('=')) {
      const rule: AutoRule = {
        line: n,
        fromIndex: transactions.length,
        matches: compileQuery(splitComment(line.slice(1)).main, n),
        postings: [],
      };
      autoRules.push(rule);
      auto = rule;
      continue;
    }
    if (line.startsWith('~')) {
      notice(
        n,
        `periodic transaction "${line.slice(1).trim()}" ignored (a budget or forecast rule, not a transaction)`,
      );
      body = 'periodic';
      continue;
    }
    if (line.startsWith('-'))
      fail(n, `command-line options in the file ("${one}") may change how it reads; remove them.`);
    // Directives.
    if (one === 'decimal-mark') {
      const mark = line.trim().split(/\s+/)[1];
      if (mark !== '.' && mark !== ',') fail(n, 'decimal-mark must be "." or ",".');
      declaredMark = mark;
      continue;
    }
    if (one === 'Y' || one === 'year' || two === 'apply year' || /^Y\d{4}$/.test(one)) {
      const value = /^Y(\d{4})$/.test(one) ? one.slice(1) : line.trim().split(/\s+/).at(-1)!;
      if (!/^\d{4}$/.test(value)) fail(n, `"${value}" is not a year.`);
      if (two === 'apply year') {
        yearStack.push(year);
        applyStack.push('year');
      }
      year = Number(value);
      continue;
    }
    if (one === 'alias') {
      const spec = line.trim().slice(5).trim();
      const eq = spec.indexOf('=');
      if (eq < 0) fail(n, 'alias needs "OLD = NEW".');
      const from = spec.slice(0, eq).trim();
      const to = spec.slice(eq + 1).trim();
      if (from.startsWith('/'))
        fail(
          n,
          'regular-expression aliases are not supported; Kontor would have to guess the account names. Rename the accounts in the file.',
        );
      if (!from || !to) fail(n, 'alias needs "OLD = NEW".');
      aliases.push({ from, to });
      continue;
    }
    if (/^end\s+aliases\b/.test(line)) {
      aliases.length = 0;
      continue;
    }
    if (two === 'apply account') {
      const prefix = splitComment(line.trim().slice('apply account'.length)).main.trim();
      if (!prefix) fail(n, 'apply account needs an account name.');
      applyAccount.push(prefix);
      applyStack.push('account');
      continue;
    }
    if (two === 'apply tag' || two === 'apply fixed' || one === 'fixed') {
      notice(
        n,
        two === 'apply tag'
          ? 'apply tag ignored (tags are not imported)'
          : 'fixed lot prices ignored (valuation only)',
      );
      applyStack.push(two === 'apply tag' ? 'tag' : 'fixed');
      continue;
    }
    if (one === 'end' || one === 'endfixed') {
      const kind =
        one === 'endfixed'
          ? 'fixed'
          : line
              .trim()
              .split(/\s+/)
              .filter((w) => w !== 'apply')[1];
      const top = applyStack.lastIndexOf(kind ?? applyStack.at(-1) ?? '');
      if (top < 0) fail(n, `"${line.trim()}" closes nothing.`);
      const [closed] = applyStack.splice(top, 1);
      if (closed === 'year') year = yearStack.pop() ?? null;
      if (closed === 'account') applyAccount.pop();
      continue;
    }
    if (one === 'commodity' || one === 'D') {
      const spec = splitComment(line.trim().slice(one.length)).main.trim();
      let symbol = spec;
      if (/\d/.test(spec)) {
        const raw = splitAmount(spec, n, '', null);
        symbol = raw.symbol;
        const mark = formatMark(raw.number);
        if (mark) formats.set(symbol, mark);
      } else symbol = unquote(spec);
      if (one === 'D') defaultSymbol = symbol;
      else {
        body = 'commodity';
        bodyCommodity = symbol;
      }
      continue;
    }
    if (one === 'account') {
      const { main, comment } = splitComment(line.trim().slice('account'.length));
      const name = accountName(main.replace(/\s{2,}.*$/, ''), n);
      const type = comment ? /(?:^|[\s,])type:\s*([A-Za-z]+)/.exec(comment) : null;
      body = 'account';
      if (type) {
        const t = TYPE_TAGS[type[1]!.toLowerCase()];
        if (!t) fail(n, `account type "${type[1]}" is not one Kontor knows.`);
        accountTypes.set(name, t);
        continue;
      }
      notice(n, IGNORED.account!);
      continue;
    }
    const key = [line.trim().split(/\s+/).slice(0, 3).join(' '), two, one].find(
      (k) => k in REFUSED || k in IGNORED,
    );
    if (key && key in REFUSED) fail(n, REFUSED[key]!);
    if (key !== undefined) {
      if (IGNORED[key]) notice(n, IGNORED[key]!);
      // payee and tag declarations may carry indented sub-directives; the others have none.
      if (key === 'payee' || key === 'tag') body = 'other';
      continue;
    }
    fail(n, `"${one}" is not a directive or transaction Kontor understands.`);
  }
  resolveAmounts(pending, formats);
  return { transactions, autoRules, accountTypes, notices };
};

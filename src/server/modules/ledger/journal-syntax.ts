// Reads hledger and ledger-cli journal files into transactions with exact decimal amounts.
// This is the syntax layer only: it knows nothing about the company's accounts or currency.
// Every line is either understood, ignored with a notice (directives Kontor has no use for,
// periodic transactions) or refused with a JournalSyntaxError naming the line. Nothing is
// dropped or changed silently. Decision record: docs/decisions/0018-journal-import.md.
//
// This file: the syntax error, the parsed shapes and dates. Amounts are read by
// journal-amounts.ts, queries and directive tables live in journal-directives.ts, the
// line-by-line reader is journal-parse.ts.

export class JournalSyntaxError extends Error {
  override name = 'JournalSyntaxError';
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`Line ${line}: ${reason}`);
  }
}

export function fail(line: number, reason: string): never {
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
  /** ledger's default account (`bucket`/`A`) in force: a lone posting is balanced against it. */
  bucket?: { account: string; line: number } | null;
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

export type Pending = { raw: RawAmount; set: (amount: Amount) => void };

const DATE = /^(?:(\d{4})([-/.]))?(\d{1,2})([-/.])(\d{1,2})$/;
export const DATE_TOKEN = /^(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2})(?:=(\S+))?(?=\s|$)/;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

const realDate = (y: number, m: number, d: number) => {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
};

export const parseDate = (text: string, year: number | null, line: number): string => {
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

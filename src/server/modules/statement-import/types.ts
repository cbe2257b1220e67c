// What every statement parser produces: rows in the account's minor units (positive =
// money in), with the file's line of each row so errors and previews can point at it.

export type ParsedStatementRow = {
  /** 1-based line in the file where the row starts. */
  line: number;
  date: string;
  /** Signed minor units of the account's currency: positive money in, negative money out. */
  amount: number;
  description: string;
  payee: string | null;
  /** The bank's own id for the transaction (OFX FITID, CAMT AcctSvcrRef), when the file has one. */
  externalId: string | null;
};

export type ParsedStatement = {
  format: 'csv' | 'ofx' | 'camt053';
  /** The currency the file states, when it states one. */
  currency: string | null;
  /** The account number the file names, when it names one. */
  accountNumber: string | null;
  /** The closing balance the file states (minor units, signed), for reconciliation. */
  closingBalance: { date: string; amount: number } | null;
  rows: ParsedStatementRow[];
  /** The opening balance the file states (CAMT OPBD/PRCD), when it states one. */
  openingBalance?: { date: string; amount: number } | null;
  /** 1-based line where this statement starts in the file (files may hold several). */
  line?: number;
  /** What kind of statement: "bank account", "credit card", "camt.053 statement", … */
  kind?: string;
  /** The period the file says the statement covers (OFX DTSTART/DTEND, CAMT FrToDt). */
  periodStart?: string | null;
  periodEnd?: string | null;
  /** What the parser left out on purpose (zero-amount notices, pending entries), said aloud. */
  notices?: string[];
  /** CSV only: where the table was read and what was left out around and inside it. */
  csvLayout?: CsvTableLayout;
};

/** Where a CSV's table was read: header, first and last data line, lines left out (all 1-based file lines). */
export type CsvTableLayout = {
  headerLine: number | null;
  firstLine: number;
  lastLine: number;
  linesAbove: number[];
  linesBelow: number[];
  /** Rows inside the table with neither a date nor an amount, left out (and shown). */
  leftOut: { line: number; text: string }[];
  /** Rows added to the description of the transaction above them. */
  joined: { line: number; to: number }[];
};

/** A parsed file: one or more statements (OFX and CAMT files may hold several accounts). */
export type ParsedStatementFile = {
  format: ParsedStatement['format'];
  statements: ParsedStatement[];
};

export type StatementLineError = { line: number; reason: string };

/** A file that cannot be imported: every problem found, each with its line. */
export class StatementParseError extends Error {
  override name = 'StatementParseError';
  constructor(readonly errors: StatementLineError[]) {
    super(
      errors
        .slice(0, 3)
        .map((e) => `Line ${e.line}: ${e.reason}`)
        .join('; '),
    );
  }
}

/** At most this many problems are reported; a broken file usually repeats one. */
export const MAX_REPORTED_ERRORS = 50;

export const collectErrors = () => {
  const errors: StatementLineError[] = [];
  return {
    errors,
    add: (line: number, reason: string) => {
      if (errors.length < MAX_REPORTED_ERRORS) errors.push({ line, reason });
    },
    throwIfAny: () => {
      if (errors.length > 0) throw new StatementParseError(errors);
    },
  };
};

import contentDisposition from 'content-disposition';
import { stringify } from 'csv-stringify/sync';
import type { FastifyReply } from 'fastify';
import { formatMinorPlain } from '../../shared/money.ts';

// The one CSV writer of the app (every export: transactions, invoices, ledger reports). The
// quoting is csv-stringify's (RFC 4180, CRLF records); this module adds what a spreadsheet
// needs to be safe to open, after OWASP's CSV-injection guidance: a text cell that starts
// with `=`, `+`, `-`, `@`, tab or carriage return gets a leading single quote and is quoted,
// so Excel, LibreOffice and Sheets show it as text instead of running it as a formula.
// Numbers stay numbers: a cell given as a number (or a decimal amount made with `csvDecimal`
// / `csvAmount`) is written as it is, so -12.34 stays a negative amount. See decision 0015.

/** A decimal number already formatted as text (such as an amount); written unquoted. */
export class CsvDecimal {
  constructor(readonly text: string) {}
}

export type CsvCell = string | number | bigint | CsvDecimal | null | undefined;

/** The characters that make a spreadsheet read a cell as a formula (OWASP). */
export const FORMULA_TRIGGERS = ['=', '+', '-', '@', '\t', '\r'] as const;
const TRIGGER = /^[=+\-@\t\r]/;
const DECIMAL = /^-?\d+(\.\d+)?$/;

/** The text as a spreadsheet should see it: formula triggers at the start are defused. */
export const neutraliseCell = (text: string) => (TRIGGER.test(text) ? `'${text}` : text);

/**
 * A decimal written as a number. Anything that is not a plain decimal (digits, an optional
 * leading minus and fraction) stays text and is neutralised like any other text.
 */
export const csvDecimal = (text: string): CsvCell => (DECIMAL.test(text) ? new CsvDecimal(text) : text);

/** An amount in minor units, written as a plain decimal in its currency (-1234 USD → -12.34). */
export const csvAmount = (minor: number | bigint, currency: string): CsvCell =>
  csvDecimal(formatMinorPlain(minor, currency));

const cell = (value: CsvCell): CsvCell => {
  if (typeof value === 'number') return Number.isFinite(value) ? value : '';
  return value ?? '';
};

/** Rows as CSV text, each record ending in CRLF (a header row is just the first row). */
export const csvRows = (rows: readonly (readonly CsvCell[])[]): string =>
  rows.length === 0
    ? ''
    : stringify(
        rows.map((row) => row.map(cell)),
        {
          record_delimiter: 'windows',
          // A bare CR or LF inside a cell must be quoted too, or readers split the record there.
          quoted_match: /[\r\n]/,
          cast: {
            string: (value) => (TRIGGER.test(value) ? { value: neutraliseCell(value), quoted: true } : value),
            object: (value) => (value instanceof CsvDecimal ? value.text : JSON.stringify(value)),
            bigint: (value) => value.toString(),
          },
        },
      );

/** Headers for a CSV download named `fileName` (the body is sent by the caller). */
export const csvReply = (reply: FastifyReply, fileName: string) =>
  reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', contentDisposition(fileName, { type: 'attachment' }))
    .header('x-content-type-options', 'nosniff');

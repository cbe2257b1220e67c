import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { currencyExponent } from '../../../shared/money.ts';
import { type CsvMapping, csvMappingSchema } from '../../../shared/transactions.ts';
import { parseCsvStatement } from './csv.ts';
import { sniffCsv } from './csv-sniff.ts';
import { decodeStatementBytes } from './decode.ts';
import { StatementParseError } from './types.ts';

// Real bank CSV exports from public projects' test suites (../shared/corpus/csv, see its
// SOURCES.md; never copied into this repository), each run through the path the API takes:
// bytes decoded → sniffed (delimiter, table, suggested mapping) → the mapping a user would
// confirm (the suggestion plus the changes listed here) → parsed into the account's minor
// units. Expected values were worked out by hand from each file (and, where the source
// project states one, its own expected result), not taken from Kontor's output.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../..');
const corpus = path.join(root, 'shared/corpus/csv');
const present = fs.existsSync(corpus);
if (!present) console.warn(`csv-corpus.test.ts: ${corpus} is absent; the real-file corpus test is skipped.`);

type Spot = { line: number; date?: string; amount: number; description?: string; payee?: string | null };
type Expectation = {
  file: string;
  /** The money account's currency. */
  currency: string;
  /** What the user changes in the mapping step (on top of the suggestion). */
  confirm?: Partial<CsvMapping>;
  /** Why this is what the bank meant. */
  why: string;
} & (
  | {
      rows: number;
      sum: number;
      first: string;
      last: string;
      spots: Spot[];
      suggested?: Partial<CsvMapping>;
      leftOut?: number[];
      joined?: number[];
      linesAbove?: number[];
      linesBelow?: number[];
      dateChoices?: string[];
    }
  | { refused: { line: number; reason: RegExp }; errors?: number }
);

/** Node's ICU gives HUF 0 or 2 decimals depending on its version; Kontor follows it. */
const HUF = 10 ** currencyExponent('HUF');

const EXPECTED: Expectation[] = [
  {
    file: 'actual-data-payee-memo.csv',
    currency: 'USD',
    refused: { line: 5, reason: /description, payee and reference are all empty/ },
    why: 'the last row names no payee and has no memo; a bank line needs words, and Kontor will not invent them',
  },
  {
    file: 'actual-data_windows1252.csv',
    currency: 'EUR',
    rows: 3,
    sum: 5025 - 2000 + 7550,
    first: '2024-02-01',
    last: '2024-02-03',
    spots: [{ line: 3, amount: -2000, description: 'François Dubois' }],
    why: 'Windows-1252 bytes decode to the accented names; signed amounts with a decimal point',
  },
  {
    file: 'actual-utf-8-bom.csv',
    currency: 'HUF',
    refused: { line: 2, reason: /description, payee and reference are all empty/ },
    errors: 2,
    why: 'the OTP export has no partner, message or transaction id on either row: nothing to describe the lines with',
  },
  {
    file: 'actual-windows-1252-euro.csv',
    currency: 'EUR',
    rows: 1,
    sum: 10025,
    first: '2025-12-04',
    last: '2025-12-04',
    spots: [{ line: 2, amount: 10025, description: 'Café €Rémy' }],
    suggested: { dateFormat: 'YYYY.MM.DD' },
    why: 'the euro sign is byte 0x80 in Windows-1252; the date is YYYY.MM.DD',
  },
  {
    file: 'b2y-20180226_12345678.csv',
    currency: 'GBP',
    confirm: { dateFormat: 'DD/MM/YYYY' },
    rows: 1,
    sum: -500,
    first: '2018-02-10',
    last: '2018-02-10',
    spots: [{ line: 2, amount: -500, description: 'MERCHANT NAME@12:34' }],
    dateChoices: ['DD/MM/YYYY', 'MM/DD/YYYY'],
    why: '10/02/2018 reads both ways, so the user chooses; the export is from 2018-02-26, so it is 10 February',
  },
  {
    file: 'b2y-MS_JANE_SMITH.csv',
    currency: 'GBP',
    refused: { line: 2, reason: /"Pending" in "Date Processed" is not a date/ },
    errors: 3,
    why: 'as suggested, the three pending card charges under the header have no date: refused by line, never skipped unseen',
  },
  {
    file: 'b2y-MS_JANE_SMITH.csv',
    currency: 'GBP',
    confirm: { firstDataRow: 4 },
    rows: 10,
    sum: -(118323 + 1889 + 2300 + 8099 + 150 + 5000 + 1000 + 999 + 820) + 110000,
    first: '2019-12-02',
    last: '2019-12-12',
    spots: [
      { line: 5, date: '2019-12-12', amount: -118323 },
      { line: 14, date: '2019-12-02', amount: 110000, description: 'PAYMENT RECEIVED - THANK YOU' },
    ],
    suggested: {
      indicatorColumn: 3,
      debitIndicators: [''],
      creditIndicators: ['CR'],
      dateFormat: 'DD-MMM-YYYY',
    },
    linesAbove: [2, 3, 4],
    why: 'a card statement: charges are positive with a blank indicator, the payment is "+ £1,100.00" marked CR; the user starts the table at the first booked row',
  },
  {
    file: 'b2y-Movements-cz.csv',
    currency: 'CZK',
    rows: 1,
    sum: -100,
    first: '2018-05-27',
    last: '2018-05-27',
    spots: [{ line: 2, amount: -100, description: 'Memo for me test' }],
    suggested: { delimiter: ';', decimalSeparator: ',' },
    why: 'Czech export: semicolons, "-1,00" with a decimal comma',
  },
  {
    file: 'b2y-TransactionHistory.csv',
    currency: 'SGD',
    rows: 8,
    sum: -(666 * 6 + 6666 * 2),
    first: '2018-04-13',
    last: '2018-04-18',
    spots: [{ line: 11, date: '2018-04-17', amount: -6666, description: 'CASH WITHDRAWAL ATM' }],
    suggested: { headerRow: 4, firstDataRow: 5, debitColumn: 3, creditColumn: 4 },
    linesAbove: [1, 2, 3, 5],
    leftOut: [8, 10, 12, 14, 16, 18, 20],
    linesBelow: [22],
    why: 'five preamble lines, withdrawals/deposits columns; each transaction is followed by a second description line with no date or amount, which is listed as left out',
  },
  {
    file: 'b2y-TransactionHistory.csv',
    currency: 'SGD',
    confirm: { continuationRows: 'append', footerRows: 0 },
    rows: 8,
    sum: -(666 * 6 + 6666 * 2),
    first: '2018-04-13',
    last: '2018-04-18',
    spots: [
      { line: 7, amount: -666, description: 'DEBIT PURCHASE 15/04/18 66-6666 UBER EATS AN2GO HELP.UBERh' },
      { line: 21, amount: -666, description: 'DEBIT PURCHASE 66-6666 TOAST BO6-MANULIFE CTR S 10/04/18' },
    ],
    joined: [8, 10, 12, 14, 16, 18, 20, 22],
    why: 'the user says the bank wraps its texts: each second line joins the description above, the last one too once it is not taken for a summary',
  },
  {
    file: 'b2y-Umsaetze_KtoNr.CSV',
    currency: 'EUR',
    rows: 1,
    sum: -1722,
    first: '2018-03-02',
    last: '2018-03-02',
    spots: [{ line: 2, amount: -1722 }],
    why: 'German export, "-17,22"',
  },
  {
    file: 'b2y-W80844_EBH-hu.csv',
    currency: 'HUF',
    rows: 2,
    sum: (-350 + 1290) * HUF,
    first: '2019-04-17',
    last: '2019-04-19',
    spots: [{ line: 3, amount: 1290 * HUF }],
    suggested: { dateFormat: 'YYYY.MM.DD', indicatorColumn: 8, currencyColumn: 15 },
    why: 'Hungarian dates end with a point ("2019.04.19."); the inflow/outflow column agrees with the signs; forints in minor units of the ISO 4217 exponent Node reports',
  },
  {
    file: 'b2y-boi-TransactionExport.csv',
    currency: 'EUR',
    rows: 27,
    sum: -41961,
    first: '2017-09-01',
    last: '2017-09-28',
    spots: [
      { line: 2, amount: 42803, description: 'Random Name GP' },
      { line: 4, amount: -51200, description: 'Random Bill' },
    ],
    suggested: { debitColumn: 2, creditColumn: 3 },
    why: 'Bank of Ireland: separate debit and credit columns ("512.0", "29.5")',
  },
  {
    file: 'b2y-bunq-statement.csv',
    currency: 'EUR',
    rows: 7,
    sum: -2382,
    first: '2018-12-06',
    last: '2018-12-17',
    spots: [{ line: 8, amount: -799, description: 'NETFLIX.COM 14087249160, NL' }],
    suggested: { decimalSeparator: ',' },
    why: 'comma-delimited yet with decimal commas inside quotes ("-8,78"); the descriptions\' "9.95 USD" are text',
  },
  {
    file: 'b2y-dba33-noheader.csv',
    currency: 'SGD',
    confirm: {
      descriptionColumn: 4,
      referenceColumn: 1,
      amountColumn: null,
      debitColumn: 2,
      creditColumn: 3,
    },
    rows: 1,
    sum: -780,
    first: '2018-02-27',
    last: '2018-02-27',
    spots: [{ line: 1, amount: -780, description: "MCDONALD'S (TAM KIOSK) SI NG 22FEB" }],
    suggested: { hasHeader: false, dateFormat: 'DD-MMM-YYYY' },
    why: 'no header; "27 Feb 2018"; the user names the debit and credit columns and the description',
  },
  {
    file: 'b2y-kbc-export_BE.csv',
    currency: 'EUR',
    rows: 1,
    sum: -340,
    first: '2018-02-28',
    last: '2018-02-28',
    spots: [{ line: 2, amount: -340, payee: null }],
    why: 'KBC: signed "Bedrag" with a decimal comma; the counterparty name is blank',
  },
  {
    file: 'b2y-monzo.csv',
    currency: 'GBP',
    rows: 1,
    sum: -1000,
    first: '2018-02-25',
    last: '2018-02-25',
    spots: [{ line: 2, amount: -1000, description: 'Tesco' }],
    suggested: { dateColumn: 1, externalIdColumn: 0 },
    why: 'ISO date with a time and offset; whole pounds "-10"',
  },
  {
    file: 'b2y-n26-20171001-20171106.csv',
    currency: 'EUR',
    rows: 1,
    sum: -5999,
    first: '2017-10-01',
    last: '2017-10-01',
    spots: [{ line: 2, amount: -5999, description: 'NINTENDO OF EUROPE', payee: 'NINTENDO OF EUROPE' }],
    why: 'an empty Verwendungszweck falls back to the counterparty',
  },
  {
    file: 'b2y-rabobank-CSV_A_20180414_112204.csv',
    currency: 'EUR',
    refused: { line: 3, reason: /a quote \(".*inside a field/ },
    why: 'line 3 lost its opening quote (NL77RABO…","EUR"), so its columns cannot be split reliably; \\r\\r\\n line ends still count as one line each',
  },
  {
    file: 'b2y-sparkasse-umsatz.CSV',
    currency: 'EUR',
    rows: 1,
    sum: -3699,
    first: '2018-02-22',
    last: '2018-02-22',
    spots: [{ line: 2, amount: -3699, payee: 'Vodafone Kabel DeutschlandGmbH' }],
    suggested: { dateFormat: 'DD.MM.YY' },
    why: 'two-digit years (22.02.18 is 2018)',
  },
  {
    file: 'b2y-test_row_format_default.csv',
    currency: 'EUR',
    refused: { line: 71, reason: /"A null transaction, just to confuse things" in column 1 is not a date/ },
    why: 'a row of text where the date goes, in the middle of the table',
  },
  {
    file: 'hledger-paypal-custom.csv',
    currency: 'USD',
    rows: 7,
    sum: -699 + 699 - 700 + 700 - 200 + 200 + 941,
    first: '2019-10-01',
    last: '2019-10-22',
    spots: [
      { line: 2, amount: -699, payee: 'Calm Radio' },
      { line: 8, amount: 941, payee: 'Noble Benefactor' },
    ],
    suggested: { amountColumn: 9 },
    why: 'PayPal: the net column is what the balance moves by (gross 10.00, fee -0.59, net 9.41)',
  },
  {
    file: 'hledger-sample.csv',
    currency: 'USD',
    rows: 3,
    sum: 2000,
    first: '2012-03-22',
    last: '2012-03-24',
    spots: [{ line: 4, amount: -2000, description: 'COFFEE — €20 RECEIVED' }],
    why: 'YYYY/M/D dates; a euro amount inside a description is text',
  },
  {
    file: 'hledger-sample.fr.cp1252.csv',
    currency: 'EUR',
    rows: 3,
    sum: 2000,
    first: '2012-03-22',
    last: '2012-03-24',
    spots: [{ line: 2, amount: 5000, description: 'DÉPÔT' }],
    why: 'Windows-1252 French text',
  },
  {
    file: 'hledger-stripe.csv',
    currency: 'USD',
    rows: 2,
    sum: 1200 - 77,
    first: '2020-01-23',
    last: '2020-01-23',
    spots: [{ line: 2, amount: 1200, description: 'charge' }],
    suggested: { currencyColumn: 3, referenceColumn: 7, externalIdColumn: 0, amountColumn: 6 },
    why: 'the first charge has no description: it falls back to the reporting category; "usd" matches USD',
  },
  {
    file: 'ing-de-test_with_saldo_1.csv',
    currency: 'EUR',
    rows: 9,
    sum: -17860,
    first: '2018-12-09',
    last: '2018-12-28',
    spots: [
      {
        line: 16,
        amount: -550,
        payee: 'PayDude (Europe) S.a.r.l. et Cie., S .C.A.',
        description: 'PP.1234.PP . Blumen Berther',
      },
      { line: 17, amount: 5000, payee: 'Karl Karlsen' },
    ],
    suggested: { headerRow: 10, firstDataRow: 11, amountColumn: 7, descriptionColumn: 4 },
    linesAbove: [1, 2, 4, 5, 6, 7, 8, 9, 11, 13],
    why: 'ING: fourteen preamble lines; Betrag, not the running Saldo',
  },
  {
    file: 'lloyds-sample-statement.csv',
    currency: 'GBP',
    rows: 12,
    sum: -388199,
    first: '2023-12-01',
    last: '2024-01-15',
    spots: [
      { line: 4, amount: -597512 },
      { line: 5, amount: 200000 },
    ],
    suggested: { debitColumn: 5, creditColumn: 6 },
    why: 'Lloyds: debit and credit amount columns, a trailing comma on every line',
  },
  {
    file: 'oca-balance.csv',
    currency: 'USD',
    rows: 2,
    sum: -3350 + 153350,
    first: '2018-12-15',
    last: '2018-12-15',
    spots: [{ line: 3, amount: 153350, payee: 'Azure Interior' }],
    why: 'signed amounts with thousands separators; the balance column goes -23.50 → 1,510.00',
  },
  {
    file: 'oca-debit_credit.csv',
    currency: 'USD',
    rows: 2,
    sum: -3350 + 153350,
    first: '2018-12-15',
    last: '2018-12-15',
    spots: [
      { line: 2, amount: -3350 },
      { line: 3, amount: 153350 },
    ],
    suggested: { indicatorColumn: 3, debitIndicators: ['D'], creditIndicators: ['C'] },
    why: 'the D/C column decides the sign (the balance column confirms -23.50 then 1,510.00)',
  },
  {
    file: 'oca-meta_data_separated_credit_debit.csv',
    currency: 'EUR',
    confirm: { dateFormat: 'DD/MM/YY' },
    rows: 4,
    sum: -5000 - 10000 - 8068 + 130000,
    first: '2020-04-01',
    last: '2020-04-02',
    spots: [{ line: 9, amount: 130000, description: 'LABEL 4' }],
    suggested: { headerRow: 4, firstDataRow: 5, footerRows: 1, debitColumn: 3, creditColumn: 4 },
    linesAbove: [1, 2, 3, 4],
    linesBelow: [10],
    dateChoices: ['DD/MM/YY', 'MM/DD/YY'],
    why: 'metadata above, a balance line below; 01/04/20 is ambiguous until the user picks day-first (the preamble says 01/04/2020–02/04/2020)',
  },
  {
    file: 'oca-paypal-statement_en.csv',
    currency: 'USD',
    refused: { line: 2, reason: /the row is in EUR but the account is kept in USD/ },
    errors: 8,
    why: 'a PayPal account holding EUR and USD: rows in another currency than the money account are refused by line',
  },
  {
    file: 'oca-sample_statement_credit_card_inverse_sign_en.csv',
    currency: 'USD',
    confirm: { currencyColumn: null, invertAmounts: true },
    rows: 2,
    sum: -3350 + 152500,
    first: '2018-12-15',
    last: '2018-12-15',
    spots: [{ line: 2, amount: -3350 }],
    why: 'a card export with money out positive; "Currency" names the foreign-amount column\'s currency, so it is not mapped',
  },
  {
    file: 'oca-sample_statement_en.csv',
    currency: 'USD',
    confirm: { currencyColumn: null },
    rows: 2,
    sum: -3350 + 152500,
    first: '2018-12-15',
    last: '2018-12-15',
    spots: [{ line: 3, amount: 152500, description: 'Your payment on 12/15/2018' }],
    why: 'as above, with signs as written',
  },
  {
    file: 'revolut-2021-october.csv',
    currency: 'EUR',
    confirm: { dateColumn: 3 },
    rows: 7,
    sum: 16531,
    first: '2021-09-05',
    last: '2021-09-08',
    spots: [{ line: 3, date: '2021-09-05', amount: -950, description: 'company äöå' }],
    why: 'the completed date (with a time, one-digit hour) is the booking date; amounts "-9.5", "500"',
  },
  {
    file: 'sparkasse-freiburg-simple1.csv',
    currency: 'EUR',
    rows: 2,
    sum: -123456 + 12300,
    first: '2018-03-28',
    last: '2018-03-28',
    spots: [{ line: 3, amount: 12300, description: 'Geschenk Hans Meyer abzügl. Schulden' }],
    why: 'ISO-8859-1 bytes; "-1234,56" without a thousands separator',
  },
];

const run = (e: Expectation) => {
  const bytes = fs.readFileSync(path.join(corpus, e.file));
  const { text } = decodeStatementBytes(bytes);
  const sniff = sniffCsv(text);
  expect(sniff.suggestedMapping, `${e.file}: a mapping is suggested`).not.toBeNull();
  const mapping = csvMappingSchema.parse({ ...sniff.suggestedMapping, ...e.confirm });
  return { sniff, mapping, text };
};

describe.skipIf(!present)('real bank CSV exports (../shared/corpus/csv)', () => {
  it('has an expectation for every CSV in the corpus', () => {
    const files = fs.readdirSync(corpus).filter((f) => /\.csv$/i.test(f));
    expect(files.filter((f) => !EXPECTED.some((e) => e.file === f))).toEqual([]);
  });

  for (const e of EXPECTED) {
    it(`${e.file}${e.confirm ? ` (${Object.keys(e.confirm).join(', ')} confirmed)` : ''}: ${e.why}`, () => {
      if ('refused' in e) {
        let errors: { line: number; reason: string }[] = [];
        try {
          const { text, mapping } = run(e);
          parseCsvStatement(text, mapping, { exponent: currencyExponent(e.currency), currency: e.currency });
        } catch (error) {
          if (!(error instanceof StatementParseError)) throw error;
          errors = error.errors;
        }
        expect(errors[0], `${e.file} must be refused`).toBeDefined();
        expect(errors[0]!.line).toBe(e.refused.line);
        expect(errors[0]!.reason).toMatch(e.refused.reason);
        if (e.errors !== undefined) expect(errors).toHaveLength(e.errors);
        return;
      }
      const { sniff, text, mapping } = run(e);
      if (e.suggested) expect(sniff.suggestedMapping).toMatchObject(e.suggested);
      if (e.dateChoices) expect(sniff.dateFormatChoices).toEqual(e.dateChoices);
      else expect(sniff.dateFormatChoices.length).toBeLessThanOrEqual(1);
      const statement = parseCsvStatement(text, mapping, {
        exponent: currencyExponent(e.currency),
        currency: e.currency,
      });
      const dates = statement.rows.map((r) => r.date).sort();
      expect({
        rows: statement.rows.length,
        sum: statement.rows.reduce((s, r) => s + r.amount, 0),
        first: dates[0],
        last: dates[dates.length - 1],
      }).toEqual({ rows: e.rows, sum: e.sum, first: e.first, last: e.last });
      for (const spot of e.spots) {
        const row = statement.rows.find((r) => r.line === spot.line);
        expect(row, `${e.file} line ${spot.line}`).toMatchObject(spot);
      }
      if (e.leftOut) expect(statement.csvLayout.leftOut.map((r) => r.line)).toEqual(e.leftOut);
      else expect(statement.csvLayout.leftOut).toEqual([]);
      expect(statement.csvLayout.joined.map((r) => r.line)).toEqual(e.joined ?? []);
      if (e.linesAbove) expect(statement.csvLayout.linesAbove).toEqual(e.linesAbove);
      if (e.linesBelow) expect(statement.csvLayout.linesBelow).toEqual(e.linesBelow);
    });
  }
});

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT_MINOR } from '../../../shared/money.ts';
import { csvMappingSchema } from '../../../shared/transactions.ts';
import { parseCamtFile } from './camt.ts';
import { parseCsvStatement } from './csv.ts';
import { readCsvRecords } from './csv-records.ts';
import { sniffCsv } from './csv-sniff.ts';
import { parseOfxFile } from './ofx.ts';
import { detectStatementFormat } from './parse.ts';
import { guessDateFormat, parseBankAmount, parseDateIn } from './values.ts';
import { CHECKING_US_MAPPING, statementErrorsOf } from '../../testing/statements.ts';

const fixture = (name: string) =>
  fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', name), 'utf8');

const only = <T>(file: { statements: T[] }) => {
  expect(file.statements).toHaveLength(1);
  return file.statements[0]!;
};
const parseOfxStatement = (text: string, exponent: number) => only(parseOfxFile(text, exponent));
const parseCamt053Statement = (text: string, exponent: number) => only(parseCamtFile(text, exponent));

describe('amounts and dates', () => {
  it('reads amounts as banks write them', () => {
    expect(parseBankAmount('1,234.56', 2, '.')).toBe(123456);
    expect(parseBankAmount('-1.234,56', 2, ',')).toBe(-123456);
    expect(parseBankAmount('(12.00)', 2, '.')).toBe(-1200);
    expect(parseBankAmount('12.00-', 2, '.')).toBe(-1200);
    expect(parseBankAmount('$ 5', 2, '.')).toBe(500);
    expect(parseBankAmount('49,99 EUR', 2, ',')).toBe(4999);
    expect(parseBankAmount('+0.07', 2, '.')).toBe(7);
    expect(parseBankAmount('1500', 0, '.')).toBe(1500);
    expect(() => parseBankAmount('12.345', 2, '.')).toThrow(/decimal places/);
    expect(() => parseBankAmount('1.2.3', 2, '.')).toThrow();
    expect(() => parseBankAmount('abc', 2, '.')).toThrow();
    expect(() => parseBankAmount('', 2, '.')).toThrow(/empty/);
  });

  it('round-trips any amount written with either decimal separator', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -MAX_AMOUNT_MINOR, max: MAX_AMOUNT_MINOR }),
        fc.boolean(),
        (minor, comma) => {
          const abs = Math.abs(minor);
          const whole = Math.floor(abs / 100)
            .toString()
            .replace(/\B(?=(\d{3})+(?!\d))/g, comma ? '.' : ',');
          const text = `${minor < 0 ? '-' : ''}${whole}${comma ? ',' : '.'}${String(abs % 100).padStart(2, '0')}`;
          expect(parseBankAmount(text, 2, comma ? ',' : '.')).toBe(minor === 0 ? 0 : minor);
        },
      ),
    );
  });

  it('reads dates in each format and refuses impossible ones', () => {
    expect(parseDateIn('11/02/2026', 'MM/DD/YYYY')).toBe('2026-11-02');
    expect(parseDateIn('02/11/2026', 'DD/MM/YYYY')).toBe('2026-11-02');
    expect(parseDateIn('2.11.2026', 'DD.MM.YYYY')).toBe('2026-11-02');
    expect(parseDateIn('20261102', 'YYYYMMDD')).toBe('2026-11-02');
    expect(parseDateIn('2026-11-02 10:30', 'YYYY-MM-DD')).toBe('2026-11-02');
    expect(parseDateIn('2026-02-29', 'YYYY-MM-DD')).toBeNull();
    expect(parseDateIn('2028-02-29', 'YYYY-MM-DD')).toBe('2028-02-29');
    expect(parseDateIn('13/31/2026', 'MM/DD/YYYY')).toBeNull();
    expect(guessDateFormat(['11/02/2026', '11/30/2026'])).toBe('MM/DD/YYYY');
    expect(guessDateFormat(['30/11/2026', '01/12/2026'])).toBe('DD/MM/YYYY');
  });
});

describe('CSV', () => {
  it('splits quoted fields with commas, doubled quotes and line breaks', () => {
    const records = readCsvRecords('\ufeffa,b\r\n"x, y","he said ""hi""\nthere"\r\n\r\nlast,1', ',');
    expect(records).toEqual([
      { index: 0, line: 1, fields: ['a', 'b'] },
      { index: 1, line: 2, fields: ['x, y', 'he said "hi"\nthere'] },
      { index: 2, line: 5, fields: ['last', '1'] },
    ]);
  });

  it('suggests a mapping for a US bank export and reads it', () => {
    const text = fixture('checking-us.csv');
    const sniff = sniffCsv(text);
    expect(sniff.delimiter).toBe(',');
    expect(sniff.suggestedMapping).toMatchObject(CHECKING_US_MAPPING);
    const statement = parseCsvStatement(text, sniff.suggestedMapping!, 2);
    expect(statement.rows).toHaveLength(10);
    expect(statement.rows[1]).toEqual({
      line: 3,
      date: '2026-11-03',
      amount: 412000,
      description: 'STRIPE TRANSFER ST-K8J2, payout',
      payee: 'Stripe',
      externalId: 'TX1002',
    });
    expect(statement.rows[5]!.description).toBe('CLIENT PAYMENT INV-2026-031 "NORTHWIND"');
    expect(statement.rows[9]).toMatchObject({ payee: null, amount: -1500 });
    expect(statement.rows.reduce((s, r) => s + r.amount, 0)).toBe(
      -24518 + 412000 - 7200 - 85000 - 6137 + 250000 - 1240 - 645 - 645 - 1500,
    );
  });

  it('reads a German export with semicolons and decimal commas', () => {
    const text = fixture('giro-de.csv');
    const sniff = sniffCsv(text);
    expect(sniff.delimiter).toBe(';');
    const mapping = csvMappingSchema.parse({
      delimiter: ';',
      dateColumn: 0,
      descriptionColumn: 2,
      payeeColumn: 3,
      amountColumn: 4,
      dateFormat: 'DD.MM.YYYY',
      decimalSeparator: ',',
    });
    const statement = parseCsvStatement(text, mapping, 2);
    expect(statement.rows.map((r) => r.amount)).toEqual([-145000, 320050, -4999, -890, -31240]);
    expect(statement.rows[4]!.description).toBe('Lastschrift; Versicherung Q4');
    expect(statement.rows[3]!.payee).toBeNull();
  });

  it('reads separate money-out and money-in columns', () => {
    const text = 'Date,Details,Paid out,Paid in\n2026-11-01,Rent,900.00,\n2026-11-02,Sale,,120.50\n';
    const mapping = csvMappingSchema.parse({
      dateColumn: 0,
      descriptionColumn: 1,
      debitColumn: 2,
      creditColumn: 3,
      dateFormat: 'YYYY-MM-DD',
    });
    expect(parseCsvStatement(text, mapping, 2).rows.map((r) => r.amount)).toEqual([-90000, 12050]);
  });

  it('refuses a broken file whole, naming each bad line and why', () => {
    const text = fixture('broken.csv');
    // The user confirms the format in the mapping step; 11/02 alone cannot tell day from month.
    const mapping = { ...sniffCsv(text).suggestedMapping!, dateFormat: 'MM/DD/YYYY' as const };
    const errors = statementErrorsOf(() => parseCsvStatement(text, mapping, 2));
    expect(errors).toEqual([
      { line: 5, reason: '"13/31/2026" in "Date" is not a date in the format MM/DD/YYYY' },
      { line: 6, reason: '"Amount": "-61.3.7" is not an amount' },
    ]);
  });

  it('refuses rows with too few columns and an unclosed quote', () => {
    const mapping = csvMappingSchema.parse({
      dateColumn: 0,
      descriptionColumn: 1,
      amountColumn: 2,
      dateFormat: 'YYYY-MM-DD',
    });
    expect(
      statementErrorsOf(() => parseCsvStatement('d,x,a\n2026-01-01,ok,1\n2026-01-02,short\n', mapping, 2)),
    ).toEqual([{ line: 3, reason: 'expected at least 3 columns, found 2' }]);
    expect(
      statementErrorsOf(() => parseCsvStatement('d,x,a\n2026-01-01,"open,1\n', mapping, 2))[0],
    ).toMatchObject({
      line: 2,
    });
    expect(statementErrorsOf(() => parseCsvStatement('d,x,a\n', mapping, 2))[0]!.reason).toMatch(
      /no transaction rows/,
    );
  });
});

describe('OFX and QFX', () => {
  it('reads an OFX 1.x SGML (QFX) checking statement', () => {
    const statement = parseOfxStatement(fixture('checking-ofx1.qfx'), 2);
    expect(statement.currency).toBe('USD');
    expect(statement.accountNumber).toBe('000123456789');
    expect(statement.closingBalance).toEqual({ date: '2026-11-20', amount: 760282 });
    expect(statement.rows).toHaveLength(4);
    expect(statement.rows[0]).toEqual({
      line: 40,
      date: '2026-11-02',
      amount: -24518,
      description: 'AMAZON WEB SERVICES - AWS.AMAZON.CO WA',
      payee: 'AMAZON WEB SERVICES',
      externalId: '202611020',
    });
    expect(statement.rows[3]).toMatchObject({
      payee: 'Smith & Sons Plumbing',
      amount: -120000,
      date: '2026-11-10',
    });
    expect(detectStatementFormat('x.qfx', '')).toBe('ofx');
  });

  it('reads an OFX 2 XML credit card statement', () => {
    const statement = parseOfxStatement(fixture('card-ofx2.ofx'), 2);
    expect(statement.accountNumber).toBe('XXXXXXXXXXXX4821');
    expect(statement.rows.map((r) => r.amount)).toEqual([-129900, -8420, 50000]);
    expect(statement.rows[1]).toMatchObject({
      payee: 'Hilton Hotels',
      description: 'Hilton Hotels - HILTON DENVER',
      date: '2026-11-06',
    });
    expect(statement.closingBalance).toEqual({ date: '2026-11-20', amount: -88320 });
  });

  it('refuses a broken OFX file with the lines at fault', () => {
    const errors = statementErrorsOf(() => parseOfxStatement(fixture('broken.ofx'), 2));
    expect(errors).toEqual([
      { line: 29, reason: 'DTPOSTED "20261341" is not a date (YYYYMMDD)' },
      { line: 34, reason: 'this <STMTTRN> is never closed (the file looks cut off)' },
    ]);
    expect(statementErrorsOf(() => parseOfxStatement('hello', 2))[0]!.reason).toMatch(/not an OFX/);
  });
});

describe('CAMT.053', () => {
  it('reads booked entries with signs, references, parties and the closing balance', () => {
    const statement = parseCamt053Statement(fixture('camt053-eur.xml'), 2);
    expect(statement.currency).toBe('EUR');
    expect(statement.accountNumber).toBe('DE89370400440532013000');
    expect(statement.closingBalance).toEqual({ date: '2026-11-20', amount: 1133810 });
    expect(statement.rows).toEqual([
      {
        line: 29,
        date: '2026-11-04',
        amount: 245000,
        description: 'Invoice INV-2026-044',
        payee: 'Fabrikam Europe B.V.',
        externalId: '2026110400123456',
      },
      {
        line: 49,
        date: '2026-11-05',
        amount: -110000,
        description: 'Miete November Objekt 12',
        payee: 'Buero Vermietung GmbH',
        externalId: '2026110500654321',
      },
      {
        line: 67,
        date: '2026-11-15',
        amount: -1190,
        description: 'Kontofuehrung 11/2026',
        payee: null,
        externalId: '2026111500000042',
      },
    ]);
    // Opening 10,000.00 plus the booked entries is the stated closing balance.
    expect(1000000 + statement.rows.reduce((s, r) => s + r.amount, 0)).toBe(1133810);
  });

  it('refuses malformed XML with the line', () => {
    const errors = statementErrorsOf(() => parseCamt053Statement(fixture('broken-camt053.xml'), 2));
    expect(errors).toHaveLength(1);
    expect(errors[0]!.reason).toMatch(/malformed/);
    expect(errors[0]!.line).toBeGreaterThanOrEqual(15);
  });

  it('refuses an entry with a bad amount, naming its line', () => {
    const errors = statementErrorsOf(() => parseCamt053Statement(fixture('camt053-bad-entry.xml'), 2));
    expect(errors).toEqual([{ line: 12, reason: expect.stringMatching(/^the entry amount \(Amt\): /) }]);
  });
});

describe('CAMT checked against other public files (2026-11-28)', () => {
  it("reads documents concatenated in one file (a bank's merged download) as one statement each, lines kept", () => {
    const file = parseCamtFile(fixture('camt053-two-documents.xml'), 2);
    expect(
      file.statements.map((s) => ({
        line: s.line,
        opening: s.openingBalance,
        closing: s.closingBalance,
        rows: s.rows.map((r) => [r.line, r.amount, r.externalId]),
      })),
    ).toEqual([
      {
        line: 5,
        opening: { date: '2026-10-28', amount: 100000 },
        closing: { date: '2026-10-28', amount: 94050 },
        rows: [[10, -5950, 'R-301-1']],
      },
      {
        line: 25,
        opening: { date: '2026-10-29', amount: 94050 },
        closing: { date: '2026-10-29', amount: 214050 },
        rows: [
          [30, 125000, 'R-302-1'],
          [38, -5000, 'R-302-2'],
        ],
      },
    ]);
    // Each statement ties: opening + entries = closing.
    for (const s of file.statements)
      expect(s.openingBalance!.amount + s.rows.reduce((n, r) => n + r.amount, 0)).toBe(
        s.closingBalance!.amount,
      );
  });

  it('names the line in the document where a concatenated file breaks, and never splits inside one', () => {
    const text = fixture('camt053-two-documents.xml');
    // An unclosed element in the second document: the line is the file's, not the document's.
    const broken = text.replace('<Id>S-2026-302</Id>', '<Id>S-2026-302</Idx>');
    expect(statementErrorsOf(() => parseCamtFile(broken, 2))[0]).toMatchObject({
      line: 26,
      reason: expect.stringMatching(/malformed/),
    });
    // Text after the root that is not another document stays a malformed file.
    expect(statementErrorsOf(() => parseCamtFile(`${text}<Stmt>1</Stmt>\n`, 2))[0]!.reason).toMatch(
      /malformed/,
    );
  });

  it('says an entry without an amount has none', () => {
    const text = fixture('camt053-two-documents.xml').replace('<Amt Ccy="EUR">59.50</Amt>', '');
    expect(statementErrorsOf(() => parseCamtFile(text, 2))).toEqual([
      {
        line: 10,
        reason: 'the entry amount (Amt) is missing or empty: the file does not say how much moved',
      },
    ]);
  });
});

describe('OFX checked against other public files (2026-11-28)', () => {
  it('says what a file without a statement is: a sign-on answer only, or a list of accounts', () => {
    expect(statementErrorsOf(() => parseOfxFile(fixture('signon-only.ofx'), 2))).toEqual([
      {
        line: 11,
        reason: expect.stringMatching(
          /no bank or credit-card statement .*only the bank's answer to signing on/,
        ),
      },
    ]);
    expect(statementErrorsOf(() => parseOfxFile(fixture('account-list.ofx'), 2))).toEqual([
      {
        line: 11,
        reason: expect.stringMatching(/no bank or credit-card statement .*list of accounts \(ACCTINFORS\)/),
      },
    ]);
  });
});

describe('CAMT references checked against other public files (2026-11-28)', () => {
  it("never takes NONREF or NOTPROVIDED for a bank id (it would make later entries duplicates); the bank's own Prtry reference is one", () => {
    const rows = only(parseCamtFile(fixture('camt052-nonref.xml'), 2)).rows;
    expect(rows.map((r) => [r.amount, r.externalId])).toEqual([
      [-1840, '2026-11-20-09.14.02.118204'],
      [64000, 'INV-2026-0412'],
      [-490, null],
    ]);
  });
});

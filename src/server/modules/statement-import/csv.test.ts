import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { currencyExponent } from '../../../shared/money.ts';
import { type CsvDateFormat, csvMappingSchema, csvSniffSchema } from '../../../shared/transactions.ts';
import { parseCsvStatement } from './csv.ts';
import { detectDelimiter, readCsvRecords } from './csv-records.ts';
import { classifyIndicators, sniffCsv } from './csv-sniff.ts';
import { StatementParseError } from './types.ts';
import { detectDateFormat, detectDecimalMark, parseBankAmount, parseDateIn } from './values.ts';
import { statementErrorsOf } from '../../testing/statements.ts';

// CSV statements as banks write them: number and date formats (property tests: any amount
// or date written in a format reads back as itself), line ends, table detection, amount
// layouts, currency and description rules.

const group = (digits: string, sep: string) =>
  sep === '' ? digits : digits.replace(/\B(?=(\d{3})+(?!\d))/g, sep);

/** An amount in minor units written the way one bank or another writes it. */
const written = fc
  .record({
    minor: fc.integer({ min: -99_999_999_999, max: 99_999_999_999 }),
    mark: fc.constantFrom('.' as const, ',' as const),
    groupIndex: fc.nat(4),
    negative: fc.constantFrom('lead', 'trail', 'parens', 'unicode'),
    plus: fc.boolean(),
    money: fc.constantFrom('', '€', '$', '£', ' EUR', 'EUR ', ' €', ' kr'),
  })
  .map(({ minor, mark, groupIndex, negative, plus, money }) => {
    const seps = mark === '.' ? ['', ',', ' ', "'"] : ['', '.', ' ', '\u00a0', "'"];
    const sep = seps[groupIndex % seps.length]!;
    const abs = Math.abs(minor);
    const body = `${group(String(Math.floor(abs / 100)), sep)}${mark}${String(abs % 100).padStart(2, '0')}`;
    const decorated = money.startsWith(' ') ? `${body}${money}` : `${money}${body}`;
    let text = decorated;
    if (minor < 0) {
      if (negative === 'lead') text = `-${decorated}`;
      else if (negative === 'trail') text = `${decorated}-`;
      else if (negative === 'parens') text = `(${decorated})`;
      else text = `\u2212${decorated}`;
    } else if (plus) text = `+${decorated}`;
    return { minor, mark, text };
  });

describe('amounts', () => {
  it('reads any amount written in any bank format back exactly', () => {
    fc.assert(
      fc.property(written, ({ minor, mark, text }) => {
        expect(parseBankAmount(text, 2, mark)).toBe(minor === 0 ? 0 : minor);
      }),
      { numRuns: 2000 },
    );
  });

  it('decides the decimal mark of a column from its values', () => {
    fc.assert(
      fc.property(
        fc.array(written, { minLength: 1, maxLength: 20 }),
        fc.constantFrom('.' as const, ',' as const),
        (values, mark) => {
          const column = values
            .map((v) => parseBankAmount(v.text, 2, v.mark))
            .map((minor) => {
              const abs = Math.abs(minor);
              return `${minor < 0 ? '-' : ''}${group(String(Math.floor(abs / 100)), mark === '.' ? ',' : '.')}${mark}${String(abs % 100).padStart(2, '0')}`;
            });
          expect(detectDecimalMark(column).mark).toBe(mark);
        },
      ),
    );
    // Thousands alone cannot tell: "1,234" is 1234 or 1.234 — the user chooses.
    expect(detectDecimalMark(['1,234', '12,500', '-3,000'])).toEqual({
      mark: null,
      ambiguousValues: ['1,234', '12,500', '-3,000'],
    });
    expect(detectDecimalMark(['1,234', '5,50'])).toEqual({ mark: ',', ambiguousValues: [] });
    expect(detectDecimalMark(['100', '-350'])).toEqual({ mark: '.', ambiguousValues: [] });
  });

  it('refuses what it cannot read exactly', () => {
    expect(() => parseBankAmount('1,23,456.00', 2, '.')).toThrow(/not an amount/);
    expect(() => parseBankAmount('1 2 3', 2, ',')).toThrow(/not an amount/);
    expect(() => parseBankAmount('12,50', 2, '.')).toThrow(/decimal comma; change the decimal mark/);
    expect(() => parseBankAmount('-12.00-', 2, '.')).toThrow(/more than one sign/);
    expect(() => parseBankAmount('(-5.00)', 2, '.')).toThrow(/more than one sign/);
    expect(() => parseBankAmount('12.345', 2, '.')).toThrow(/lose part of a cent/);
    expect(() => parseBankAmount('12 USD EUR', 2, '.')).toThrow(/not an amount/);
    expect(() => parseBankAmount('', 2, '.')).toThrow(/empty/);
    expect(() => parseBankAmount('10,000,000,000.00', 2, '.')).toThrow(/too large/);
    expect(parseBankAmount('30.000', 2, '.')).toBe(3000);
    expect(parseBankAmount('1.500', 0, ',')).toBe(1500);
    expect(parseBankAmount('+ £1,100.00', 2, '.')).toBe(110000);
    expect(parseBankAmount('1\u202f234,56 €', 2, ',')).toBe(123456);
  });
});

const fromIso = (iso: string) => iso.split('-').map(Number) as [number, number, number];
const MON = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WRITERS: Record<CsvDateFormat, (y: number, m: number, d: number) => string> = {
  'YYYY-MM-DD': (y, m, d) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`,
  'DD/MM/YYYY': (y, m, d) => `${d}/${m}/${y}`,
  'MM/DD/YYYY': (y, m, d) => `${m}/${d}/${y}`,
  'DD.MM.YYYY': (y, m, d) => `${String(d).padStart(2, '0')}.${String(m).padStart(2, '0')}.${y}`,
  'DD-MM-YYYY': (y, m, d) => `${d}-${m}-${y}`,
  'YYYY/MM/DD': (y, m, d) => `${y}/${m}/${d}`,
  YYYYMMDD: (y, m, d) => `${y}${String(m).padStart(2, '0')}${String(d).padStart(2, '0')}`,
  'YYYY.MM.DD': (y, m, d) => `${y}.${String(m).padStart(2, '0')}.${String(d).padStart(2, '0')}.`,
  'DD.MM.YY': (y, m, d) => `${d}.${m}.${String(y % 100).padStart(2, '0')}`,
  'DD/MM/YY': (y, m, d) => `${d}/${m}/${String(y % 100).padStart(2, '0')}`,
  'MM/DD/YY': (y, m, d) => `${m}/${d}/${String(y % 100).padStart(2, '0')}`,
  'MM-DD-YYYY': (y, m, d) => `${m}-${d}-${y}`,
  'DD-MM-YY': (y, m, d) => `${d}-${m}-${String(y % 100).padStart(2, '0')}`,
  'DD-MMM-YYYY': (y, m, d) => `${String(d).padStart(2, '0')}-${MON[m - 1]}-${y}`,
  'DD-MMM-YY': (y, m, d) => `${d} ${MON[m - 1]!.toUpperCase()} ${String(y % 100).padStart(2, '0')}`,
  'MMM DD, YYYY': (y, m, d) => `${MON[m - 1]} ${d}, ${y}`,
};

describe('dates', () => {
  const day = fc
    .date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(2069, 11, 31)), noInvalidDate: true })
    .map((d) => d.toISOString().slice(0, 10));

  it('reads any date written in each format back as itself, with or without a time', () => {
    fc.assert(
      fc.property(
        day,
        fc.constantFrom(...(Object.keys(WRITERS) as CsvDateFormat[])),
        fc.constantFrom('', ' 12:34', ' 7:05:09', 'T08:26:29Z', ' 12:34:56 +0000'),
        (iso, format, time) => {
          const text = WRITERS[format](...fromIso(iso)) + (format === 'YYYYMMDD' ? '' : time);
          expect(parseDateIn(text, format)).toBe(iso);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('decides the format from the whole column, and asks when day and month cannot be told apart', () => {
    expect(detectDateFormat(['01/02/2026', '12/11/2026'])).toEqual({
      format: null,
      fitting: ['DD/MM/YYYY', 'MM/DD/YYYY'],
    });
    expect(detectDateFormat(['01/02/2026', '12/11/2026', '13/11/2026']).format).toBe('DD/MM/YYYY');
    expect(detectDateFormat(['01/02/2026', '11/30/2026']).format).toBe('MM/DD/YYYY');
    expect(detectDateFormat(['22.02.18', '01.03.18']).format).toBe('DD.MM.YY');
    expect(detectDateFormat(['27 Feb 2018', '3. Dez. 2019', '1-Mär-2020']).format).toBe('DD-MMM-YYYY');
    expect(detectDateFormat(['Pending', '12-Dec-2019', '02-Dec-2019'])).toEqual({
      format: 'DD-MMM-YYYY',
      fitting: [],
    });
  });

  it('refuses impossible dates and stray text', () => {
    expect(parseDateIn('2026-02-29', 'YYYY-MM-DD')).toBeNull();
    expect(parseDateIn('29.02.28', 'DD.MM.YY')).toBe('2028-02-29');
    expect(parseDateIn('31-Jun-2026', 'DD-MMM-YYYY')).toBeNull();
    expect(parseDateIn('2026-11-02 garbage', 'YYYY-MM-DD')).toBeNull();
    expect(parseDateIn('02-Foo-2026', 'DD-MMM-YYYY')).toBeNull();
  });
});

describe('reading records', () => {
  const field = fc.stringMatching(/^[a-z ,;"\n0-9]{0,8}$/);
  const quote = (f: string) => (/[,"\n]/.test(f) || f.trim() === '' ? `"${f.replace(/"/g, '""')}"` : f);

  it('numbers records by the line they start on for \\n, \\r\\n, \\r and \\r\\r\\n, with line breaks inside quotes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(field, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom('\n', '\r\n', '\r', '\r\r\n'),
        (rows, end) => {
          const lines = rows.map((r) => r.map(quote).join(','));
          // Line breaks inside quoted fields are written with the file's own line end too.
          const text = lines.map((l) => l.replace(/\n/g, end)).join(end) + end;
          const records = readCsvRecords(text, ',');
          let line = 1;
          expect(records.map((r) => r.line)).toEqual(
            rows.map((r) => {
              const start = line;
              line += 1 + r.join('').split('\n').length - 1;
              return start;
            }),
          );
          expect(records.map((r) => r.fields)).toEqual(rows);
        },
      ),
    );
  });

  it('finds the delimiter of the table, not of the preamble', () => {
    const tab =
      'Konto\t123\n\nDatum\tText\tBetrag\n01.11.2026\tMiete\t-900,00\n02.11.2026\tKunde\t1.200,00\n';
    expect(detectDelimiter(tab)).toBe('\t');
    expect(detectDelimiter('Date|Memo|Amount\n2026-11-01|a, b|1.00\n2026-11-02|c, d|2.00\n')).toBe('|');
    expect(
      detectDelimiter(
        'Saldo;150,00;EUR\nDatum;Text;Betrag;W\n01.11.2026;A;1,00;EUR\n01.11.2026;B;2,00;EUR\n',
      ),
    ).toBe(';');
  });
});

describe('sniffing any file', () => {
  it('answers in the shape the API promises, also for very wide or very long preambles', () => {
    const wide = `${[...Array(250).keys()].map((i) => `c${i}`).join(',')}\n${[...Array(250).keys()].map((i) => (i === 220 ? '2026-11-02' : i === 230 ? '1.00' : 'x')).join(',')}\n`;
    const preamble = `${'Note;x\n'.repeat(1200)}Date;Text;Amount\n2026-11-02;A;1,00\n`;
    for (const text of [wide, preamble, '\n\n', 'just words', ';;;\n,,,']) {
      const sniff = { ...sniffCsv(text), savedMapping: null };
      expect(csvSniffSchema.safeParse(sniff).success).toBe(true);
    }
    expect(sniffCsv(wide).suggestedMapping).toBeNull();
    // Any text: a sniff in the promised shape and a parse, or a refusal by line — nothing else.
    const piece = fc.constantFrom(
      '2026-11-02',
      '02.11.26',
      '1.234,56',
      '-12.00',
      '(5)',
      'CR',
      '"',
      '""',
      'a b',
      '',
      ';',
      ',',
      '\t',
      '\n',
      '\r',
      '€',
      '31/02/2026',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 60 }), (pieces) => {
        const text = pieces.join('');
        try {
          const sniff = sniffCsv(text);
          expect(csvSniffSchema.safeParse({ ...sniff, savedMapping: null }).success).toBe(true);
          if (sniff.suggestedMapping)
            parseCsvStatement(text, sniff.suggestedMapping, { exponent: 2, currency: 'EUR' });
        } catch (error) {
          if (!(error instanceof StatementParseError)) throw error;
          expect(error.errors.length).toBeGreaterThan(0);
          const lines = text.replace(/\r\r\n|\r\n|\r/g, '\n').split('\n').length;
          for (const e of error.errors) {
            expect(e.line).toBeGreaterThanOrEqual(1);
            expect(e.line).toBeLessThanOrEqual(lines);
          }
        }
      }),
      { numRuns: 500 },
    );
    expect(sniffCsv(preamble).suggestedMapping).toBeNull();
  });
});

describe('remembered mappings', () => {
  it('reads a mapping saved before the table, indicator, currency and continuation fields existed', () => {
    const saved = {
      delimiter: ',',
      hasHeader: true,
      dateColumn: 0,
      descriptionColumn: 1,
      payeeColumn: null,
      amountColumn: 2,
      debitColumn: null,
      creditColumn: null,
      externalIdColumn: null,
      dateFormat: 'MM/DD/YYYY',
      decimalSeparator: '.',
      invertAmounts: false,
    };
    const mapping = csvMappingSchema.parse(saved);
    expect(mapping).toMatchObject({
      headerRow: 0,
      firstDataRow: null,
      footerRows: 0,
      indicatorColumn: null,
      currencyColumn: null,
      referenceColumn: null,
      continuationRows: 'leave_out',
    });
    const statement = parseCsvStatement('Date,Text,Amount\n11/30/2026,Rent,-900.00\n', mapping, 2);
    expect(statement.rows).toMatchObject([{ line: 2, date: '2026-11-30', amount: -90000 }]);
  });
});

describe('suggestions for exports shaped like well-known banks', () => {
  it('prefers "Description" to "Details" and the booking date to the value date', () => {
    const chase =
      'Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\nDEBIT,11/23/2026,"ADOBE *CREATIVE CLOUD",-54.99,ACH_DEBIT,1200.01,,\nCREDIT,11/24/2026,"ACME PAYROLL",2500.00,ACH_CREDIT,3700.01,,\nCHECK,11/25/2026,"CHECK 1042",-200.00,CHECK_PAID,3500.01,1042,\n';
    expect(sniffCsv(chase).suggestedMapping).toMatchObject({
      dateColumn: 1,
      descriptionColumn: 2,
      amountColumn: 3,
      indicatorColumn: null,
      dateFormat: 'MM/DD/YYYY',
    });
    const valuta = 'Valutadatum;Buchungstag;Text;Betrag\n03.11.2026;02.11.2026;Miete;-900,00\n';
    expect(sniffCsv(valuta).suggestedMapping).toMatchObject({ dateColumn: 1, descriptionColumn: 2 });
  });

  it('takes the longest text column as the description of a file without a header', () => {
    const noHeader =
      '"11/03/2026","-54.99","*","","ADOBE CREATIVE CLOUD 800-833-6687"\n"11/04/2026","2500.00","*","","ACME PAYROLL DIR DEP"\n';
    expect(sniffCsv(noHeader).suggestedMapping).toMatchObject({
      hasHeader: false,
      dateColumn: 0,
      amountColumn: 1,
      descriptionColumn: 4,
    });
  });

  it('shows a summary block above the table and refuses a dated row without an amount until the user moves past it', () => {
    const summary = [
      'Description,,Summary Amt.',
      'Beginning balance as of 11/01/2026,,"1,000.00"',
      'Ending balance as of 11/30/2026,,"3,445.01"',
      '',
      'Date,Description,Amount,Running Bal.',
      '11/01/2026,Beginning balance as of 11/01/2026,,"1,000.00"',
      '11/03/2026,"ADOBE *CREATIVE CLOUD","-54.99","945.01"',
      '11/04/2026,"ACME PAYROLL","2,500.00","3,445.01"',
    ].join('\n');
    const sniff = sniffCsv(summary);
    expect(sniff.suggestedMapping).toMatchObject({ headerRow: 3, firstDataRow: 4, amountColumn: 2 });
    expect(statementErrorsOf(() => parseCsvStatement(summary, sniff.suggestedMapping!, 2))).toEqual([
      { line: 6, reason: '"Amount": the amount is empty' },
    ]);
    const moved = parseCsvStatement(summary, { ...sniff.suggestedMapping!, firstDataRow: 5 }, 2);
    expect(moved.rows.map((r) => r.amount)).toEqual([-5499, 250000]);
  });
});

describe('amount layouts, currency and descriptions', () => {
  const base = {
    delimiter: ';',
    dateColumn: 0,
    descriptionColumn: 1,
    payeeColumn: 2,
    amountColumn: 3,
    dateFormat: 'DD.MM.YYYY',
    decimalSeparator: ',',
  } as const;

  it('signs amounts by an S/H, Soll/Haben, DR/CR or +/- indicator, and refuses an unknown one by line', () => {
    for (const [out, inn] of [
      ['S', 'H'],
      ['Soll', 'Haben'],
      ['DR', 'CR'],
      ['-', '+'],
      ['Debit', 'Credit'],
    ]) {
      const c = classifyIndicators([out!, inn!, out!]);
      expect(c).toEqual({ debit: [out], credit: [inn] });
      const text = `Datum;Text;Name;Betrag;X\n01.11.2026;Miete;;900,00;${out}\n02.11.2026;Kunde;;-1.200,00;${inn}\n03.11.2026;?;;1,00;Q\n`;
      const mapping = csvMappingSchema.parse({
        ...base,
        indicatorColumn: 4,
        debitIndicators: c!.debit,
        creditIndicators: c!.credit,
      });
      expect(statementErrorsOf(() => parseCsvStatement(text, mapping, 2))).toEqual([
        { line: 4, reason: expect.stringContaining('"X": "Q", which is neither a money-out') },
      ]);
      const ok = parseCsvStatement(text.split('\n').slice(0, 3).join('\n'), mapping, 2);
      expect(ok.rows.map((r) => r.amount)).toEqual([-90000, 120000]);
    }
    expect(classifyIndicators(['', 'CR', ''])).toEqual({ debit: [''], credit: ['CR'] });
    expect(classifyIndicators(['POS', 'ATM'])).toBeNull();
  });

  it('refuses a row with both a debit and a credit, or in another currency, naming the line', () => {
    const split = csvMappingSchema.parse({
      ...base,
      amountColumn: null,
      debitColumn: 3,
      creditColumn: 4,
      currencyColumn: 5,
    });
    const text =
      'Datum;Text;Name;Soll;Haben;Währung\n01.11.2026;Miete;;900,00;;EUR\n02.11.2026;Kunde;;;1.200,00;EUR\n03.11.2026;Both;;1,00;2,00;EUR\n04.11.2026;Card;;5,00;;USD\n05.11.2026;Fee;;1,00 USD;;EUR\n';
    expect(statementErrorsOf(() => parseCsvStatement(text, split, { exponent: 2, currency: 'EUR' }))).toEqual(
      [
        { line: 4, reason: '"Soll": both "Soll" and "Haben" hold an amount' },
        {
          line: 5,
          reason: 'the row is in USD but the account is kept in EUR; import USD rows into a USD account',
        },
        { line: 6, reason: '"Soll": "1,00 USD" is in USD, the account in EUR' },
      ],
    );
  });

  it('falls back from an empty description to the payee, then the reference; lists rows without date or amount', () => {
    const mapping = csvMappingSchema.parse({ ...base, referenceColumn: 4 });
    const text =
      'Datum;Text;Name;Betrag;Ref\n01.11.2026;;Stadtwerke;-10,00;R1\n02.11.2026;;;-20,00;R2\n;second line of the text;;;\n03.11.2026;;;-30,00;\n';
    const errors = statementErrorsOf(() => parseCsvStatement(text, mapping, 2));
    expect(errors).toEqual([{ line: 5, reason: 'the description, payee and reference are all empty' }]);
    const statement = parseCsvStatement(text.split('\n').slice(0, 4).join('\n'), mapping, 2);
    expect(statement.rows.map((r) => r.description)).toEqual(['Stadtwerke', 'R2']);
    expect(statement.csvLayout.leftOut).toEqual([{ line: 4, text: 'second line of the text' }]);
    expect(statement.notices).toEqual([
      'Line 4 has no date and no amount and was left out: "second line of the text"',
    ]);
  });

  it('adds rows without date and amount to the description above only when the user says so', () => {
    const text =
      'Date,Details,Out,In\n,orphan note,,\n18/04/2026,DEBIT PURCHASE,6.66,\n,UBER EATS,,\n,HELP.UBER 15/04,,\n17/04/2026,SALARY,,100.00\n';
    const mapping = csvMappingSchema.parse({
      dateColumn: 0,
      descriptionColumn: 1,
      debitColumn: 2,
      creditColumn: 3,
      dateFormat: 'DD/MM/YYYY',
    });
    const left = parseCsvStatement(text, mapping, 2);
    expect(left.rows.map((r) => r.description)).toEqual(['DEBIT PURCHASE', 'SALARY']);
    expect(left.csvLayout.leftOut.map((r) => r.line)).toEqual([2, 4, 5]);
    const joined = parseCsvStatement(text, { ...mapping, continuationRows: 'append' }, 2);
    expect(joined.rows.map((r) => [r.description, r.amount])).toEqual([
      ['DEBIT PURCHASE UBER EATS HELP.UBER 15/04', -666],
      ['SALARY', 10000],
    ]);
    expect(joined.csvLayout.leftOut.map((r) => r.line)).toEqual([2]);
    expect(joined.csvLayout.joined).toEqual([
      { line: 4, to: 3 },
      { line: 5, to: 3 },
    ]);
    expect(joined.notices).toContain('Line 5 was added to the description of line 3');
    expect(sniffCsv(text).notes.join(' ')).toMatch(
      /3 rows \(line 2, line 4, line 5\) have neither a date nor an amount/,
    );
  });

  it('reads the table between a preamble and a summary, and a mistyped last row is refused, not taken for a summary', () => {
    const text =
      'Kontoauszug;;\nIBAN;DE00 1234;\n\nDatum;Text;Betrag\n01.11.2026;Miete;-900,00\n02.11.2026;Kunde;1.200,00\nSumme;;300,00\n';
    const sniff = sniffCsv(text);
    expect(sniff.suggestedMapping).toMatchObject({ headerRow: 2, firstDataRow: 3, footerRows: 1 });
    const statement = parseCsvStatement(text, sniff.suggestedMapping!, 2);
    expect(statement.rows.map((r) => r.line)).toEqual([5, 6]);
    expect(statement.csvLayout).toMatchObject({ headerLine: 4, linesAbove: [1, 2], linesBelow: [7] });
    const typo = text.replace('Summe;;300,00', '31.11.2026;Gebühr;-4,90');
    const typoSniff = sniffCsv(typo);
    expect(typoSniff.suggestedMapping!.footerRows).toBe(0);
    expect(statementErrorsOf(() => parseCsvStatement(typo, typoSniff.suggestedMapping!, 2))).toEqual([
      { line: 7, reason: '"31.11.2026" in "Datum" is not a date in the format DD.MM.YYYY' },
    ]);
  });
});

describe('suggestions checked against other public exports (2026-11-28)', () => {
  const read = (name: string, currency: string) => {
    const text = readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
    const sniff = sniffCsv(text);
    const statement = parseCsvStatement(text, sniff.suggestedMapping!, {
      exponent: currencyExponent(currency),
      currency,
    });
    return { sniff, rows: statement.rows };
  };

  it('takes the booked amount and its currency, not the original foreign amount of a card payment', () => {
    const { sniff, rows } = read('card-foreign-de.csv', 'EUR');
    // Buchungsbetrag (6) is what the account moved by; Originalbetrag (3) is in USD or GBP.
    expect(sniff.suggestedMapping).toMatchObject({ dateColumn: 2, amountColumn: 6, currencyColumn: 7 });
    expect(rows.map((r) => [r.date, r.amount])).toEqual([
      ['2026-11-04', -1106],
      ['2026-11-06', -420],
      ['2026-11-10', 17218],
    ]);
  });

  it('reads snake_case headers and never takes the statement period for the transaction date', () => {
    const { sniff, rows } = read('period-columns.csv', 'EUR');
    expect(sniff.suggestedMapping).toMatchObject({ dateColumn: 9, amountColumn: 11 });
    expect(rows.map((r) => [r.date, r.amount])).toEqual([
      ['2026-10-03', 180000],
      ['2026-10-17', -18000],
    ]);
    // Without a name it knows, the first date column that does not bound the period is taken.
    const unnamed =
      'initial_date,final_date,posted,text,amount\n2026-10-01,2026-10-31,2026-10-03,Rent,-900.00\n';
    expect(sniffCsv(unnamed).suggestedMapping).toMatchObject({ dateColumn: 2 });
  });

  it('reads YNAB Outflow/Inflow columns with an Arabic-script currency sign, in a three-decimal currency', () => {
    const { sniff, rows } = read('ynab-jod.csv', 'JOD');
    expect(sniff.suggestedMapping).toMatchObject({ debitColumn: 5, creditColumn: 6, payeeColumn: 3 });
    expect(rows.map((r) => r.amount)).toEqual([-12345, 950000]);
    // The sign names its currency: the same file is refused for a USD account, by line.
    const text = readFileSync(new URL('./fixtures/ynab-jod.csv', import.meta.url), 'utf8');
    expect(
      statementErrorsOf(() =>
        parseCsvStatement(text, sniff.suggestedMapping!, { exponent: 2, currency: 'USD' }),
      )[0],
    ).toMatchObject({ line: 2 });
  });
});

describe('tables checked against other public exports (2026-11-28)', () => {
  const text = readFileSync(new URL('./fixtures/wide-rows-at.csv', import.meta.url), 'utf8');

  it('finds a header narrower than rows that carry extra text cells, and never takes an account number for the amount', () => {
    const sniff = sniffCsv(text);
    // Before: the widest rows set the table, the header and the first row fell outside it,
    // and the account number (column 1) was read as the amount — a hundred million too much.
    expect(sniff.suggestedMapping).toMatchObject({
      hasHeader: true,
      headerRow: 0,
      firstDataRow: 1,
      dateColumn: 2,
      amountColumn: 5,
      currencyColumn: 4,
      // "Verwendungszweck" is empty on the last row; "Text" is filled on every one.
      descriptionColumn: 6,
    });
    const statement = parseCsvStatement(text, sniff.suggestedMapping!, { exponent: 2, currency: 'EUR' });
    expect(statement.rows.map((r) => [r.line, r.amount])).toEqual([
      [2, -6490],
      [4, 185000],
      [5, -1230],
    ]);
    expect(statement.notices).toContain('1 row of amount 0 moved no money and is not imported (line 3)');
    // Without a header, a constant whole number column is still not the amount.
    const bare = '88776655;03.11.2026;Miete;-900,00\n88776655;04.11.2026;Gehalt;2500,00\n';
    expect(sniffCsv(bare).suggestedMapping).toMatchObject({ dateColumn: 1, amountColumn: 3 });
  });
});

describe('a running balance checked against the suggested signs (2026-11-28)', () => {
  it('says when the balance moves against the amounts as read, and leaves the choice to the user', () => {
    // Books-side columns (OCA's debit_credit_amount.csv): "Debit" raises the balance.
    const text = readFileSync(new URL('./fixtures/balance-contradicts.csv', import.meta.url), 'utf8');
    const sniff = sniffCsv(text);
    expect(sniff.suggestedMapping).toMatchObject({ debitColumn: 2, creditColumn: 3, invertAmounts: false });
    expect(sniff.notes.join(' ')).toMatch(
      /balance column moves the other way .*Money out is shown as positive/,
    );
    // The same rows with the balance agreeing: nothing is said.
    const agreeing = text
      .replace('1250.00', '750.00')
      .replace('350.00', '1650.00')
      .replace('390.00', '1610.00');
    expect(sniffCsv(agreeing).notes.join(' ')).not.toMatch(/balance column/);
  });
});

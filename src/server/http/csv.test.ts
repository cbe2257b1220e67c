import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CsvCell, csvAmount, csvDecimal, csvRows, FORMULA_TRIGGERS, neutraliseCell } from './csv.ts';

const readBack = (text: string): string[][] => parse(text, { relax_column_count: true });
const startsWithTrigger = (text: string) => FORMULA_TRIGGERS.some((t) => text.startsWith(t));

describe('CSV writer cell rules', () => {
  it('neutralises text that starts with a formula trigger, and quotes it', () => {
    const text = csvRows([['=HYPERLINK("http://x")', '+1', '-cmd', '@SUM(A1)', '\tx', '\rx', 'plain']]);
    expect(text).toBe(`"'=HYPERLINK(""http://x"")","'+1","'-cmd","'@SUM(A1)","'\tx","'\rx",plain\r\n`);
    expect(readBack(text)[0]).toEqual([
      `'=HYPERLINK("http://x")`,
      "'+1",
      "'-cmd",
      "'@SUM(A1)",
      "'\tx",
      "'\rx",
      'plain',
    ]);
  });

  it('writes numbers and decimal amounts as numbers, not as text', () => {
    const text = csvRows([
      [-12.34, 0, 42n, csvAmount(-1234, 'USD'), csvAmount(-5, 'JPY'), csvDecimal('-0.50')],
    ]);
    expect(text).toBe('-12.34,0,42,-12.34,-5,-0.50\r\n');
  });

  it('treats a "decimal" that is not one as text', () => {
    expect(csvRows([[csvDecimal('-1+1'), csvDecimal('=1')]])).toBe(`"'-1+1","'=1"\r\n`);
  });

  it('writes empty cells for null, undefined and non-finite numbers, and quotes separators', () => {
    expect(csvRows([[null, undefined, Number.NaN, 'a,b', 'say "hi"', 'two\nlines']])).toBe(
      ',,,"a,b","say ""hi""","two\nlines"\r\n',
    );
    expect(csvRows([])).toBe('');
  });

  it('property: no text cell read back starts with a formula trigger, and its content is kept', () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme' }),
      fc.string({
        unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', '"', ',', "'", 'a', ' ', '1'),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(text, { minLength: 2, maxLength: 6 }), { minLength: 1, maxLength: 5 }),
        (rows) => {
          const back = readBack(csvRows(rows));
          expect(back).toHaveLength(rows.length);
          for (const [r, row] of back.entries()) {
            for (const [c, value] of row.entries()) {
              expect(startsWithTrigger(value)).toBe(false);
              expect(value).toBe(neutraliseCell(rows[r]![c]!));
              const original = rows[r]![c]!;
              expect(value === original || value === `'${original}`).toBe(true);
            }
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('property: numbers and amounts round-trip exactly', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer()), {
          minLength: 1,
        }),
        fc.array(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), { minLength: 1 }),
        (numbers, minors) => {
          const cells: CsvCell[] = [...numbers, ...minors.map((m) => csvAmount(m, 'USD'))];
          const [back] = readBack(csvRows([cells]));
          for (const [i, n] of numbers.entries()) expect(Number(back![i])).toBe(n === 0 ? 0 : n);
          minors.forEach((m, i) => {
            const value = back![numbers.length + i]!;
            expect(value.startsWith("'")).toBe(false);
            expect(BigInt(value.replace('.', ''))).toBe(m);
          });
        },
      ),
      { numRuns: 300 },
    );
  });
});

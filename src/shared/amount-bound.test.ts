import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppError } from './errors.ts';
import { InvoiceCalcError, type TaxForCalc, calculateInvoice } from './invoices.ts';
import {
  AMOUNT_LIMIT_MESSAGE,
  LEDGER_VOLUME_LIMIT,
  MAX_AMOUNT_MINOR,
  MoneyParseError,
  convertMinor,
  minorAmount,
  minorToDecimalString,
  parseDecimalToMinor,
} from './money.ts';

// Decision 0013: one bound per amount field, enforced by one schema and one parser; and the
// arithmetic argument behind the ledger's volume limit (sums within it are exact numbers).

const MAX = BigInt(MAX_AMOUNT_MINOR);
const around = fc.oneof(
  fc.bigInt({ min: -MAX - 1000n, max: -MAX + 1000n }),
  fc.bigInt({ min: MAX - 1000n, max: MAX + 1000n }),
  fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
  fc.bigInt({ min: -MAX, max: MAX }),
);
const within = (v: bigint) => v <= MAX && v >= -MAX;

describe('the amount bound', () => {
  it('minorAmount accepts exactly the integers within ±MAX_AMOUNT_MINOR, with the one message', () => {
    const schema = minorAmount({ sign: 'any' });
    fc.assert(
      fc.property(around, (v) => {
        const n = Number(v);
        fc.pre(Number.isSafeInteger(n) || !within(v));
        const result = schema.safeParse(n);
        expect(result.success).toBe(within(v));
        if (!result.success && Number.isInteger(n)) {
          expect(result.error.issues.map((i) => i.message)).toContain(AMOUNT_LIMIT_MESSAGE);
        }
      }),
    );
  });

  it('non-negative and positive variants keep the same upper bound', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(minorAmount().safeParse(n).success).toBe(n <= MAX_AMOUNT_MINOR);
        expect(minorAmount({ sign: 'positive' }).safeParse(n).success).toBe(n > 0 && n <= MAX_AMOUNT_MINOR);
      }),
    );
  });

  it('every parsed amount (the importers’ one parser) is within the bound and exact', () => {
    fc.assert(
      fc.property(around, fc.constantFrom(0, 2, 3), (v, exponent) => {
        const text = minorToDecimalString(v, exponent);
        if (within(v)) {
          expect(BigInt(parseDecimalToMinor(text, exponent, { allowNegative: true }))).toBe(v);
        } else {
          expect(() => parseDecimalToMinor(text, exponent, { allowNegative: true })).toThrow(MoneyParseError);
          expect(() => parseDecimalToMinor(text, exponent, { allowNegative: true })).toThrow(
            /at most 999,999,999,999/,
          );
        }
      }),
    );
  });

  it('a converted amount is the exact BigInt result, or refused as amount_too_large (never a 500)', () => {
    const rate = fc
      .tuple(fc.bigInt({ min: 0n, max: 10n ** 14n - 1n }), fc.bigInt({ min: 0n, max: 10n ** 10n - 1n }))
      .filter(([w, f]) => w > 0n || f > 0n)
      .map(([w, f]) => `${w}.${f.toString().padStart(10, '0')}`);
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX }), rate, (amount, r) => {
        const [w, f] = r.split('.') as [string, string];
        const num = BigInt(w + f) * amount;
        const den = 10n ** 10n;
        let q = num / den;
        if ((num % den) * 2n >= den) q += 1n;
        if (within(q)) {
          expect(BigInt(convertMinor(Number(amount), 'EUR', r, 'USD'))).toBe(q);
        } else {
          try {
            convertMinor(Number(amount), 'EUR', r, 'USD');
            expect.unreachable();
          } catch (error) {
            expect(error).toBeInstanceOf(AppError);
            expect((error as AppError).status).toBe(400);
            expect((error as AppError).code).toBe('amount_too_large');
          }
        }
      }),
    );
  });

  it('an invoice either totals within the bound, exactly the sum of its lines, or is refused', () => {
    const line = fc.record({
      quantity: fc
        .tuple(fc.integer({ min: 0, max: 999_999 }), fc.integer({ min: 0, max: 999_999 }))
        .filter(([w, f]) => w + f > 0)
        .map(([w, f]) => `${w}.${String(f).padStart(6, '0')}`),
      unitPrice: fc.oneof(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: MAX_AMOUNT_MINOR }),
      ),
      discountPercent: fc.constantFrom('0', '10', '33.3333'),
      taxes: fc.constantFrom<TaxForCalc[]>(
        [],
        [{ id: 't1', percent: '20', compound: false, inclusive: false }],
        [{ id: 't1', percent: '20', compound: false, inclusive: true }],
        [
          { id: 't1', percent: '5', compound: false, inclusive: false },
          { id: 't2', percent: '9.975', compound: true, inclusive: false },
        ],
      ),
    });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 20 }), (lines) => {
        let totals: ReturnType<typeof calculateInvoice>;
        try {
          totals = calculateInvoice(lines);
        } catch (error) {
          expect(error).toBeInstanceOf(InvoiceCalcError);
          expect((error as Error).message).toMatch(/too large/);
          return;
        }
        for (const v of [totals.total, totals.subtotal, totals.taxTotal, totals.grossTotal]) {
          expect(Math.abs(v)).toBeLessThanOrEqual(MAX_AMOUNT_MINOR);
        }
        const exact = totals.lines.reduce((s, l) => s + BigInt(l.total), 0n);
        expect(BigInt(totals.total)).toBe(exact);
      }),
    );
  });

  it('any sums and differences of amounts whose volume is within the ledger limit are exact numbers', () => {
    // The reason the ledger keeps its volume below LEDGER_VOLUME_LIMIT: balances, totals and
    // their differences then never leave JavaScript's exact integer range, in any order.
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: MAX_AMOUNT_MINOR }), fc.boolean()), {
          minLength: 1,
          maxLength: 50,
        }),
        fc.integer({ min: 1, max: 2000 }),
        (parts, repeat) => {
          let number = 0;
          let exact = 0n;
          let volume = 0n;
          for (let r = 0; r < repeat; r += 1) {
            for (const [amount, negative] of parts) {
              if (volume + BigInt(amount) > BigInt(LEDGER_VOLUME_LIMIT)) break;
              volume += BigInt(amount);
              number += negative ? -amount : amount;
              exact += negative ? -BigInt(amount) : BigInt(amount);
            }
          }
          expect(Number.isSafeInteger(number)).toBe(true);
          expect(BigInt(number)).toBe(exact);
        },
      ),
    );
  });
});

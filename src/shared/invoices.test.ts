import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  InvoiceCalcError,
  type LineForCalc,
  type TaxForCalc,
  addMonthsIso,
  agingBucket,
  calculateInvoice,
  calculateLine,
  displayStatus,
  formatDocumentNumber,
  invoiceInputSchema,
  occurrenceDate,
  parseDecimal,
  roundFraction,
} from './invoices.ts';

const vat = (percent: string, extra: Partial<TaxForCalc> = {}): TaxForCalc => ({
  id: `t${percent}`,
  percent,
  compound: false,
  inclusive: false,
  ...extra,
});

describe('roundFraction', () => {
  it('rounds half away from zero', () => {
    expect(roundFraction({ n: 5n, d: 2n })).toBe(3);
    expect(roundFraction({ n: -5n, d: 2n })).toBe(-3);
    expect(roundFraction({ n: 249n, d: 100n })).toBe(2);
    expect(roundFraction({ n: 250n, d: 100n })).toBe(3);
    expect(roundFraction({ n: -1n, d: 3n })).toBe(0);
  });
});

describe('calculateLine', () => {
  it('multiplies an exact decimal quantity without float error', () => {
    // 0.1 x 0.7 in floats is 0.06999999...; here 3 x 1.15 and 0.333 x 300 are exact.
    expect(calculateLine({ quantity: '3', unitPrice: 115 }).gross).toBe(345);
    expect(calculateLine({ quantity: '0.333', unitPrice: 300 }).gross).toBe(100); // 99.9 → 100
    expect(calculateLine({ quantity: '1.005', unitPrice: 100 }).gross).toBe(101); // 100.5 → 101
    expect(calculateLine({ quantity: '2.5', unitPrice: 1 }).gross).toBe(3); // 2.5 → 3
  });

  it('takes the discount off before tax, each rounded on the line', () => {
    const r = calculateLine({ quantity: '1', unitPrice: 999, discountPercent: '12.5', taxes: [vat('20')] });
    expect(r.gross).toBe(999);
    expect(r.discount).toBe(125); // 124.875 → 125
    expect(r.net).toBe(874);
    expect(r.tax).toBe(175); // 174.8 → 175
    expect(r.total).toBe(1049);
  });

  it('rounds tax per line, not per document', () => {
    // Three lines of 0.05 at 10%: 0.005 tax each rounds to 0.01 → 3 cents; the document
    // rate on 15 cents would give 2 (1.5 → 2). Per line is what we promise.
    const doc = calculateInvoice([1, 2, 3].map(() => ({ quantity: '1', unitPrice: 5, taxes: [vat('10')] })));
    expect(doc.taxTotal).toBe(3);
    expect(doc.subtotal).toBe(15);
    expect(doc.total).toBe(18);
  });

  it('stacks a compound tax on the net plus earlier taxes', () => {
    // Quebec: GST 5% on net, QST 9.975% compound here for the test.
    const r = calculateLine({
      quantity: '1',
      unitPrice: 10000,
      taxes: [vat('5'), vat('9.975', { compound: true })],
    });
    expect(r.taxes.map((t) => t.amount)).toEqual([500, 1047]); // 10500 x 0.09975 = 1047.375
    expect(r.taxes[1]!.base).toBe(10500);
    expect(r.total).toBe(11547);
  });

  it('takes an inclusive tax out of the price and keeps the quoted total exact', () => {
    const r = calculateLine({ quantity: '1', unitPrice: 1000, taxes: [vat('20', { inclusive: true })] });
    expect(r.net).toBe(833);
    expect(r.tax).toBe(167);
    expect(r.total).toBe(1000);
    const two = calculateLine({
      quantity: '3',
      unitPrice: 333,
      taxes: [vat('7', { inclusive: true }), vat('9.5', { inclusive: true, compound: true })],
    });
    expect(two.total).toBe(999);
    expect(two.net + two.tax).toBe(999);
  });

  it('refuses what cannot be computed with a line number', () => {
    expect(() => calculateLine({ quantity: '0', unitPrice: 1 }, 2)).toThrow(InvoiceCalcError);
    expect(() => calculateLine({ quantity: '1', unitPrice: -1 })).toThrow(/Unit price/);
    expect(() => calculateLine({ quantity: '1', unitPrice: 1, discountPercent: '100.01' })).toThrow(
      /between 0 and 100/,
    );
    expect(() => calculateLine({ quantity: 'abc', unitPrice: 1 })).toThrow(/not a decimal/);
    expect(() =>
      calculateLine({ quantity: '1', unitPrice: 1, taxes: [vat('5'), vat('10', { inclusive: true })] }),
    ).toThrow(/mix/);
    try {
      calculateLine({ quantity: '0', unitPrice: 1 }, 4);
    } catch (e) {
      expect((e as InvoiceCalcError).line).toBe(4);
    }
  });
});

// Reference implementation by a different road: scaled integer arithmetic on strings.
const refRound = (num: bigint, den: bigint) => {
  const q = num / den;
  return Number((num % den) * 2n >= den ? q + 1n : q);
};

const decimalArb = (maxWhole: number, decimals: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: maxWhole }), fc.integer({ min: 0, max: 10 ** decimals - 1 }))
    .map(([w, f]) => (decimals === 0 || f === 0 ? String(w) : `${w}.${String(f).padStart(decimals, '0')}`));

const lineArb: fc.Arbitrary<LineForCalc> = fc.record({
  quantity: decimalArb(1000, 3).filter((q) => parseDecimal(q).n > 0n),
  unitPrice: fc.integer({ min: 0, max: 10_000_000 }),
  discountPercent: fc.oneof(fc.constant('0'), decimalArb(99, 2)),
  taxes: fc.oneof(
    fc.constant([] as TaxForCalc[]),
    fc
      .array(
        fc.record({
          id: fc.constantFrom('a', 'b', 'c'),
          percent: decimalArb(30, 3),
          compound: fc.boolean(),
          inclusive: fc.constant(false),
        }),
        { maxLength: 3 },
      )
      .map((ts) => ts.filter((t, i) => ts.findIndex((u) => u.id === t.id) === i)),
    fc
      .array(
        fc.record({
          id: fc.constantFrom('x', 'y'),
          percent: decimalArb(30, 2),
          compound: fc.boolean(),
          inclusive: fc.constant(true),
        }),
        { minLength: 1, maxLength: 2 },
      )
      .map((ts) => ts.filter((t, i) => ts.findIndex((u) => u.id === t.id) === i)),
  ),
});

describe('calculateInvoice properties', () => {
  it('gross and discount match an independent integer computation', () => {
    fc.assert(
      fc.property(lineArb, (line) => {
        const r = calculateLine(line);
        const q = parseDecimal(line.quantity);
        expect(r.gross).toBe(refRound(q.n * BigInt(line.unitPrice), q.d));
        const d = parseDecimal(line.discountPercent ?? '0');
        expect(r.discount).toBe(refRound(BigInt(r.gross) * d.n, 100n * d.d));
      }),
    );
  });

  it('every line adds up and the document is the sum of its lines', () => {
    fc.assert(
      fc.property(fc.array(lineArb, { minLength: 1, maxLength: 8 }), (lines) => {
        const doc = calculateInvoice(lines);
        for (const [i, r] of doc.lines.entries()) {
          expect(r.total).toBe(r.net + r.tax);
          expect(r.tax).toBe(r.taxes.reduce((s, t) => s + t.amount, 0));
          expect(r.net).toBeGreaterThanOrEqual(0);
          for (const t of r.taxes) expect(t.amount).toBeGreaterThanOrEqual(0);
          const inclusive = lines[i]!.taxes?.some((t) => t.inclusive);
          // Inclusive: the customer pays exactly the quoted (discounted) price.
          if (inclusive) expect(r.total).toBe(r.gross - r.discount);
          else expect(r.net).toBe(r.gross - r.discount);
        }
        expect(doc.total).toBe(doc.subtotal + doc.taxTotal);
        expect(doc.subtotal).toBe(doc.lines.reduce((s, r) => s + r.net, 0));
        expect(doc.taxTotal).toBe(doc.taxes.reduce((s, t) => s + t.amount, 0));
        expect(Number.isInteger(doc.total)).toBe(true);
      }),
    );
  });

  it('exclusive tax per line equals the exactly rounded rate on its base', () => {
    fc.assert(
      fc.property(lineArb, (line) => {
        if (line.taxes?.some((t) => t.inclusive)) return;
        const r = calculateLine(line);
        for (const [i, t] of r.taxes.entries()) {
          const p = parseDecimal(line.taxes![i]!.percent);
          expect(t.amount).toBe(refRound(BigInt(t.base) * p.n, 100n * p.d));
        }
      }),
    );
  });
});

describe('dates and status', () => {
  it('adds months without drifting past month ends', () => {
    expect(addMonthsIso('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonthsIso('2028-01-31', 1)).toBe('2028-02-29');
    expect(occurrenceDate('2026-01-31', 'monthly', 2)).toBe('2026-03-31');
    expect(occurrenceDate('2026-11-30', 'quarterly', 1)).toBe('2027-02-28');
    expect(occurrenceDate('2026-01-01', 'weekly', 3)).toBe('2026-01-22');
    expect(occurrenceDate('2024-02-29', 'yearly', 1)).toBe('2025-02-28');
  });

  it('derives overdue from the due date and the stored status', () => {
    expect(displayStatus('sent', '2026-01-10', '2026-01-11')).toBe('overdue');
    expect(displayStatus('partially_paid', '2026-01-10', '2026-01-11')).toBe('overdue');
    expect(displayStatus('sent', '2026-01-10', '2026-01-10')).toBe('sent');
    expect(displayStatus('paid', '2026-01-10', '2027-01-01')).toBe('paid');
    expect(displayStatus('draft', '2026-01-10', '2027-01-01')).toBe('draft');
  });

  it('puts balances in aging buckets by days past due', () => {
    // A balance due on 2026-03-01, looked at on each date: the bucket it is in then.
    const cases = [
      ['2026-03-01', 'current'],
      ['2026-03-02', 'days1to30'],
      ['2026-03-31', 'days1to30'],
      ['2026-04-01', 'days31to60'],
      ['2026-05-30', 'days61to90'],
      ['2026-05-31', 'over90'],
    ] as const;
    for (const [asOf, bucket] of cases) expect(agingBucket('2026-03-01', asOf)).toBe(bucket);
  });

  it('formats document numbers', () => {
    expect(formatDocumentNumber('INV-', 42)).toBe('INV-0042');
    expect(formatDocumentNumber('', 123456)).toBe('123456');
  });
});

describe('invoiceInputSchema', () => {
  it('refuses float quantities with too many decimals and zero quantities', () => {
    const base = { customerId: 'c', issueDate: '2026-01-01', lines: [{ quantity: '1', unitPrice: 100 }] };
    expect(invoiceInputSchema.safeParse(base).success).toBe(true);
    expect(invoiceInputSchema.safeParse({ ...base, lines: [{ quantity: '0', unitPrice: 1 }] }).success).toBe(
      false,
    );
    expect(
      invoiceInputSchema.safeParse({ ...base, lines: [{ quantity: '1.1234567', unitPrice: 1 }] }).success,
    ).toBe(false);
    expect(
      invoiceInputSchema.safeParse({ ...base, lines: [{ quantity: '1', unitPrice: 1.5 }] }).success,
    ).toBe(false);
    expect(invoiceInputSchema.safeParse({ ...base, issueDate: '2026-02-30' }).success).toBe(false);
    expect(invoiceInputSchema.safeParse({ ...base, lines: [] }).success).toBe(false);
  });
});

import { AMOUNT_LIMIT_MESSAGE, isAmountWithinLimit } from './money.ts';

// Invoicing: the one line/total calculation both the server (what posts) and the browser
// (the editor's live totals) use, and the calendar arithmetic of due dates and schedules.
//
// Amounts are integer minor units of the document's currency. Quantities, discount and tax
// percentages are exact decimal strings; all arithmetic is on BigInt fractions, and every
// line is rounded on its own, half away from zero, before the totals add the lines up.

// --- Exact decimals --------------------------------------------------------------------

type Fraction = { n: bigint; d: bigint };

const DECIMAL_TEXT = /^[0-9]+(?:\.[0-9]+)?$/;

export class InvoiceCalcError extends Error {
  override name = 'InvoiceCalcError';
  constructor(
    message: string,
    readonly line?: number,
  ) {
    super(message);
  }
}

/** "12.5" → 125/10. Non-negative decimals only; callers validate ranges. */
export const parseDecimal = (text: string): Fraction => {
  const t = text.trim();
  if (!DECIMAL_TEXT.test(t)) throw new InvoiceCalcError(`"${text}" is not a decimal number.`);
  const [whole, fraction = ''] = t.split('.') as [string, string?];
  return { n: BigInt(whole + fraction), d: 10n ** BigInt(fraction.length) };
};

const mul = (a: Fraction, b: Fraction): Fraction => ({ n: a.n * b.n, d: a.d * b.d });
const add = (a: Fraction, b: Fraction): Fraction => ({ n: a.n * b.d + b.n * a.d, d: a.d * b.d });
const ONE: Fraction = { n: 1n, d: 1n };
const HUNDRED: Fraction = { n: 100n, d: 1n };
const div = (a: Fraction, b: Fraction): Fraction => ({ n: a.n * b.d, d: a.d * b.n });

/** A fraction rounded to an integer, half away from zero. */
export const roundFraction = (f: Fraction): number => {
  const negative = f.n < 0n !== f.d < 0n;
  const n = f.n < 0n ? -f.n : f.n;
  const d = f.d < 0n ? -f.d : f.d;
  let q = n / d;
  if ((n % d) * 2n >= d) q += 1n;
  if (!isAmountWithinLimit(q)) throw new InvoiceCalcError(`An amount is too large. ${AMOUNT_LIMIT_MESSAGE}`);
  const value = Number(negative ? -q : q);
  return value === 0 ? 0 : value;
};

const minor = (value: number): Fraction => ({ n: BigInt(value), d: 1n });

// --- The calculation -------------------------------------------------------------------

export type TaxForCalc = {
  id: string;
  /** Percentage as exact decimal text: "20", "7.25", "9.975". */
  percent: string;
  /** A compound tax is charged on the line's net amount plus the taxes listed before it. */
  compound: boolean;
  /** Inclusive: the line's price already contains the tax. */
  inclusive: boolean;
};

export type LineForCalc = {
  /** Exact decimal text, > 0. */
  quantity: string;
  /** Minor units, >= 0. */
  unitPrice: number;
  /** Percentage off the line as exact decimal text, 0-100; "0" when none. */
  discountPercent?: string;
  /** The line's taxes in the order they apply. */
  taxes?: TaxForCalc[];
};

export type LineTax = { taxRateId: string; base: number; amount: number };

export type LineResult = {
  /** quantity x unit price, rounded. */
  gross: number;
  discount: number;
  /** The amount before tax (for inclusive taxes: the price with the tax taken out). */
  net: number;
  taxes: LineTax[];
  tax: number;
  /** net + tax. */
  total: number;
};

export type TaxSummary = { taxRateId: string; taxable: number; amount: number };

export type DocumentTotals = {
  lines: LineResult[];
  /** Sum of the lines' gross amounts before discounts (as entered). */
  grossTotal: number;
  discountTotal: number;
  /** Sum of net line amounts. */
  subtotal: number;
  taxTotal: number;
  total: number;
  taxes: TaxSummary[];
};

const checkPercent = (text: string, what: string, line: number) => {
  const f = parseDecimalChecked(text, what, line);
  if (f.n * 100n > 100n * 100n * f.d) throw new InvoiceCalcError(`${what} must be between 0 and 100.`, line);
  return f;
};

const parseDecimalChecked = (text: string, what: string, line: number) => {
  try {
    return parseDecimal(text);
  } catch {
    throw new InvoiceCalcError(`${what} "${text}" is not a decimal number.`, line);
  }
};

/** One line: gross, discount and taxes, each rounded half away from zero. */
export const calculateLine = (line: LineForCalc, index = 0): LineResult => {
  const quantity = parseDecimalChecked(line.quantity, 'Quantity', index);
  if (quantity.n <= 0n) throw new InvoiceCalcError('Quantity must be greater than zero.', index);
  if (!Number.isSafeInteger(line.unitPrice) || line.unitPrice < 0) {
    throw new InvoiceCalcError('Unit price must be a whole number of minor units, zero or more.', index);
  }
  if (!isAmountWithinLimit(line.unitPrice)) {
    throw new InvoiceCalcError(`Unit price is too large. ${AMOUNT_LIMIT_MESSAGE}`, index);
  }
  const discountPercent = checkPercent(line.discountPercent ?? '0', 'Discount', index);
  const gross = roundFraction(mul(quantity, minor(line.unitPrice)));
  const discount = roundFraction(div(mul(minor(gross), discountPercent), HUNDRED));
  const amount = gross - discount;
  const taxes = line.taxes ?? [];
  if (new Set(taxes.map((t) => t.id)).size !== taxes.length) {
    throw new InvoiceCalcError('A tax rate is listed twice on the line.', index);
  }
  const inclusive = taxes.some((t) => t.inclusive);
  if (inclusive && taxes.some((t) => !t.inclusive)) {
    throw new InvoiceCalcError('A line cannot mix tax-inclusive and tax-exclusive rates.', index);
  }
  const rates = taxes.map((t) => div(checkPercent(t.percent, 'Tax rate', index), HUNDRED));

  // Taxes on a known net amount: simple ones on the net, compound ones on net + earlier taxes.
  const taxesOn = (net: number): LineTax[] => {
    let running = net;
    return taxes.map((t, i) => {
      const base = t.compound ? running : net;
      const taxAmount = roundFraction(mul(minor(base), rates[i]!));
      running += taxAmount;
      return { taxRateId: t.id, base, amount: taxAmount };
    });
  };

  let net = amount;
  let lineTaxes: LineTax[];
  if (inclusive && taxes.length > 0) {
    // amount = net x factor, where each simple tax adds its rate and each compound tax
    // multiplies what came before; take the tax out, then give any rounding cent to the
    // largest tax so net + taxes is exactly the price the customer was quoted.
    let factor = ONE;
    taxes.forEach((t, i) => {
      factor = t.compound ? mul(factor, add(ONE, rates[i]!)) : add(factor, rates[i]!);
    });
    net = roundFraction(div(minor(amount), factor));
    lineTaxes = taxesOn(net);
    const difference = amount - net - lineTaxes.reduce((s, t) => s + t.amount, 0);
    if (difference !== 0) {
      let largest = 0;
      lineTaxes.forEach((t, i) => {
        if (t.amount > lineTaxes[largest]!.amount) largest = i;
      });
      if (lineTaxes[largest]!.amount + difference >= 0) lineTaxes[largest]!.amount += difference;
      else net += difference;
    }
  } else {
    lineTaxes = taxesOn(net);
  }
  const tax = lineTaxes.reduce((s, t) => s + t.amount, 0);
  if (!isAmountWithinLimit(net + tax)) {
    throw new InvoiceCalcError(`The line total is too large. ${AMOUNT_LIMIT_MESSAGE}`, index);
  }
  return { gross, discount, net, taxes: lineTaxes, tax, total: net + tax };
};

/** The document: every line rounded on its own, then summed; tax totals per rate. */
export const calculateInvoice = (lines: LineForCalc[]): DocumentTotals => {
  const results = lines.map((line, i) => calculateLine(line, i));
  const byRate = new Map<string, TaxSummary>();
  for (const r of results) {
    for (const t of r.taxes) {
      const summary = byRate.get(t.taxRateId) ?? { taxRateId: t.taxRateId, taxable: 0, amount: 0 };
      summary.taxable += t.base;
      summary.amount += t.amount;
      byRate.set(t.taxRateId, summary);
    }
  }
  const sum = (pick: (r: LineResult) => number) => results.reduce((s, r) => s + pick(r), 0);
  const totals: DocumentTotals = {
    lines: results,
    grossTotal: sum((r) => r.gross),
    discountTotal: sum((r) => r.discount),
    subtotal: sum((r) => r.net),
    taxTotal: sum((r) => r.tax),
    total: sum((r) => r.total),
    taxes: [...byRate.values()],
  };
  if (
    ![totals.total, totals.grossTotal, totals.subtotal, totals.taxTotal].every(isAmountWithinLimit) ||
    !totals.taxes.every((t) => isAmountWithinLimit(t.taxable))
  ) {
    throw new InvoiceCalcError(`The invoice total is too large. ${AMOUNT_LIMIT_MESSAGE}`);
  }
  return totals;
};

// --- Dates -------------------------------------------------------------------------------

const utc = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
};
const iso = (d: Date) => d.toISOString().slice(0, 10);

export const addDaysIso = (date: string, days: number) => {
  const d = utc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return iso(d);
};

export const daysBetweenIso = (from: string, to: string) =>
  Math.round((utc(to).getTime() - utc(from).getTime()) / 86_400_000);

/** `months` after `date`, clamped to the month's last day (Jan 31 + 1 month = Feb 28/29). */
export const addMonthsIso = (date: string, months: number) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return iso(first);
};

export const RECURRING_FREQUENCIES = ['weekly', 'monthly', 'quarterly', 'yearly'] as const;
export type RecurringFrequency = (typeof RECURRING_FREQUENCIES)[number];

/** The n-th occurrence (0-based) of a schedule, counted from its start so months never drift. */
export const occurrenceDate = (start: string, frequency: RecurringFrequency, n: number) => {
  switch (frequency) {
    case 'weekly':
      return addDaysIso(start, 7 * n);
    case 'monthly':
      return addMonthsIso(start, n);
    case 'quarterly':
      return addMonthsIso(start, 3 * n);
    case 'yearly':
      return addMonthsIso(start, 12 * n);
  }
};

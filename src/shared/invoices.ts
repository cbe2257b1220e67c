import { z } from 'zod';
import { decimalText, isoDate } from './input.ts';
import { AMOUNT_LIMIT_MESSAGE, isAmountWithinLimit, minorAmount } from './money.ts';

// Invoicing: the one line/total calculation both the server (what posts) and the browser
// (the editor's live totals) use, and the request/response shapes of the invoices API.
//
// Amounts are integer minor units of the document's currency. Quantities, discount and tax
// percentages are exact decimal strings; all arithmetic is on BigInt fractions, and every
// line is rounded on its own, half away from zero, before the totals add the lines up.

// --- Exact decimals --------------------------------------------------------------------

type Fraction = { n: bigint; d: bigint };

const DECIMAL_TEXT = /^\d+(?:\.\d+)?$/;

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

// --- Status --------------------------------------------------------------------------------

export const STORED_STATUSES = ['draft', 'sent', 'partially_paid', 'paid', 'void'] as const;
export type StoredStatus = (typeof STORED_STATUSES)[number];
export const INVOICE_STATUSES = ['draft', 'sent', 'partially_paid', 'paid', 'overdue', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const STATUS_LABELS: Record<InvoiceStatus, string> = {
  draft: 'Draft',
  sent: 'Sent',
  partially_paid: 'Partially paid',
  paid: 'Paid',
  overdue: 'Overdue',
  void: 'Void',
};

/** Overdue is derived: an open invoice past its due date. Never stored, so never stale. */
export const displayStatus = (stored: StoredStatus, dueDate: string, today: string): InvoiceStatus =>
  (stored === 'sent' || stored === 'partially_paid') && dueDate < today ? 'overdue' : stored;

// --- API shapes ------------------------------------------------------------------------------

export const isoDateSchema = isoDate;

const currencySchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, 'Use an ISO 4217 currency code such as USD.');

const decimalTextOf = (what: string, maxDecimals: number) =>
  decimalText({
    maxDecimals,
    message: `${what} must be a number with at most ${maxDecimals} decimal places.`,
  });

export const quantitySchema = decimalTextOf('Quantity', 6).refine(
  (q) => parseDecimal(q).n > 0n,
  'Quantity must be greater than zero.',
);
export const percentSchema = (what: string) =>
  decimalTextOf(what, 4).refine((p) => {
    const f = parseDecimal(p);
    return f.n <= 100n * f.d;
  }, `${what} must be between 0 and 100.`);

const minorUnitsSchema = minorAmount();

const optionalText = (max: number) => z.string().trim().max(max, `At most ${max} characters.`);

// Customers

export const customerInputSchema = z.object({
  name: z.string().trim().min(1, 'Enter the customer name.').max(200, 'At most 200 characters.'),
  company: optionalText(200).default(''),
  email: z
    .string()
    .trim()
    .toLowerCase()
    .max(320)
    .refine((e) => e === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e), 'Please enter a valid email address.')
    .default(''),
  phone: optionalText(50).default(''),
  billingAddress: optionalText(1000).default(''),
  taxNumber: optionalText(50).default(''),
  currency: currencySchema.optional(),
  paymentTermsDays: z
    .number()
    .int()
    .min(0, 'Payment terms are 0 to 365 days.')
    .max(365, 'Payment terms are 0 to 365 days.')
    .default(30),
  notes: optionalText(2000).default(''),
});
export type CustomerInput = z.input<typeof customerInputSchema>;
export const customerUpdateSchema = customerInputSchema
  .partial()
  .extend({ archived: z.boolean().optional() });

export const customerSchema = z.object({
  id: z.string(),
  name: z.string(),
  company: z.string(),
  email: z.string(),
  phone: z.string(),
  billingAddress: z.string(),
  taxNumber: z.string(),
  currency: z.string(),
  paymentTermsDays: z.number(),
  notes: z.string(),
  archived: z.boolean(),
  /** Open balance in the base currency. */
  balance: z.number(),
  /** Credit the customer holds (overpayments, credit notes not yet used), in the base currency. */
  credit: z.number(),
  createdAt: z.string(),
});
export type Customer = z.infer<typeof customerSchema>;

// Items

export const itemInputSchema = z.object({
  name: z.string().trim().min(1, 'Enter the item name.').max(200, 'At most 200 characters.'),
  description: optionalText(2000).default(''),
  unitPrice: minorUnitsSchema,
  incomeAccountId: z.string().min(1).nullable().optional(),
  taxRateId: z.string().min(1).nullable().optional(),
});
export const itemUpdateSchema = itemInputSchema.partial().extend({ archived: z.boolean().optional() });
export const itemSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  unitPrice: z.number(),
  incomeAccountId: z.string(),
  taxRateId: z.string().nullable(),
  archived: z.boolean(),
});
export type Item = z.infer<typeof itemSchema>;

// Tax rates

export const taxRateInputSchema = z.object({
  name: z.string().trim().min(1, 'Enter the tax name.').max(100, 'At most 100 characters.'),
  percent: percentSchema('Tax rate'),
  accountId: z.string().min(1).nullable().optional(),
  inclusive: z.boolean().default(false),
  compound: z.boolean().default(false),
});
export const taxRateUpdateSchema = z
  .object({
    name: taxRateInputSchema.shape.name.optional(),
    archived: z.boolean().optional(),
  })
  .refine(
    (v) => v.name !== undefined || v.archived !== undefined,
    'Send a new name or archived: true/false.',
  );
export const taxRateSchema = z.object({
  id: z.string(),
  name: z.string(),
  percent: z.string(),
  accountId: z.string(),
  inclusive: z.boolean(),
  compound: z.boolean(),
  archived: z.boolean(),
});
export type TaxRate = z.infer<typeof taxRateSchema>;

// Invoices

export const invoiceLineInputSchema = z.object({
  itemId: z.string().min(1).nullable().optional(),
  description: z.string().trim().max(1000, 'At most 1000 characters.').default(''),
  quantity: quantitySchema,
  unitPrice: minorUnitsSchema,
  discountPercent: percentSchema('Discount').default('0'),
  taxRateIds: z.array(z.string().min(1)).max(3, 'At most three taxes per line.').default([]),
  accountId: z.string().min(1).nullable().optional(),
});
export type InvoiceLineInput = z.input<typeof invoiceLineInputSchema>;

export const invoiceInputSchema = z.object({
  customerId: z.string().min(1, 'Choose a customer.'),
  issueDate: isoDateSchema,
  /** Defaults to issue date + the customer's payment terms. */
  dueDate: isoDateSchema.optional(),
  currency: currencySchema.optional(),
  /** Base-currency units per one unit of the invoice currency; needed when foreign. */
  exchangeRate: decimalText({ maxDecimals: 10, message: 'The exchange rate is a positive decimal number.' })
    .refine((r) => parseDecimal(r).n > 0n, 'The exchange rate must be greater than zero.')
    .optional(),
  reference: optionalText(100).default(''),
  notes: optionalText(4000).default(''),
  terms: optionalText(4000).default(''),
  lines: z.array(invoiceLineInputSchema).min(1, 'Add at least one line.').max(200, 'At most 200 lines.'),
});
export type InvoiceInput = z.input<typeof invoiceInputSchema>;
export const invoiceUpdateSchema = invoiceInputSchema.partial();

export const invoiceLineSchema = z.object({
  lineNo: z.number(),
  itemId: z.string().nullable(),
  description: z.string(),
  quantity: z.string(),
  unitPrice: z.number(),
  discountPercent: z.string(),
  taxRateIds: z.array(z.string()),
  accountId: z.string(),
  net: z.number(),
  tax: z.number(),
  total: z.number(),
});

export const paymentInputSchema = z.object({
  date: isoDateSchema,
  amount: minorUnitsSchema.refine((a) => a > 0, 'The payment amount must be greater than zero.'),
  /**
   * The ledger account of the money account the money went into (MoneyAccount.ledgerAccountId);
   * the company's deposit account (set in the Wallet) when left out.
   */
  depositAccountId: z.string().min(1, 'Choose the account the money went into.').max(100).optional(),
  method: z.enum(['bank_transfer', 'card', 'cash', 'check', 'other']).default('bank_transfer'),
  reference: optionalText(100).default(''),
  /** Rate on the payment date for a foreign-currency invoice; defaults to the invoice's rate. */
  exchangeRate: invoiceInputSchema.shape.exchangeRate,
  /** More than the amount due is refused unless the excess is to be kept as the customer's credit. */
  keepExcessAsCredit: z.boolean().optional(),
});
export type PaymentInput = z.input<typeof paymentInputSchema>;

export const paymentSchema = z.object({
  id: z.string(),
  invoiceId: z.string(),
  date: z.string(),
  amount: z.number(),
  currency: z.string(),
  depositAccountId: z.string(),
  depositAccountName: z.string(),
  method: z.string(),
  reference: z.string(),
  journalEntryId: z.string(),
  reversed: z.boolean(),
  reversalEntryId: z.string().nullable(),
  /** The part of the amount kept as the customer's credit (an overpayment). */
  creditAmount: z.number(),
  createdAt: z.string(),
});
export type Payment = z.infer<typeof paymentSchema>;

export const creditNoteInputSchema = z.object({
  date: isoDateSchema,
  reason: optionalText(1000).default(''),
  lines: z.array(invoiceLineInputSchema).min(1, 'Add at least one line.').max(200),
});
export type CreditNoteInput = z.input<typeof creditNoteInputSchema>;

export const creditNoteSchema = z.object({
  id: z.string(),
  number: z.string(),
  invoiceId: z.string(),
  date: z.string(),
  reason: z.string(),
  subtotal: z.number(),
  taxTotal: z.number(),
  total: z.number(),
  currency: z.string(),
  status: z.enum(['issued', 'void']),
  journalEntryId: z.string(),
  /** The part of the total that went to the customer's credit (the invoice had less left due). */
  toCredit: z.number(),
  lines: z.array(invoiceLineSchema),
  createdAt: z.string(),
});
export type CreditNote = z.infer<typeof creditNoteSchema>;

export const invoiceEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  kind: z.string(),
  message: z.string(),
  actorName: z.string().nullable(),
});

export const invoiceSummarySchema = z.object({
  id: z.string(),
  number: z.string().nullable(),
  customerId: z.string(),
  customerName: z.string(),
  issueDate: z.string(),
  dueDate: z.string(),
  currency: z.string(),
  total: z.number(),
  amountDue: z.number(),
  status: z.enum(INVOICE_STATUSES),
  storedStatus: z.enum(STORED_STATUSES),
  sentAt: z.string().nullable(),
});
export type InvoiceSummary = z.infer<typeof invoiceSummarySchema>;

export const invoiceSchema = invoiceSummarySchema.extend({
  exchangeRate: z.string(),
  reference: z.string(),
  notes: z.string(),
  terms: z.string(),
  subtotal: z.number(),
  discountTotal: z.number(),
  taxTotal: z.number(),
  amountPaid: z.number(),
  /** The part of amountPaid settled from the customer's credit rather than a payment. */
  creditApplied: z.number(),
  amountCredited: z.number(),
  totalBase: z.number(),
  balanceBase: z.number(),
  taxes: z.array(
    z.object({
      taxRateId: z.string(),
      name: z.string(),
      percent: z.string(),
      taxable: z.number(),
      amount: z.number(),
    }),
  ),
  lines: z.array(invoiceLineSchema),
  payments: z.array(paymentSchema),
  creditNotes: z.array(creditNoteSchema),
  history: z.array(invoiceEventSchema),
  journalEntryId: z.string().nullable(),
  voidEntryId: z.string().nullable(),
  emailedAt: z.string().nullable(),
  recurringScheduleId: z.string().nullable(),
  customer: z.object({
    name: z.string(),
    company: z.string(),
    email: z.string(),
    billingAddress: z.string(),
    taxNumber: z.string(),
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const INVOICE_SORTS = [
  'number',
  'issueDate',
  'dueDate',
  'customer',
  'total',
  'amountDue',
  'status',
] as const;

export const invoiceListQuerySchema = z.object({
  status: z.enum([...INVOICE_STATUSES, 'all']).default('all'),
  search: z.string().trim().max(100).optional(),
  customerId: z.string().optional(),
  sort: z.enum(INVOICE_SORTS).default('issueDate'),
  order: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(25),
});
export type InvoiceListQuery = z.infer<typeof invoiceListQuerySchema>;

const statusTotal = z.object({ count: z.number(), total: z.number(), amountDue: z.number() });
export const invoiceListSchema = z.object({
  items: z.array(invoiceSummarySchema),
  page: z.number(),
  pageSize: z.number(),
  totalCount: z.number(),
  baseCurrency: z.string(),
  /** Per status, in the base currency: how many, their totals and what is still owed. */
  totalsByStatus: z.record(z.enum([...INVOICE_STATUSES, 'all']), statusTotal),
});
export type InvoiceList = z.infer<typeof invoiceListSchema>;

export const sendInvoiceSchema = z.object({
  /** Also email the PDF to the customer (needs an email address). */
  email: z.boolean().default(false),
  to: z.string().trim().email('Please enter a valid email address.').optional(),
  message: optionalText(4000).optional(),
});

export const emailInvoiceSchema = z.object({
  to: z.string().trim().email('Please enter a valid email address.').optional(),
  subject: optionalText(200).optional(),
  message: optionalText(4000).optional(),
});

export const voidInvoiceSchema = z.object({ reason: optionalText(1000).default('') });

// Recurring

export const recurringInputSchema = z
  .object({
    customerId: z.string().min(1, 'Choose a customer.'),
    frequency: z.enum(RECURRING_FREQUENCIES),
    startDate: isoDateSchema,
    endDate: isoDateSchema.nullable().optional(),
    count: z.number().int().min(1).max(1000).nullable().optional(),
    /** Post and email each invoice as it is created; otherwise it waits as a draft. */
    autoSend: z.boolean().default(false),
    currency: currencySchema.optional(),
    exchangeRate: invoiceInputSchema.shape.exchangeRate,
    paymentTermsDays: z.number().int().min(0).max(365).optional(),
    reference: optionalText(100).default(''),
    notes: optionalText(4000).default(''),
    terms: optionalText(4000).default(''),
    lines: z.array(invoiceLineInputSchema).min(1, 'Add at least one line.').max(200),
  })
  .refine((r) => !r.endDate || r.endDate >= r.startDate, {
    message: 'The end date must be on or after the start date.',
    path: ['endDate'],
  });
export type RecurringInput = z.input<typeof recurringInputSchema>;

export const recurringSchema = z.object({
  id: z.string(),
  customerId: z.string(),
  customerName: z.string(),
  frequency: z.enum(RECURRING_FREQUENCIES),
  startDate: z.string(),
  endDate: z.string().nullable(),
  count: z.number().nullable(),
  autoSend: z.boolean(),
  status: z.enum(['active', 'paused', 'ended']),
  nextDate: z.string().nullable(),
  createdCount: z.number(),
  currency: z.string(),
  total: z.number(),
});
export type Recurring = z.infer<typeof recurringSchema>;

// Reports

export const AGING_BUCKETS = ['current', 'days1to30', 'days31to60', 'days61to90', 'over90'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];
export const AGING_LABELS: Record<AgingBucket, string> = {
  current: 'Current',
  days1to30: '1-30',
  days31to60: '31-60',
  days61to90: '61-90',
  over90: 'Over 90',
};

/** Which bucket a balance falls in, by days past its due date on `asOf`. */
export const agingBucket = (dueDate: string, asOf: string): AgingBucket => {
  const late = daysBetweenIso(dueDate, asOf);
  if (late <= 0) return 'current';
  if (late <= 30) return 'days1to30';
  if (late <= 60) return 'days31to60';
  if (late <= 90) return 'days61to90';
  return 'over90';
};

const bucketAmounts = z.object({
  current: z.number(),
  days1to30: z.number(),
  days31to60: z.number(),
  days61to90: z.number(),
  over90: z.number(),
  total: z.number(),
});
export const agingReportSchema = z.object({
  asOf: z.string(),
  currency: z.string(),
  rows: z.array(bucketAmounts.extend({ customerId: z.string(), customerName: z.string() })),
  totals: bucketAmounts,
  /** The receivable account's balance in the ledger on `asOf`, for comparison. */
  ledgerBalance: z.number(),
});
export type AgingReport = z.infer<typeof agingReportSchema>;

export const taxReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  currency: z.string(),
  rows: z.array(
    z.object({
      taxRateId: z.string(),
      name: z.string(),
      percent: z.string(),
      accountId: z.string(),
      taxable: z.number(),
      tax: z.number(),
    }),
  ),
  totals: z.object({ taxable: z.number(), tax: z.number() }),
});
export type TaxReport = z.infer<typeof taxReportSchema>;

export const invoiceSettingsSchema = z.object({
  invoicePrefix: z.string(),
  nextInvoiceNumber: z.number(),
  creditNotePrefix: z.string(),
  defaultTerms: z.string(),
  defaultNotes: z.string(),
  address: z.string(),
  taxNumber: z.string(),
  hasLogo: z.boolean(),
});
export type InvoiceSettings = z.infer<typeof invoiceSettingsSchema>;

export const invoiceSettingsUpdateSchema = z.object({
  invoicePrefix: z
    .string()
    .trim()
    .max(20, 'The prefix is at most 20 characters.')
    .regex(/^[A-Za-z0-9/_.-]*$/, 'The prefix may use letters, digits and - _ / . only.')
    .optional(),
  nextInvoiceNumber: z.number().int().min(1).max(999_999_999).optional(),
  creditNotePrefix: z
    .string()
    .trim()
    .max(20)
    .regex(/^[A-Za-z0-9/_.-]*$/, 'The prefix may use letters, digits and - _ / . only.')
    .optional(),
  defaultTerms: optionalText(4000).optional(),
  defaultNotes: optionalText(4000).optional(),
  address: optionalText(1000).optional(),
  taxNumber: optionalText(50).optional(),
  /** A PNG or JPEG as a data: URL; null removes the logo. */
  logo: z.string().max(700_000, 'The logo must be at most 500 KB.').nullable().optional(),
});

/** Formats an invoice number: prefix + zero-padded sequence ("INV-" + 42 → "INV-0042"). */
export const formatDocumentNumber = (prefix: string, n: number) => `${prefix}${String(n).padStart(4, '0')}`;

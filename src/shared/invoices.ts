import { z } from 'zod';
import { RECURRING_FREQUENCIES } from './invoice-calc.ts';
import {
  currencySchema,
  customerNamed,
  customerSchema,
  documentRateSchema,
  isoDateSchema,
  minorUnitsSchema,
  optionalText,
  percentSchema,
  positiveAmountSchema,
  quantitySchema,
} from './invoice-catalog.ts';
import { amountInCurrency, numberedPageQuery, searchText } from './schema-parts.ts';

// Invoicing's documents: statuses, and the request/response shapes of invoices, payments,
// credit notes and recurring schedules. The calculation is in invoice-calc.ts, customers,
// items, tax rates and settings in invoice-catalog.ts, reports in invoice-reports.ts; all are
// exported from here too, so `shared/invoices.ts` stays the one import for invoicing.

export * from './invoice-calc.ts';
export * from './invoice-catalog.ts';
export * from './invoice-reports.ts';

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

/** An invoice's (or a schedule's) texts: the reference, the notes and the terms the customer sees. */
const documentTexts = {
  reference: optionalText(100).default(''),
  notes: optionalText(4000).default(''),
  terms: optionalText(4000).default(''),
};

/** A document's lines as sent: one at least (at most 200, each caller says how it words that). */
const lineInputs = z.array(invoiceLineInputSchema).min(1, 'Add at least one line.');

export const invoiceInputSchema = z.object({
  customerId: z.string().min(1, 'Choose a customer.'),
  issueDate: isoDateSchema,
  /** Defaults to issue date + the customer's payment terms. */
  dueDate: isoDateSchema.optional(),
  currency: currencySchema.optional(),
  /** Base-currency units per one unit of the invoice currency; needed when foreign. */
  exchangeRate: documentRateSchema.optional(),
  ...documentTexts,
  lines: lineInputs.max(200, 'At most 200 lines.'),
});
export type InvoiceInput = z.input<typeof invoiceInputSchema>;
/** Only the fields sent change: the texts have no default here, so leaving one out keeps it. */
export const invoiceUpdateSchema = invoiceInputSchema
  .extend({
    reference: optionalText(100).optional(),
    notes: optionalText(4000).optional(),
    terms: optionalText(4000).optional(),
  })
  .partial();

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
  amount: positiveAmountSchema('payment amount'),
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
  ...amountInCurrency,
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
  lines: lineInputs.max(200),
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
  ...customerNamed,
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
  /** The customer's name and address block as the invoice shows them. */
  customer: customerSchema.pick({
    name: true,
    company: true,
    email: true,
    billingAddress: true,
    taxNumber: true,
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
  search: searchText,
  customerId: z.string().optional(),
  sort: z.enum(INVOICE_SORTS).default('issueDate'),
  order: z.enum(['asc', 'desc']).default('desc'),
  ...numberedPageQuery(200, 25),
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

export const sentInvoiceSchema = invoiceSchema.extend({
  emailedTo: z.string().nullable(),
  emailError: z.string().nullable(),
});
export const paidInvoiceSchema = invoiceSchema.extend({ paymentId: z.string() });

/** A customer with their latest invoices and payments (the customer page). */
export const customerDetailSchema = z.object({
  customer: customerSchema,
  invoices: z.array(invoiceSummarySchema),
  payments: z.array(
    z.object({
      id: z.string(),
      invoiceId: z.string(),
      invoiceNumber: z.string().nullable(),
      date: z.string(),
      ...amountInCurrency,
      method: z.string(),
      reference: z.string(),
      reversed: z.boolean(),
    }),
  ),
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

export const invoicePdfQuerySchema = z.object({ download: z.enum(['1', '0']).optional() });

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
    ...documentTexts,
    lines: lineInputs.max(200),
  })
  .refine((r) => !r.endDate || r.endDate >= r.startDate, {
    message: 'The end date must be on or after the start date.',
    path: ['endDate'],
  });
export type RecurringInput = z.input<typeof recurringInputSchema>;

export const recurringSchema = z.object({
  id: z.string(),
  ...customerNamed,
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
export const recurringListSchema = z.object({ schedules: z.array(recurringSchema) });
export const recurringStatusSchema = z.object({ status: z.enum(['active', 'paused', 'ended']) });
export type RecurringStatusInput = z.infer<typeof recurringStatusSchema>;

/** Formats an invoice number: prefix + zero-padded sequence ("INV-" + 42 → "INV-0042"). */
export const formatDocumentNumber = (prefix: string, n: number) => `${prefix}${String(n).padStart(4, '0')}`;

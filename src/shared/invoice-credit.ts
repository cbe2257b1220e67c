import { z } from 'zod';
import { isoDate } from './input.ts';
import {
  currencySchema as currencyCode,
  customerNamed,
  documentRateSchema,
  positiveAmountSchema as positiveAmount,
} from './invoice-catalog.ts';
import { amountInCurrency, kindsOf, optionalDateRange, reportSince } from './schema-parts.ts';

// Customer credit, refunds and the customer statement (issue 13 §5, decision 0028): the
// request and response shapes shared by the server and the browser.

/** Apply some of a customer's credit to one of their open invoices (same currency). */
export const applyCreditInputSchema = z.object({
  invoiceId: z.string().min(1, 'Choose the invoice to apply the credit to.').max(100),
  amount: positiveAmount('amount to apply'),
  date: isoDate,
});
export type ApplyCreditInput = z.input<typeof applyCreditInputSchema>;

/** Pay some of a customer's credit back out of a money account. */
export const refundInputSchema = z.object({
  amount: positiveAmount('refund'),
  date: isoDate,
  moneyAccountId: z.string().min(1, 'Choose the money account the refund is paid from.').max(100),
  reference: z.string().trim().max(100, 'At most 100 characters.').default(''),
  /** Rate on the refund date for a foreign-currency credit; defaults to what the credit is carried at. */
  exchangeRate: documentRateSchema.optional(),
});
export type RefundInput = z.input<typeof refundInputSchema>;

/** A refund from the customer's credit page names the currency of the credit it pays back. */
export const customerRefundInputSchema = refundInputSchema.extend({ currency: currencyCode });
export type CustomerRefundInput = z.input<typeof customerRefundInputSchema>;

export const CREDIT_ENTRY_LABELS = {
  overpayment: 'Overpayment',
  credit_note: 'Credit note',
  applied: 'Applied to invoice',
  refund: 'Refund',
  payment_removed: 'Payment removed',
  credit_note_voided: 'Credit note voided',
  exchange: 'Exchange difference',
};
export const CREDIT_ENTRY_KINDS = kindsOf(CREDIT_ENTRY_LABELS);
export type CreditEntryKind = (typeof CREDIT_ENTRY_KINDS)[number];

export const creditEntrySchema = z.object({
  id: z.string(),
  date: z.string(),
  kind: z.enum(CREDIT_ENTRY_KINDS),
  /** The amount is signed: + adds to the credit, − uses it. */
  ...amountInCurrency,
  invoiceId: z.string().nullable(),
  invoiceNumber: z.string().nullable(),
  creditNoteId: z.string().nullable(),
  creditNoteNumber: z.string().nullable(),
  moneyAccountId: z.string().nullable(),
  journalEntryId: z.string().nullable(),
  reference: z.string(),
});
export type CreditEntry = z.infer<typeof creditEntrySchema>;

export const customerCreditSchema = z.object({
  customerId: z.string(),
  /** What the customer has in credit, per currency (only currencies with a balance). */
  balances: z.array(z.object({ currency: z.string(), amount: z.number(), amountBase: z.number() })),
  entries: z.array(creditEntrySchema),
});
export type CustomerCredit = z.infer<typeof customerCreditSchema>;

// --- Statement --------------------------------------------------------------------------------

export const STATEMENT_LINE_LABELS = {
  invoice: 'Invoice',
  payment: 'Payment',
  credit_note: 'Credit note',
  credit_applied: 'Credit applied',
  refund: 'Refund',
};
export const STATEMENT_LINE_KINDS = kindsOf(STATEMENT_LINE_LABELS);
export type StatementLineKind = (typeof STATEMENT_LINE_KINDS)[number];

export const statementQuerySchema = z
  .object({
    ...optionalDateRange,
    currency: currencyCode.optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    message: 'The start date must be on or before the end date.',
    path: ['from'],
  });

export type StatementQuery = z.infer<typeof statementQuerySchema>;

export const statementLineSchema = z.object({
  /** Unique within the statement: the kind and the document's id. */
  id: z.string(),
  date: z.string(),
  kind: z.enum(STATEMENT_LINE_KINDS),
  /** The document's number or the payment's reference. */
  document: z.string(),
  description: z.string(),
  invoiceId: z.string().nullable(),
  /** What the customer owes more (invoices, refunds paid to them). */
  charge: z.number(),
  /** What the customer owes less (payments, credit notes). */
  credit: z.number(),
  /** Owed by the customer after this line; negative when the company owes them (credit). */
  balance: z.number(),
});
export type StatementLine = z.infer<typeof statementLineSchema>;

export const customerStatementSchema = z.object({
  ...customerNamed,
  ...reportSince,
  openingBalance: z.number(),
  lines: z.array(statementLineSchema),
  closingBalance: z.number(),
  /** Today (not at the end date): open invoices' amount due, and credit held, in the statement's currency. */
  openInvoices: z.number(),
  creditHeld: z.number(),
  /** Currencies the customer has documents in, for choosing a statement. */
  currencies: z.array(z.string()),
});
export type CustomerStatement = z.infer<typeof customerStatementSchema>;

export const customerRefundResultSchema = z.object({
  refundId: z.string(),
  journalEntryId: z.string(),
  moneyAccountId: z.string(),
  credit: customerCreditSchema,
});

import { z } from 'zod';
import { minorAmount } from './money.ts';

// Matching bank lines to open invoices and to payments already recorded (issue 13 §4): the
// shapes the API and the web app agree on. Amounts are positive integer minor units.

const id = z.string().min(1).max(100);

export const MATCH_REASONS = [
  'exact_amount',
  'partial_amount',
  'number_in_text',
  'reference_in_text',
  'customer_in_text',
  'date_window',
  'recorded_payment',
  'supplier_in_text',
] as const;
export type MatchReason = (typeof MATCH_REASONS)[number];

/** Which invoice, as people know it: its number and its customer's name. */
const invoiceNamed = { invoiceId: z.string(), invoiceNumber: z.string(), customerName: z.string() };

export const matchSuggestionSchema = z.object({
  kind: z.enum(['invoice', 'payment']),
  ...invoiceNamed,
  currency: z.string(),
  /** What is still owed on the invoice. */
  amountDue: z.number(),
  /** What confirming this suggestion would settle: the line's amount, at most the amount due. */
  amount: z.number(),
  issueDate: z.string(),
  dueDate: z.string(),
  /** For kind 'payment': the payment recorded by hand that this line would become the cash of. */
  paymentId: z.string().nullable(),
  paymentDate: z.string().nullable(),
  score: z.number(),
  reasons: z.array(z.enum(MATCH_REASONS)),
});
export type MatchSuggestion = z.infer<typeof matchSuggestionSchema>;

/** An open bill a money-out line may pay (reasons as for invoices; the supplier named: supplier_in_text). */
export const billMatchSuggestionSchema = z.object({
  kind: z.literal('bill'),
  billId: z.string(),
  billNumber: z.string(),
  supplierName: z.string(),
  currency: z.string(),
  amountDue: z.number(),
  /** What confirming this suggestion would pay: the line's amount, at most the amount due. */
  amount: z.number(),
  issueDate: z.string(),
  dueDate: z.string(),
  score: z.number(),
  reasons: z.array(z.enum(MATCH_REASONS)),
});
export type BillMatchSuggestion = z.infer<typeof billMatchSuggestionSchema>;

export const matchSuggestionsSchema = z.object({
  transactionId: z.string(),
  /** For money in: open invoices and recorded payments. */
  suggestions: z.array(matchSuggestionSchema),
  /** For money out (one line's suggestions; a statement's are for money in only): open bills. */
  bills: z.array(billMatchSuggestionSchema),
});
export type MatchSuggestions = z.infer<typeof matchSuggestionsSchema>;

export const statementSuggestionsQuerySchema = z.object({
  importId: id,
  /** Suggestions per line. */
  limit: z.coerce.number().int().min(1).max(10).default(3),
});

export const statementSuggestionsSchema = z.object({
  lines: z.array(matchSuggestionsSchema),
});

export const matchAllocationSchema = z.object({
  invoiceId: id,
  amount: minorAmount({ sign: 'positive', signMessage: 'The amount settled must be greater than zero.' }),
});

export const billMatchAllocationSchema = z.object({
  billId: id,
  amount: minorAmount({ sign: 'positive', signMessage: 'The amount paid must be greater than zero.' }),
});

/**
 * Either invoices (with what the line settles on each), one payment recorded by hand, or —
 * for money out — bills (with what the line pays on each; they add up to the line).
 */
export const matchInputSchema = z
  .object({
    invoices: z
      .array(matchAllocationSchema)
      .min(1, 'Choose at least one invoice.')
      .max(50, 'A line can settle at most 50 invoices.')
      .optional(),
    paymentId: id.optional(),
    bills: z
      .array(billMatchAllocationSchema)
      .min(1, 'Choose at least one bill.')
      .max(50, 'A line can pay at most 50 bills.')
      .optional(),
    /**
     * With invoices: the part of the line above what they settle is kept as the customer's
     * credit (each invoice must then be settled in full, all of one customer), as a payment
     * recorded with keepExcessAsCredit. Without it the amounts must add up to the line.
     */
    keepExcessAsCredit: z.boolean().optional(),
  })
  .refine((v) => [v.invoices, v.paymentId, v.bills].filter((x) => x !== undefined).length === 1, {
    message:
      'Give either the invoices this line settles, the recorded payment it is, or the bills it pays — exactly one.',
  })
  .refine((v) => !(v.keepExcessAsCredit && v.invoices === undefined), {
    message: 'Keeping an excess as credit applies to matching invoices, not to a recorded payment or bills.',
  });
export type MatchInput = z.input<typeof matchInputSchema>;

export const matchSchema = z.object({
  transactionId: z.string(),
  /** invoice, payment: money in (allocations); bill: money out paying bills (bills). */
  kind: z.enum(['invoice', 'payment', 'bill']),
  amount: z.number(),
  allocations: z.array(
    z.object({
      ...invoiceNamed,
      paymentId: z.string(),
      amount: z.number(),
    }),
  ),
  /** What the line left as the customer's credit (0 if nothing). */
  creditAmount: z.number(),
  /** For kind 'bill': the bills the money-out line paid (empty otherwise). */
  bills: z.array(
    z.object({
      billId: z.string(),
      billNumber: z.string(),
      supplierName: z.string(),
      paymentId: z.string(),
      amount: z.number(),
    }),
  ),
  createdAt: z.string(),
});
export type Match = z.infer<typeof matchSchema>;

export const matchStateSchema = z.object({ match: matchSchema.nullable() });

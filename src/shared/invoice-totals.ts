import type { Invoice } from './invoices.ts';
import { defaultFormatter } from './format.ts';

// The totals block of an invoice — what the invoice page's summary, the PDF and the email all
// show — built in one place so the three can never disagree on a figure, a label or a sign.
//
// The convention is the one accountants and customers read on an invoice: every figure is
// written as a positive amount, and the label says what it does. Payments and credit notes
// are shown as what was paid and credited ("Paid $2,000.00"), not as negative numbers, and
// Amount due is Total − Paid − Credit applied − Credited. Only the amount due itself could
// carry a sign, and it never goes below zero: what is paid or credited beyond the total
// becomes the customer's credit (decision 0028), shown on the customer, not on the invoice.

export type InvoiceTotalsRowKey =
  | 'discounts'
  | 'subtotal'
  | 'tax'
  | 'total'
  | 'paid'
  | 'credit_applied'
  | 'credited'
  | 'due';

export type InvoiceTotalsRow = {
  /** Unique within the block (a tax row carries its rate's id). */
  id: string;
  key: InvoiceTotalsRowKey;
  label: string;
  /** Integer minor units in the invoice's currency, as shown (never negated for display). */
  amount: number;
  /** Total and Amount due stand out. */
  strong: boolean;
};

type TotalsSource = Pick<
  Invoice,
  'discountTotal' | 'subtotal' | 'taxes' | 'total' | 'amountPaid' | 'amountCredited' | 'amountDue'
> &
  Partial<Pick<Invoice, 'creditApplied'>>;

/** The rows of an invoice's totals block, in order; Paid, Credit applied and Credited only when there are any. */
export const invoiceTotalsRows = (invoice: TotalsSource): InvoiceTotalsRow[] => {
  // amountPaid counts customer credit applied to the invoice; it is shown on its own row.
  const creditApplied = invoice.creditApplied ?? 0;
  const paidInCash = invoice.amountPaid - creditApplied;
  const row = (key: InvoiceTotalsRowKey, label: string, amount: number, id: string = key) => ({
    id,
    key,
    label,
    amount,
    strong: key === 'total' || key === 'due',
  });
  return [
    ...(invoice.discountTotal > 0 ? [row('discounts', 'Discounts included', invoice.discountTotal)] : []),
    row('subtotal', 'Subtotal', invoice.subtotal),
    ...invoice.taxes.map((t) => row('tax', `${t.name} (${t.percent}%)`, t.amount, `tax:${t.taxRateId}`)),
    row('total', 'Total', invoice.total),
    ...(paidInCash !== 0 ? [row('paid', 'Paid', paidInCash)] : []),
    ...(creditApplied !== 0 ? [row('credit_applied', 'Credit applied', creditApplied)] : []),
    ...(invoice.amountCredited !== 0 ? [row('credited', 'Credited', invoice.amountCredited)] : []),
    row('due', 'Amount due', invoice.amountDue),
  ];
};

/** An invoice amount as people read it on the page, the PDF and the email ("$2,000.00"). */
export const formatInvoiceAmount = (minor: number, currency: string) =>
  defaultFormatter.amount(minor, currency);

/** The totals block as text lines ("Paid: $2,000.00"), for the email. */
export const invoiceTotalsLines = (invoice: TotalsSource & Pick<Invoice, 'currency'>) =>
  invoiceTotalsRows(invoice).map((r) => `${r.label}: ${formatInvoiceAmount(r.amount, invoice.currency)}`);

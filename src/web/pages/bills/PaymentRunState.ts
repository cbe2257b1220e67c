import type { BillBatchPayment, BillSummary, PaymentRun } from '../../../shared/payables.ts';
import { formatAmount } from '../../lib/format.ts';
import { tryParseMoney } from '../invoices/parts.tsx';

// What the payment run's pieces share: the ticked bills with their amounts as typed, the check
// of one amount, and what a finished batch reports.

export type PaymentRunGroup = PaymentRun['suppliers'][number];

/** The ticked bills: bill id → the amount to pay, as typed. */
export type Selection = Record<string, string>;

/** What is wrong with a ticked bill's amount (not an amount, or more than is due), or null. */
export const amountProblem = (text: string, bill: Pick<BillSummary, 'currency' | 'amountDue'>) => {
  const minor = tryParseMoney(text, bill.currency);
  if (minor === null || minor <= 0) return `Enter an amount in ${bill.currency}.`;
  if (minor > bill.amountDue) return `At most ${formatAmount(bill.amountDue, bill.currency)} is due.`;
  return null;
};

/** A batch just paid: the server's answer, the bills as they were, and the account's name. */
export type PaymentRunPaid = { result: BillBatchPayment; bills: BillSummary[]; accountName: string };

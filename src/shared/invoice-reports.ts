import { z } from 'zod';
import { isoDate } from './input.ts';
import { daysBetweenIso } from './invoice-calc.ts';
import { customerNamed } from './invoice-catalog.ts';
import { namedAmounts } from './schema-parts.ts';

// Invoicing's reports: receivables aging per customer and tax per rate (sales, and the
// purchase tax of bills, issue 15).

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

/** What is owed in each bucket, then in all of them. */
const bucketAmounts = namedAmounts([...AGING_BUCKETS, 'total']);
export const agingReportSchema = z.object({
  asOf: z.string(),
  currency: z.string(),
  rows: z.array(bucketAmounts.extend(customerNamed)),
  totals: bucketAmounts,
  /** The receivable account's balance in the ledger on `asOf`, for comparison. */
  ledgerBalance: z.number(),
});
export type AgingReport = z.infer<typeof agingReportSchema>;

/**
 * Tax per rate for a period, in the base currency, by document date: the sales side (invoices
 * less credit notes: `taxable`, `tax`) as before, the purchase side (bills less supplier
 * credits, the input tax: `purchaseTaxable`, `purchaseTax`), and the net tax owed
 * (`netTax` = sales tax less purchase tax; negative: a refund is due). Both sides post to the
 * tax rate's account, so the net equals that account's credit movement in the period.
 */
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
      purchaseTaxable: z.number(),
      purchaseTax: z.number(),
      netTax: z.number(),
    }),
  ),
  totals: z.object({
    taxable: z.number(),
    tax: z.number(),
    purchaseTaxable: z.number(),
    purchaseTax: z.number(),
    netTax: z.number(),
  }),
});
export type TaxReport = z.infer<typeof taxReportSchema>;

export const agingQuerySchema = z.object({ asOf: isoDate.optional() });
export const taxReportQuerySchema = z.object({ from: isoDate, to: isoDate });

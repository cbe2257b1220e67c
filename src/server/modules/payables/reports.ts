import { AGING_BUCKETS, AGING_LABELS, agingBucket } from '../../../shared/invoice-reports.ts';
import type { ReportFormatQuery } from '../../../shared/ledger.ts';
import type { PayablesAging } from '../../../shared/payables.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { companyToday, loadCompany } from '../invoices/common.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import {
  type FormatPreferences,
  type ReportTable,
  formatDate,
  tableToCsv,
  tableToPdf,
} from '../ledger/export.ts';
import type { ReportOutput } from '../ledger/report-service.ts';
import { trialBalance } from '../ledger/reports.ts';
import type { Executor } from './queries.ts';
import { selectOpenBillsAsOf, selectUnusedCreditsAsOf } from './reports-queries.ts';

// Accounts payable aging, in the base currency, as of a date: what the company owed each
// supplier on that date, by days past due (current, 1-30, 31-60, 61-90, over 90), checked
// against the ledger. The ledger debited accounts payable with every supplier credit, so a
// supplier's credit not yet applied or refunded on the date is netted from what they are owed,
// in the current column (it is not late). The totals therefore equal the accounts payable
// account's credit balance on the date (ledgerBalance, a liability shown positive).

const emptyBuckets = () => ({ current: 0, days1to30: 0, days31to60: 0, days61to90: 0, over90: 0, total: 0 });
type Row = PayablesAging['rows'][number];

export const payablesAging = async (
  db: Executor,
  organizationId: string,
  asOf: string,
): Promise<PayablesAging> => {
  const company = await loadCompany(db, organizationId);
  const [bills, credits] = await Promise.all([
    selectOpenBillsAsOf(db, organizationId, asOf),
    selectUnusedCreditsAsOf(db, organizationId, asOf),
  ]);
  const bySupplier = new Map<string, Row>();
  const totals = emptyBuckets();
  const add = (
    supplierId: string,
    supplierName: string,
    bucket: (typeof AGING_BUCKETS)[number],
    amount: number,
  ) => {
    const row = bySupplier.get(supplierId) ?? { supplierId, supplierName, ...emptyBuckets() };
    row[bucket] += amount;
    row.total += amount;
    totals[bucket] += amount;
    totals.total += amount;
    bySupplier.set(supplierId, row);
  };
  for (const b of bills)
    add(b.supplier_id, b.supplier_name, agingBucket(b.due_date, asOf), Number(b.balance));
  for (const c of credits) add(c.supplier_id, c.supplier_name, 'current', -Number(c.credit));
  const payable = await findSystemAccount(db, organizationId, 'accounts_payable');
  const tb = await trialBalance(db, organizationId, { to: asOf });
  // The trial balance is debit minus credit; a payable is a credit balance.
  const ledgerBalance = 0 - (tb.rows.find((r) => r.accountId === payable.id)?.closingBalance ?? 0);
  return {
    asOf,
    currency: company.base_currency,
    rows: [...bySupplier.values()].sort(
      (a, b) => b.total - a.total || a.supplierName.localeCompare(b.supplierName),
    ),
    totals,
    ledgerBalance,
  };
};

/** The aging laid out for an export: a row per supplier, the totals, and the ledger's figure. */
export const payablesAgingTable = (r: PayablesAging, prefs: FormatPreferences): ReportTable => ({
  title: 'Accounts payable aging',
  subtitle: `As of ${formatDate(r.asOf, prefs.dateFormat)} · ${r.currency} · days past due`,
  currency: r.currency,
  columns: [
    { label: 'Supplier' },
    ...AGING_BUCKETS.map((b) => ({ label: AGING_LABELS[b], amount: true })),
    { label: 'Total', amount: true },
  ],
  rows: [
    ...r.rows.map((row) => ({
      cells: [row.supplierName, ...AGING_BUCKETS.map((b) => ({ amount: row[b] })), { amount: row.total }],
    })),
    {
      cells: ['Total', ...AGING_BUCKETS.map((b) => ({ amount: r.totals[b] })), { amount: r.totals.total }],
      bold: true,
    },
    {
      cells: [
        'Accounts payable in the ledger',
        ...AGING_BUCKETS.map(() => null),
        { amount: r.ledgerBalance },
      ],
    },
  ],
});

export type PayablesAgingQuery = ReportFormatQuery & { asOf?: string; format: 'json' | 'csv' | 'pdf' };

/** The aging as the route serves it: JSON figures, or a CSV or PDF file named for the date. */
export const payablesAgingReport = async (
  ctx: AppContext,
  member: MemberContext,
  query: PayablesAgingQuery,
): Promise<ReportOutput<PayablesAging>> => {
  const db = ctx.database.db;
  const company = await loadCompany(db, member.organizationId);
  const asOf = query.asOf ?? companyToday(ctx.now(), company.time_zone);
  const data = await payablesAging(db, member.organizationId, asOf);
  if (query.format === 'json') return { format: 'json', data };
  const prefs: FormatPreferences = {
    dateFormat: query.dateFormat,
    locale: query.locale,
    currencyDisplay: query.currencyDisplay,
  };
  const table = payablesAgingTable(data, prefs);
  const fileName = `payables-aging-${asOf}`;
  if (query.format === 'csv') return { format: 'csv', fileName: `${fileName}.csv`, body: tableToCsv(table) };
  return { format: 'pdf', fileName: `${fileName}.pdf`, body: await tableToPdf(table, prefs, company.name) };
};

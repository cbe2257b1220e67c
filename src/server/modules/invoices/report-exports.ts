import { AGING_BUCKETS, AGING_LABELS, type AgingReport, type TaxReport } from '../../../shared/invoices.ts';
import type { ReportFormatQuery } from '../../../shared/ledger.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { type FormatPreferences, type ReportTable, formatDate } from '../ledger/export.ts';
import { type ReportOutput, reportFile } from '../ledger/report-service.ts';
import { loadCompany } from './common.ts';
import { receivablesAging, salesTax } from './reports.ts';

// Invoicing's reports as the routes serve them: JSON figures, or a CSV or PDF file laid out
// as a table and written by the ledger's one report writer (ledger/export.ts), as the
// payables aging is.

type Format = ReportFormatQuery & { format: 'json' | 'csv' | 'pdf' };

export const receivablesAgingTable = (r: AgingReport, prefs: FormatPreferences): ReportTable => ({
  title: 'Accounts receivable aging',
  subtitle: `As of ${formatDate(r.asOf, prefs.dateFormat)} · ${r.currency} · days past due`,
  currency: r.currency,
  columns: [
    { label: 'Customer' },
    ...AGING_BUCKETS.map((b) => ({ label: AGING_LABELS[b], amount: true })),
    { label: 'Total', amount: true },
  ],
  rows: [
    ...r.rows.map((row) => ({
      cells: [row.customerName, ...AGING_BUCKETS.map((b) => ({ amount: row[b] })), { amount: row.total }],
    })),
    {
      cells: ['Total', ...AGING_BUCKETS.map((b) => ({ amount: r.totals[b] })), { amount: r.totals.total }],
      bold: true,
    },
    {
      cells: [
        'Accounts receivable in the ledger',
        ...AGING_BUCKETS.map(() => null),
        { amount: r.ledgerBalance },
      ],
    },
  ],
});

export const taxReportTable = (r: TaxReport, prefs: FormatPreferences): ReportTable => {
  const figures = (x: TaxReport['totals']) => [
    { amount: x.taxable },
    { amount: x.tax },
    { amount: x.purchaseTaxable },
    { amount: x.purchaseTax },
    { amount: x.netTax },
  ];
  return {
    title: 'Tax report',
    subtitle: `${formatDate(r.from, prefs.dateFormat)} to ${formatDate(r.to, prefs.dateFormat)} · ${r.currency} · net tax: collected less paid`,
    currency: r.currency,
    columns: [
      { label: 'Rate' },
      { label: 'Percent' },
      { label: 'Sales taxable', amount: true },
      { label: 'Tax collected', amount: true },
      { label: 'Purchases taxable', amount: true },
      { label: 'Tax paid', amount: true },
      { label: 'Net tax', amount: true },
    ],
    rows: [
      ...r.rows.map((row) => ({ cells: [row.name, row.percent, ...figures(row)] })),
      { cells: ['Total', '', ...figures(r.totals)], bold: true },
    ],
  };
};

export const receivablesAgingReport = async (
  ctx: AppContext,
  member: MemberContext,
  query: Format & { asOf?: string },
): Promise<ReportOutput<AgingReport>> => {
  const data = await receivablesAging(ctx, member, query);
  const company = await loadCompany(ctx.database.db, member.organizationId);
  return reportFile(query, data, receivablesAgingTable, `receivables-aging-${data.asOf}`, company.name);
};

export const taxReportFile = async (
  ctx: AppContext,
  member: MemberContext,
  query: Format & { from: string; to: string },
): Promise<ReportOutput<TaxReport>> => {
  const data = await salesTax(ctx, member, query);
  const company = await loadCompany(ctx.database.db, member.organizationId);
  return reportFile(query, data, taxReportTable, `tax-report-${data.from}-to-${data.to}`, company.name);
};

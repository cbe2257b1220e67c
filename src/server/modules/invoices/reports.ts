import { badRequest } from '../../../shared/errors.ts';
import { AGING_BUCKETS, type AgingReport, type TaxReport, agingBucket } from '../../../shared/invoices.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { trialBalance } from '../ledger/reports.ts';
import { companyToday, loadCompany } from './common.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { type Executor, selectTaxRates } from './queries.ts';
import { selectOpenBalancesAsOf, selectPurchaseTaxTotals, selectTaxTotals } from './queries-reports.ts';

// Receivables aging and the tax report, in the base currency. Both are built from the
// documents and carry (or are checked against) the ledger's own figures: the aging total
// equals the receivable account's balance on the same date, and the tax report's net tax
// (sales tax from invoices less purchase tax from bills, issue 15) equals what the documents
// posted to the tax accounts.

const emptyBuckets = () => ({ current: 0, days1to30: 0, days31to60: 0, days61to90: 0, over90: 0, total: 0 });

export const agingReport = async (
  db: Executor,
  organizationId: string,
  asOf: string,
): Promise<AgingReport> => {
  const company = await loadCompany(db, organizationId);
  const rows = await selectOpenBalancesAsOf(db, organizationId, asOf);
  const byCustomer = new Map<string, AgingReport['rows'][number]>();
  const totals = emptyBuckets();
  for (const r of rows) {
    const balance = Number(r.balance);
    const row = byCustomer.get(r.customer_id) ?? {
      customerId: r.customer_id,
      customerName: r.customer_name,
      ...emptyBuckets(),
    };
    const bucket = agingBucket(r.due_date, asOf);
    row[bucket] += balance;
    row.total += balance;
    totals[bucket] += balance;
    totals.total += balance;
    byCustomer.set(r.customer_id, row);
  }
  const receivable = await findSystemAccount(db, organizationId, 'accounts_receivable');
  const tb = await trialBalance(db, organizationId, { to: asOf });
  const ledgerBalance = tb.rows.find((r) => r.accountId === receivable.id)?.closingBalance ?? 0;
  return {
    asOf,
    currency: company.base_currency,
    rows: [...byCustomer.values()].sort(
      (a, b) => b.total - a.total || a.customerName.localeCompare(b.customerName),
    ),
    totals,
    ledgerBalance,
  };
};

export const AGING_COLUMNS = AGING_BUCKETS;

export const taxReport = async (
  db: Executor,
  organizationId: string,
  from: string,
  to: string,
): Promise<TaxReport> => {
  if (from > to) throw badRequest('invalid_range', 'The start date must be on or before the end date.');
  const company = await loadCompany(db, organizationId);
  const [sales, purchases, rates] = await Promise.all([
    selectTaxTotals(db, organizationId, from, to),
    selectPurchaseTaxTotals(db, organizationId, from, to),
    selectTaxRates(db, organizationId),
  ]);
  const salesById = new Map(sales.map((t) => [t.tax_rate_id, t]));
  const purchasesById = new Map(purchases.map((t) => [t.tax_rate_id, t]));
  const rows = rates
    .filter((r) => salesById.has(r.id) || purchasesById.has(r.id))
    .map((r) => {
      const sale = salesById.get(r.id);
      const purchase = purchasesById.get(r.id);
      const tax = Number(sale?.tax ?? 0);
      const purchaseTax = Number(purchase?.tax ?? 0);
      return {
        taxRateId: r.id,
        name: r.name,
        percent: r.percent,
        accountId: r.account_id,
        taxable: Number(sale?.taxable ?? 0),
        tax,
        purchaseTaxable: Number(purchase?.taxable ?? 0),
        purchaseTax,
        netTax: tax - purchaseTax,
      };
    });
  const sum = (key: 'taxable' | 'tax' | 'purchaseTaxable' | 'purchaseTax' | 'netTax') =>
    rows.reduce((s, r) => s + r[key], 0);
  return {
    from,
    to,
    currency: company.base_currency,
    rows,
    totals: {
      taxable: sum('taxable'),
      tax: sum('tax'),
      purchaseTaxable: sum('purchaseTaxable'),
      purchaseTax: sum('purchaseTax'),
      netTax: sum('netTax'),
    },
  };
};

/** Receivables aging as of a date (the company's today when none is given). */
export const receivablesAging = async (ctx: AppContext, member: MemberContext, query: { asOf?: string }) => {
  const db = ctx.database.db;
  const company = await loadCompany(db, member.organizationId);
  return agingReport(db, member.organizationId, query.asOf ?? companyToday(ctx.now(), company.time_zone));
};

export const salesTax = (ctx: AppContext, member: MemberContext, query: { from: string; to: string }) =>
  taxReport(ctx.database.db, member.organizationId, query.from, query.to);

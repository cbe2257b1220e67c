import { addDays } from '../../../shared/dates.ts';
import type { PaymentRun } from '../../../shared/payables.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { companyToday, loadCompany } from '../invoices/common.ts';
import { sameCompany } from '../invoices/queries.ts';
import { toBillSummary } from './bill-read.ts';

// The payment run (issue 15 §4): every bill still owed (open or partially paid) due on or
// before a date — by default a week from the company's today, overdue ones included — grouped
// by supplier with the bank details to pay them to, and what is due per currency for each
// supplier and in all.

type Totals = Map<string, number>;

const add = (totals: Totals, currency: string, amount: number) =>
  totals.set(currency, (totals.get(currency) ?? 0) + amount);

const listed = (totals: Totals) =>
  [...totals].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, amount]) => ({ amount, currency }));

export const paymentRun = async (
  ctx: AppContext,
  member: MemberContext,
  query: { dueBy?: string | undefined },
): Promise<PaymentRun> => {
  const db = ctx.database.db;
  const { organizationId } = member;
  const company = await loadCompany(db, organizationId);
  const today = companyToday(ctx.now(), company.time_zone);
  const dueBy = query.dueBy ?? addDays(today, 7);
  const rows = await db
    .selectFrom('bills as b')
    .innerJoin('suppliers as s', sameCompany('s', 'b.supplier_id'))
    .select([
      'b.id',
      'b.number',
      'b.supplier_id',
      'b.reference',
      'b.issue_date',
      'b.due_date',
      'b.currency',
      'b.total',
      'b.amount_due',
      'b.status',
      's.name as supplier_name',
      's.bank_account_number',
      's.bank_code',
    ])
    .where('b.organization_id', '=', organizationId)
    .where('b.status', 'in', ['open', 'partially_paid'])
    .where('b.due_date', '<=', dueBy)
    .orderBy('s.name')
    .orderBy('s.id')
    .orderBy('b.due_date')
    .orderBy('b.number')
    .execute();
  const suppliers: PaymentRun['suppliers'] = [];
  const perSupplier = new Map<string, { entry: PaymentRun['suppliers'][number]; totals: Totals }>();
  const totals: Totals = new Map();
  for (const row of rows) {
    let group = perSupplier.get(row.supplier_id);
    if (!group) {
      group = {
        entry: {
          supplierId: row.supplier_id,
          supplierName: row.supplier_name,
          bankAccountNumber: row.bank_account_number,
          bankCode: row.bank_code,
          bills: [],
          totals: [],
        },
        totals: new Map(),
      };
      perSupplier.set(row.supplier_id, group);
      suppliers.push(group.entry);
    }
    const currency = row.currency.trim();
    group.entry.bills.push(toBillSummary(row, today));
    add(group.totals, currency, row.amount_due);
    add(totals, currency, row.amount_due);
  }
  for (const { entry, totals: own } of perSupplier.values()) entry.totals = listed(own);
  return {
    dueBy,
    today,
    baseCurrency: company.base_currency,
    suppliers,
    totals: listed(totals),
    billCount: rows.length,
  };
};

import { sql } from 'kysely';
import { badRequest } from '../../../shared/errors.ts';
import { formatInvoiceAmount } from '../../../shared/invoice-totals.ts';
import type { SupplierStatement } from '../../../shared/payables.ts';
import type { AppContext } from '../../context.ts';
import { type CsvCell, csvAmount } from '../../http/csv.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { companyToday, loadCompany } from '../invoices/common.ts';
import type { Executor } from './queries.ts';
import { findSupplier } from './suppliers.ts';

// A supplier's statement in the company's base currency (what the ledger carries): every bill
// the company came to owe, every payment, supplier credit and credit refund, and what undid
// any of them (a void bill or credit, a removed payment or refund) on the date the ledger
// reversed it, with the running balance the company owes the supplier (negative: the supplier
// owes the company, i.e. unapplied credit). Bills and credits count at the base amount they
// posted, payments at the payable they cleared, so the closing balance equals the supplier's
// share of accounts payable on the end date. A credit applied to a bill moves nothing (both
// sides are the same payable) and is listed for the record with no amount, unless the credit
// and the bill had different rates: then the exchange difference the ledger posted to
// accounts payable is its amount. Drafts and bills
// awaiting approval have posted nothing and are left out.

type Line = SupplierStatement['lines'][number];
type Raw = Line & { order: number; at: string };

const ORDER: Record<Line['kind'], number> = {
  bill: 0,
  credit: 1,
  payment: 2,
  credit_applied: 3,
  refund: 4,
  void: 5,
  payment_removed: 6,
};

export const LINE_LABELS: Record<Line['kind'], string> = {
  bill: 'Bill',
  payment: 'Payment',
  credit: 'Supplier credit',
  credit_applied: 'Credit applied',
  refund: 'Credit refund',
  void: 'Void',
  payment_removed: 'Removed',
};

const reversalDate = (
  column: 'b.void_entry_id' | 'p.reversal_entry_id' | 'c.void_entry_id' | 'r.reversal_entry_id',
) =>
  sql<
    string | null
  >`(select je.date from journal_entries je where je.organization_id = ${sql.ref(column.split('.')[0]!)}.organization_id and je.id = ${sql.ref(column)})`;

const loadDocuments = (db: Executor, organizationId: string, supplierId: string) =>
  Promise.all([
    db
      .selectFrom('bills as b')
      .select([
        'b.id',
        'b.number',
        'b.reference',
        'b.issue_date',
        'b.due_date',
        'b.total_base',
        'b.status',
        'b.created_at',
      ])
      .select(reversalDate('b.void_entry_id').as('void_date'))
      .where('b.organization_id', '=', organizationId)
      .where('b.supplier_id', '=', supplierId)
      .where('b.journal_entry_id', 'is not', null)
      .execute(),
    db
      .selectFrom('bill_payments as p')
      .innerJoin('bills as b', (j) =>
        j.onRef('b.organization_id', '=', 'p.organization_id').onRef('b.id', '=', 'p.bill_id'),
      )
      .select(['p.id', 'p.date', 'p.amount_base', 'p.reference', 'p.method', 'b.number', 'p.created_at'])
      .select(reversalDate('p.reversal_entry_id').as('removed_date'))
      .where('p.organization_id', '=', organizationId)
      .where('b.supplier_id', '=', supplierId)
      .execute(),
    db
      .selectFrom('supplier_credits as c')
      .select(['c.id', 'c.number', 'c.reference', 'c.date', 'c.total_base', 'c.created_at'])
      .select(reversalDate('c.void_entry_id').as('void_date'))
      .where('c.organization_id', '=', organizationId)
      .where('c.supplier_id', '=', supplierId)
      .execute(),
    db
      .selectFrom('supplier_credit_allocations as a')
      .innerJoin('supplier_credits as c', (j) =>
        j.onRef('c.organization_id', '=', 'a.organization_id').onRef('c.id', '=', 'a.credit_id'),
      )
      .innerJoin('bills as b', (j) =>
        j.onRef('b.organization_id', '=', 'a.organization_id').onRef('b.id', '=', 'a.bill_id'),
      )
      .select([
        'a.id',
        'a.date',
        'a.amount_base',
        'a.credit_base',
        'c.number as credit_number',
        'b.number as bill_number',
        'a.created_at',
      ])
      .where('a.organization_id', '=', organizationId)
      .where('c.supplier_id', '=', supplierId)
      .where('a.reversed_at', 'is', null)
      .execute(),
    db
      .selectFrom('supplier_credit_refunds as r')
      .innerJoin('supplier_credits as c', (j) =>
        j.onRef('c.organization_id', '=', 'r.organization_id').onRef('c.id', '=', 'r.credit_id'),
      )
      .select(['r.id', 'r.date', 'r.amount_base', 'r.reference', 'c.number as credit_number', 'r.created_at'])
      .select(reversalDate('r.reversal_entry_id').as('removed_date'))
      .where('r.organization_id', '=', organizationId)
      .where('c.supplier_id', '=', supplierId)
      .execute(),
  ]);

const line = (
  l: Omit<Line, 'balance' | 'charges' | 'payments'> & { charges?: number; payments?: number },
  at: unknown,
): Raw => ({
  charges: 0,
  payments: 0,
  ...l,
  balance: 0,
  order: ORDER[l.kind],
  at: new Date(at as Date).toISOString(),
});

export const supplierStatement = async (
  db: Executor,
  organizationId: string,
  supplierId: string,
  query: { from?: string; to?: string },
  now: Date,
): Promise<SupplierStatement> => {
  const supplier = await findSupplier(db, organizationId, supplierId);
  const company = await loadCompany(db, organizationId);
  const currency = company.base_currency;
  const to = query.to ?? companyToday(now, company.time_zone);
  if (query.from && query.from > to) {
    throw badRequest('invalid_range', 'The start date must be on or before the end date.');
  }
  const [bills, payments, credits, allocations, refunds] = await loadDocuments(
    db,
    organizationId,
    supplierId,
  );
  const fmt = (n: number) => formatInvoiceAmount(n, currency);

  const raw: Raw[] = [];
  for (const b of bills) {
    const total = Number(b.total_base);
    raw.push(
      line(
        {
          date: b.issue_date,
          kind: 'bill',
          documentId: b.id,
          number: b.number,
          reference: b.reference,
          description: `Bill ${b.number}${b.reference ? ` (${b.reference})` : ''}, due ${b.due_date}`,
          charges: total,
        },
        b.created_at,
      ),
    );
    if (b.void_date) {
      raw.push(
        line(
          {
            date: b.void_date,
            kind: 'void',
            documentId: b.id,
            number: b.number,
            reference: b.reference,
            description: `Bill ${b.number} voided`,
            payments: total,
          },
          b.created_at,
        ),
      );
    }
  }
  for (const p of payments) {
    const amount = Number(p.amount_base);
    raw.push(
      line(
        {
          date: p.date,
          kind: 'payment',
          documentId: p.id,
          number: p.number,
          reference: p.reference,
          description: `Payment of ${p.number}`,
          payments: amount,
        },
        p.created_at,
      ),
    );
    if (p.removed_date) {
      raw.push(
        line(
          {
            date: p.removed_date,
            kind: 'payment_removed',
            documentId: p.id,
            number: p.number,
            reference: p.reference,
            description: `Payment of ${p.number} removed`,
            charges: amount,
          },
          p.created_at,
        ),
      );
    }
  }
  for (const c of credits) {
    const total = Number(c.total_base);
    raw.push(
      line(
        {
          date: c.date,
          kind: 'credit',
          documentId: c.id,
          number: c.number,
          reference: c.reference,
          description: `Supplier credit ${c.number}${c.reference ? ` (${c.reference})` : ''}`,
          payments: total,
        },
        c.created_at,
      ),
    );
    if (c.void_date) {
      raw.push(
        line(
          {
            date: c.void_date,
            kind: 'void',
            documentId: c.id,
            number: c.number,
            reference: c.reference,
            description: `Supplier credit ${c.number} voided`,
            charges: total,
          },
          c.created_at,
        ),
      );
    }
  }
  for (const a of allocations) {
    // The payable cleared on the bill (amount_base) less the credit used (credit_base): zero at
    // one rate; otherwise the exchange gain (positive: owed less) or loss the ledger posted.
    const difference = Number(a.amount_base) - Number(a.credit_base);
    raw.push(
      line(
        {
          date: a.date,
          kind: 'credit_applied',
          documentId: a.id,
          number: a.credit_number,
          reference: a.bill_number,
          description: `${fmt(Number(a.amount_base))} of credit ${a.credit_number} applied to ${a.bill_number}${
            difference === 0
              ? ''
              : `; exchange ${difference > 0 ? 'gain' : 'loss'} ${fmt(Math.abs(difference))}`
          }`,
          payments: Math.max(0, difference),
          charges: Math.max(0, -difference),
        },
        a.created_at,
      ),
    );
  }
  for (const r of refunds) {
    const amount = Number(r.amount_base);
    raw.push(
      line(
        {
          date: r.date,
          kind: 'refund',
          documentId: r.id,
          number: r.credit_number,
          reference: r.reference,
          description: `Refund of credit ${r.credit_number} received`,
          charges: amount,
        },
        r.created_at,
      ),
    );
    if (r.removed_date) {
      raw.push(
        line(
          {
            date: r.removed_date,
            kind: 'payment_removed',
            documentId: r.id,
            number: r.credit_number,
            reference: r.reference,
            description: `Refund of credit ${r.credit_number} removed`,
            payments: amount,
          },
          r.created_at,
        ),
      );
    }
  }
  raw.sort((a, b) =>
    a.date !== b.date
      ? a.date < b.date
        ? -1
        : 1
      : a.order - b.order || (a.at < b.at ? -1 : a.at > b.at ? 1 : 0),
  );

  let balance = 0;
  let openingBalance = 0;
  const lines: Line[] = [];
  for (const { order: _o, at: _a, ...l } of raw) {
    if (l.date > to) break;
    balance += l.charges - l.payments;
    if (query.from && l.date < query.from) openingBalance = balance;
    else lines.push({ ...l, balance });
  }
  return { supplier, from: query.from ?? null, to, currency, openingBalance, lines, closingBalance: balance };
};

/** The statement as CSV rows (header first), amounts as plain numbers in the base currency. */
export const supplierStatementCsvRows = (s: SupplierStatement): CsvCell[][] => [
  [
    'Date',
    'Type',
    'Number',
    'Reference',
    'Description',
    'Charges',
    'Payments and credits',
    'Balance',
    'Currency',
  ],
  ['', 'Opening balance', '', '', '', '', '', csvAmount(s.openingBalance, s.currency), s.currency],
  ...s.lines.map((l) => [
    l.date,
    LINE_LABELS[l.kind],
    l.number,
    l.reference,
    l.description,
    l.charges ? csvAmount(l.charges, s.currency) : '',
    l.payments ? csvAmount(l.payments, s.currency) : '',
    csvAmount(l.balance, s.currency),
    s.currency,
  ]),
  ['', 'Closing balance', '', '', '', '', '', csvAmount(s.closingBalance, s.currency), s.currency],
];

export const readSupplierStatement = (
  ctx: AppContext,
  member: MemberContext,
  { supplierId, ...query }: { supplierId: string; from?: string; to?: string },
) => supplierStatement(ctx.database.db, member.organizationId, supplierId, query, ctx.now());

/** The statement as CSV rows, and the file's name (the supplier's name and the end date). */
export const supplierStatementCsv = async (
  ctx: AppContext,
  member: MemberContext,
  input: { supplierId: string; from?: string; to?: string },
) => {
  const statement = await readSupplierStatement(ctx, member, input);
  const name = statement.supplier.name.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'supplier';
  return {
    fileName: `supplier-statement-${name}-${statement.to}.csv`,
    rows: supplierStatementCsvRows(statement),
  };
};

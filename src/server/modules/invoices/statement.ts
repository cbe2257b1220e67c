import {
  type CustomerStatement,
  STATEMENT_LINE_LABELS,
  type StatementLine,
  type StatementLineKind,
  type StatementQuery,
} from '../../../shared/invoice-credit.ts';
import { formatInvoiceAmount } from '../../../shared/invoice-totals.ts';
import { type CsvCell, csvAmount } from '../../http/csv.ts';
import { companyToday, loadCompany } from './common.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { findCustomer } from './credit-pool.ts';
import { type Executor, customerCreditEntries, paymentsWithInvoice, sameCompany } from './queries.ts';

// A customer's statement in one currency: every invoice, payment, credit note, credit
// application and refund, with the running balance the customer owes (negative: the company
// owes them, i.e. they hold credit). Documents as they stand: a void invoice, a removed
// payment or a void credit note never asked for or settled anything, so it is left out
// together with whatever undid it. The closing balance therefore equals what the customer
// owes on open invoices less the credit they hold (the property test checks this). Both are
// figures as of the statement's end date, from the same dated documents: what was still owed
// on each invoice and the credit held at the close of that day, not today.

type RawLine = Omit<StatementLine, 'balance'> & { order: number; at: string };

const KIND_ORDER: Record<StatementLineKind, number> = {
  invoice: 0,
  credit_note: 1,
  payment: 2,
  credit_applied: 3,
  refund: 4,
};

export const customerStatement = async (
  db: Executor,
  organizationId: string,
  customerId: string,
  query: { from?: string; to?: string; currency?: string },
  now: Date,
): Promise<CustomerStatement> => {
  const customer = await findCustomer(db, organizationId, customerId);
  const company = await loadCompany(db, organizationId);
  const to = query.to ?? companyToday(now, company.time_zone);

  const [invoices, payments, notes, entries] = await Promise.all([
    db
      .selectFrom('invoices')
      .select([
        'id',
        'number',
        'issue_date',
        'due_date',
        'currency',
        'total',
        'amount_due',
        'status',
        'created_at',
      ])
      .where('organization_id', '=', organizationId)
      .where('customer_id', '=', customerId)
      .where('status', 'not in', ['draft', 'void'])
      .execute(),
    paymentsWithInvoice(db, organizationId)
      .where('i.customer_id', '=', customerId)
      .where('p.reversal_entry_id', 'is', null)
      .select([
        'p.id',
        'p.invoice_id',
        'i.number',
        'p.date',
        'p.amount',
        'p.credit_amount',
        'p.currency',
        'p.reference',
        'p.created_at',
      ])
      .execute(),
    db
      .selectFrom('credit_notes as n')
      .innerJoin('invoices as i', sameCompany('i', 'n.invoice_id'))
      .select([
        'n.id',
        'n.invoice_id',
        'n.number',
        'i.number as invoice_number',
        'n.date',
        'n.total',
        'n.to_credit',
        'n.currency',
        'n.status',
        'n.created_at',
      ])
      .where('n.organization_id', '=', organizationId)
      .where('i.customer_id', '=', customerId)
      .where('n.status', 'in', ['issued', 'void'])
      .execute(),
    customerCreditEntries(db, organizationId, customerId)
      .leftJoin('invoice_payments as p', sameCompany('p', 'e.payment_id'))
      .select([
        'p.reversal_entry_id as payment_reversal',
        'n.status as note_status',
        'e.id',
        'e.kind',
        'e.date',
        'e.amount',
        'e.currency',
        'e.invoice_id',
        'i.number as invoice_number',
        'n.number as note_number',
        'e.reference',
        'e.created_at',
      ])
      .execute(),
  ]);

  const currencies = [
    ...new Set([...invoices.map((i) => i.currency.trim()), ...entries.map((e) => e.currency.trim())]),
  ].sort();
  const currency =
    query.currency ??
    (currencies.includes(customer.currency.trim()) || currencies.length === 0
      ? customer.currency.trim()
      : currencies[0]!);
  const at = (d: unknown) => new Date(d as Date).toISOString();
  const fmt = (n: number) => formatInvoiceAmount(n, currency);

  const raw: RawLine[] = [
    ...invoices
      .filter((i) => i.currency.trim() === currency)
      .map((i) => ({
        date: i.issue_date,
        id: `invoice:${i.id}`,
        kind: 'invoice' as const,
        document: i.number ?? '',
        description: `Invoice ${i.number}, due ${i.due_date}`,
        invoiceId: i.id,
        charge: i.total,
        credit: 0,
        order: KIND_ORDER.invoice,
        at: at(i.created_at),
      })),
    ...payments
      .filter((p) => p.currency.trim() === currency)
      .map((p) => ({
        date: p.date,
        id: `payment:${p.id}`,
        kind: 'payment' as const,
        document: p.reference || (p.number ?? ''),
        description:
          p.credit_amount > 0
            ? `Payment for ${p.number}; ${fmt(p.credit_amount)} kept as credit`
            : `Payment for ${p.number}`,
        invoiceId: p.invoice_id,
        charge: 0,
        credit: p.amount,
        order: KIND_ORDER.payment,
        at: at(p.created_at),
      })),
    ...notes
      .filter((n) => n.status === 'issued' && n.currency.trim() === currency)
      .map((n) => ({
        date: n.date,
        id: `credit_note:${n.id}`,
        kind: 'credit_note' as const,
        document: n.number,
        description:
          n.to_credit > 0
            ? `Credit note on ${n.invoice_number}; ${fmt(n.to_credit)} kept as credit`
            : `Credit note on ${n.invoice_number}`,
        invoiceId: n.invoice_id,
        charge: 0,
        credit: n.total,
        order: KIND_ORDER.credit_note,
        at: at(n.created_at),
      })),
    ...entries
      .filter((e) => (e.kind === 'applied' || e.kind === 'refund') && e.currency.trim() === currency)
      .map((e) =>
        e.kind === 'applied'
          ? {
              date: e.date,
              id: `applied:${e.id}`,
              kind: 'credit_applied' as const,
              document: e.invoice_number ?? '',
              description: `${fmt(-e.amount)} of credit applied to ${e.invoice_number}`,
              invoiceId: e.invoice_id,
              charge: 0,
              credit: 0,
              order: KIND_ORDER.credit_applied,
              at: at(e.created_at),
            }
          : {
              date: e.date,
              id: `refund:${e.id}`,
              kind: 'refund' as const,
              document: e.reference || (e.note_number ?? e.invoice_number ?? ''),
              description: e.note_number
                ? `Refund of credit note ${e.note_number}`
                : e.invoice_number
                  ? `Refund on ${e.invoice_number}`
                  : 'Refund of credit',
              invoiceId: e.invoice_id,
              charge: -e.amount,
              credit: 0,
              order: KIND_ORDER.refund,
              at: at(e.created_at),
            },
      ),
  ]
    .filter((l) => l.date <= to)
    .sort((a, b) =>
      a.date !== b.date
        ? a.date < b.date
          ? -1
          : 1
        : a.order - b.order || (a.at < b.at ? -1 : a.at > b.at ? 1 : 0),
    );

  let balance = 0;
  let openingBalance = 0;
  const lines: StatementLine[] = [];
  for (const { order: _o, at: _a, ...l } of raw) {
    balance += l.charge - l.credit;
    if (query.from && l.date < query.from) openingBalance = balance;
    else lines.push({ ...l, balance });
  }
  // As of the end date: each invoice issued by then, less what settled it by then (payments
  // less the part kept as credit, credit notes less the part kept as credit, credit applied).
  const settledBy = new Map<string, number>();
  const settle = (invoiceId: string | null, amount: number) => {
    if (invoiceId) settledBy.set(invoiceId, (settledBy.get(invoiceId) ?? 0) + amount);
  };
  for (const p of payments)
    if (p.date <= to) settle(p.invoice_id, Number(p.amount) - Number(p.credit_amount));
  for (const n of notes)
    if (n.status === 'issued' && n.date <= to) settle(n.invoice_id, Number(n.total) - Number(n.to_credit));
  for (const e of entries) if (e.kind === 'applied' && e.date <= to) settle(e.invoice_id, -Number(e.amount));
  const openInvoices = invoices
    .filter((i) => i.currency.trim() === currency && i.issue_date <= to)
    .reduce((s, i) => s + Math.max(0, Number(i.total) - (settledBy.get(i.id) ?? 0)), 0);
  // The credit held at the end date, from the same documents as they stand: credit from a
  // removed payment or a void credit note is left out together with what took it back.
  const creditHeld = entries
    .filter(
      (e) =>
        e.currency.trim() === currency &&
        e.date <= to &&
        !(e.payment_reversal && (e.kind === 'overpayment' || e.kind === 'payment_removed')) &&
        !(e.note_status === 'void' && (e.kind === 'credit_note' || e.kind === 'credit_note_voided')),
    )
    .reduce((s, e) => s + Number(e.amount), 0);
  return {
    customerId,
    customerName: customer.name,
    currency,
    from: query.from ?? null,
    to,
    openingBalance,
    lines,
    closingBalance: balance,
    openInvoices,
    creditHeld,
    currencies: currencies.length ? currencies : [currency],
  };
};

/** The statement as CSV rows (header first), amounts as plain numbers. */
export const statementCsvRows = (s: CustomerStatement): CsvCell[][] => [
  ['Date', 'Type', 'Document', 'Description', 'Charge', 'Payment or credit', 'Balance', 'Currency'],
  ['', 'Opening balance', '', '', '', '', csvAmount(s.openingBalance, s.currency), s.currency],
  ...s.lines.map((l) => [
    l.date,
    STATEMENT_LINE_LABELS[l.kind],
    l.document,
    l.description,
    l.charge ? csvAmount(l.charge, s.currency) : '',
    l.credit ? csvAmount(l.credit, s.currency) : '',
    csvAmount(l.balance, s.currency),
    s.currency,
  ]),
  ['', 'Closing balance', '', '', '', '', csvAmount(s.closingBalance, s.currency), s.currency],
];

/** The statement page: the customer's documents and running balance over the query's range. */
export const readCustomerStatement = (
  ctx: AppContext,
  member: MemberContext,
  { customerId, ...query }: StatementQuery & { customerId: string },
) => customerStatement(ctx.database.db, member.organizationId, customerId, query, ctx.now());

/** The statement as CSV rows, and the file's name (the customer's name and the end date). */
export const customerStatementCsv = async (
  ctx: AppContext,
  member: MemberContext,
  input: StatementQuery & { customerId: string },
) => {
  const statement = await readCustomerStatement(ctx, member, input);
  const name = statement.customerName.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'customer';
  return { fileName: `statement-${name}-${statement.to}.csv`, rows: statementCsvRows(statement) };
};

import type { z } from 'zod';
import { badRequest, notFound } from '../../../shared/errors.ts';
import type {
  Customer,
  CustomerDetail,
  CustomerListQuery,
  customerInputSchema,
  customerUpdateSchema,
} from '../../../shared/invoices.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { recordMemberAudit } from '../audit/record.ts';
import {
  archivedColumn,
  checkCurrency,
  inMemberTransaction,
  iso,
  loadCompany,
  sentColumns,
} from './common.ts';
import { selectInvoiceList } from './invoice-read.ts';
import {
  type Executor,
  countCustomers,
  insertCompanyRow,
  selectCustomer,
  selectCustomerPayments,
  selectCustomers,
  updateCompanyRow,
} from './queries.ts';

// Customers (contacts): who invoices go to. Archived, never deleted once invoiced, so old
// invoices keep their customer.

type CustomerRow = NonNullable<Awaited<ReturnType<typeof selectCustomer>>>;

export const toCustomer = (row: CustomerRow): Customer => ({
  id: row.id,
  name: row.name,
  company: row.company,
  email: row.email,
  phone: row.phone,
  billingAddress: row.billing_address,
  taxNumber: row.tax_number,
  currency: row.currency.trim(),
  paymentTermsDays: row.payment_terms_days,
  notes: row.notes,
  archived: row.archived_at !== null,
  balance: Number(row.balance),
  credit: Number(row.credit),
  createdAt: iso(row.created_at as Date)!,
});

const auditView = (c: Customer) => {
  const { balance: _b, credit: _cr, createdAt: _c, ...rest } = c;
  return rest;
};

export const listCustomers = async (ctx: AppContext, member: MemberContext, params: CustomerListQuery) => {
  const db = ctx.database.db;
  const { organizationId } = member;
  const filter = { search: params.search, includeArchived: params.includeArchived === 'true' };
  const [rows, total] = await Promise.all([
    selectCustomers(db, organizationId, {
      ...filter,
      limit: params.pageSize,
      offset: (params.page - 1) * params.pageSize,
    }),
    countCustomers(db, organizationId, filter),
  ]);
  return { customers: rows.map(toCustomer), totalCount: total, page: params.page, pageSize: params.pageSize };
};

export const getCustomer = async (db: Executor, organizationId: string, id: string) => {
  const row = await selectCustomer(db, organizationId, id);
  if (!row) throw notFound('Customer not found.');
  return toCustomer(row);
};

/** A customer with their latest invoices and payments (the customer page). */
export const customerDetail = async (
  ctx: AppContext,
  member: MemberContext,
  input: { customerId: string },
): Promise<CustomerDetail> => {
  const db = ctx.database.db;
  const { organizationId } = member;
  const customer = await getCustomer(db, organizationId, input.customerId);
  const [list, payments] = await Promise.all([
    selectInvoiceList(
      db,
      organizationId,
      { status: 'all', customerId: customer.id, sort: 'issueDate', order: 'desc', page: 1, pageSize: 200 },
      ctx.now(),
    ),
    selectCustomerPayments(db, organizationId, customer.id),
  ]);
  return {
    customer,
    invoices: list.items,
    payments: payments.map((p) => ({
      id: p.id,
      invoiceId: p.invoice_id,
      invoiceNumber: p.number,
      date: p.date,
      amount: p.amount,
      currency: p.currency.trim(),
      method: p.method,
      reference: p.reference,
      reversed: p.reversal_entry_id !== null,
    })),
  };
};

/** The customer fields an update may send, and their columns. */
const CUSTOMER_COLUMNS = {
  name: 'name',
  company: 'company',
  email: 'email',
  phone: 'phone',
  billingAddress: 'billing_address',
  taxNumber: 'tax_number',
  currency: 'currency',
  paymentTermsDays: 'payment_terms_days',
  notes: 'notes',
} as const;

export const createCustomer = inMemberTransaction(
  async (trx, member, input: z.output<typeof customerInputSchema>) => {
    const { organizationId } = member;
    const company = await loadCompany(trx, organizationId);
    const currency = input.currency ?? company.base_currency;
    checkCurrency(currency);
    const id = await insertCompanyRow(trx, 'customers', organizationId, {
      name: input.name,
      company: input.company,
      email: input.email,
      phone: input.phone,
      billing_address: input.billingAddress,
      tax_number: input.taxNumber,
      currency,
      payment_terms_days: input.paymentTermsDays,
      notes: input.notes,
    });
    const customer = await getCustomer(trx, organizationId, id);
    await recordMemberAudit(trx, member, 'customer.created', ['customer', id], {
      after: auditView(customer),
    });
    return customer;
  },
);

export const updateCustomer = inMemberTransaction(
  async (
    trx,
    member,
    { customerId: id, ...input }: z.output<typeof customerUpdateSchema> & { customerId: string },
  ) => {
    const { organizationId } = member;
    const before = await getCustomer(trx, organizationId, id);
    if (input.currency !== undefined && input.currency !== before.currency) {
      checkCurrency(input.currency);
      const invoiced = await trx
        .selectFrom('invoices')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('customer_id', '=', id)
        .where('status', '<>', 'draft')
        .limit(1)
        .executeTakeFirst();
      if (invoiced) {
        throw badRequest(
          'customer_currency_locked',
          'This customer already has invoices in their currency. Create a new customer for another currency.',
        );
      }
    }
    await updateCompanyRow(trx, 'customers', organizationId, id, {
      ...sentColumns(input, CUSTOMER_COLUMNS),
      ...archivedColumn(input.archived),
      updated_at: new Date(),
    });
    const after = await getCustomer(trx, organizationId, id);
    const action =
      input.archived === true
        ? 'customer.archived'
        : input.archived === false
          ? 'customer.restored'
          : 'customer.updated';
    await recordMemberAudit(trx, member, action, ['customer', id], {
      before: auditView(before),
      after: auditView(after),
    });
    return after;
  },
);

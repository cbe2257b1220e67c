import type { z } from 'zod';
import { badRequest, notFound } from '../../../shared/errors.ts';
import type {
  Supplier,
  SupplierList,
  SupplierListQuery,
  supplierInputSchema,
  supplierUpdateSchema,
} from '../../../shared/payables.ts';
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
} from '../invoices/common.ts';
import { selectTaxRatesByIds } from '../invoices/queries.ts';
import { selectAccountsByIds } from '../ledger/queries.ts';
import { type Executor, insertPayablesRow, updatePayablesRow } from './queries.ts';
import {
  type SupplierRow,
  countSuppliers,
  selectSupplier,
  selectSuppliers,
  supplierHasDocuments,
} from './suppliers-queries.ts';

// Suppliers (vendors): who bills come from. Archived, never deleted once billed, so old bills
// keep their supplier; an archived supplier gets no new bills. The mirror of invoices/customers.ts.

export const toSupplier = (row: SupplierRow): Supplier => ({
  id: row.id,
  name: row.name,
  company: row.company,
  email: row.email,
  phone: row.phone,
  address: row.address,
  taxNumber: row.tax_number,
  currency: row.currency.trim(),
  paymentTermsDays: row.payment_terms_days,
  defaultAccountId: row.default_account_id,
  defaultTaxRateId: row.default_tax_rate_id,
  bankAccountName: row.bank_account_name,
  bankAccountNumber: row.bank_account_number,
  bankCode: row.bank_code,
  notes: row.notes,
  archived: row.archived_at !== null,
  balance: Number(row.balance),
  credit: Number(row.credit),
  createdAt: iso(row.created_at as Date)!,
});

const auditView = (s: Supplier) => {
  const { balance: _b, credit: _cr, createdAt: _c, ...rest } = s;
  return rest;
};

export const listSuppliers = async (
  ctx: AppContext,
  member: MemberContext,
  params: SupplierListQuery,
): Promise<SupplierList> => {
  const db = ctx.database.db;
  const { organizationId } = member;
  const filter = { search: params.search, includeArchived: params.includeArchived === 'true' };
  const [rows, total] = await Promise.all([
    selectSuppliers(db, organizationId, {
      ...filter,
      limit: params.pageSize,
      offset: (params.page - 1) * params.pageSize,
    }),
    countSuppliers(db, organizationId, filter),
  ]);
  return { suppliers: rows.map(toSupplier), totalCount: total, page: params.page, pageSize: params.pageSize };
};

/** One supplier of the company; 404 when there is none with this id in it. */
export const findSupplier = async (db: Executor, organizationId: string, id: string) => {
  const row = await selectSupplier(db, organizationId, id);
  if (!row) throw notFound('Supplier not found.');
  return toSupplier(row);
};

export const readSupplier = (ctx: AppContext, member: MemberContext, input: { supplierId: string }) =>
  findSupplier(ctx.database.db, member.organizationId, input.supplierId);

/** Account types a supplier's default line may post to: what a bill buys is an expense or an asset. */
const DEFAULT_ACCOUNT_TYPES = new Set(['expense', 'asset']);

/**
 * Refuses a default account that is not one of the company's expense (cost of sales included)
 * or asset accounts, or is archived, and a default tax rate that is not the company's.
 */
export const checkSupplierDefaults = async (
  db: Executor,
  organizationId: string,
  input: { defaultAccountId?: string | null; defaultTaxRateId?: string | null },
) => {
  if (input.defaultAccountId) {
    const [account] = await selectAccountsByIds(db, organizationId, [input.defaultAccountId]);
    if (!account) {
      throw badRequest(
        'account_not_found',
        'The default account does not exist in this company. Choose one of its expense or asset accounts.',
        { field: 'defaultAccountId' },
      );
    }
    if (!DEFAULT_ACCOUNT_TYPES.has(account.type)) {
      throw badRequest(
        'invalid_account',
        `A supplier's default account is an expense, cost of sales or asset account, not ${account.code} ${account.name} (${account.type}).`,
        { field: 'defaultAccountId' },
      );
    }
    if (account.archived_at) {
      throw badRequest(
        'account_archived',
        `The account ${account.code} ${account.name} is archived. Restore it or choose another.`,
        { field: 'defaultAccountId' },
      );
    }
  }
  if (input.defaultTaxRateId) {
    const [rate] = await selectTaxRatesByIds(db, organizationId, [input.defaultTaxRateId]);
    if (!rate) {
      throw badRequest(
        'tax_rate_not_found',
        'The default tax rate does not exist in this company. Choose one of its tax rates.',
        { field: 'defaultTaxRateId' },
      );
    }
    if (rate.archived_at) {
      throw badRequest('tax_rate_archived', `The tax rate ${rate.name} is archived. Choose a current rate.`, {
        field: 'defaultTaxRateId',
      });
    }
  }
};

/** The supplier fields an update may send, and their columns. */
const SUPPLIER_COLUMNS = {
  name: 'name',
  company: 'company',
  email: 'email',
  phone: 'phone',
  address: 'address',
  taxNumber: 'tax_number',
  currency: 'currency',
  paymentTermsDays: 'payment_terms_days',
  defaultAccountId: 'default_account_id',
  defaultTaxRateId: 'default_tax_rate_id',
  bankAccountName: 'bank_account_name',
  bankAccountNumber: 'bank_account_number',
  bankCode: 'bank_code',
  notes: 'notes',
} as const;

export type SupplierValues = z.output<typeof supplierInputSchema>;

/** The row of a new supplier (its currency already decided). */
export const supplierRowValues = (input: SupplierValues, currency: string) => ({
  name: input.name,
  company: input.company,
  email: input.email,
  phone: input.phone,
  address: input.address,
  tax_number: input.taxNumber,
  currency,
  payment_terms_days: input.paymentTermsDays,
  default_account_id: input.defaultAccountId ?? null,
  default_tax_rate_id: input.defaultTaxRateId ?? null,
  bank_account_name: input.bankAccountName,
  bank_account_number: input.bankAccountNumber,
  bank_code: input.bankCode,
  notes: input.notes,
});

export const createSupplier = inMemberTransaction(async (trx, member, input: SupplierValues) => {
  const { organizationId } = member;
  const company = await loadCompany(trx, organizationId);
  const currency = input.currency ?? company.base_currency;
  checkCurrency(currency);
  await checkSupplierDefaults(trx, organizationId, input);
  const id = await insertPayablesRow(trx, 'suppliers', organizationId, supplierRowValues(input, currency));
  const supplier = await findSupplier(trx, organizationId, id);
  await recordMemberAudit(trx, member, 'supplier.created', ['supplier', id], { after: auditView(supplier) });
  return supplier;
});

export const updateSupplier = inMemberTransaction(
  async (
    trx,
    member,
    { supplierId: id, ...input }: z.output<typeof supplierUpdateSchema> & { supplierId: string },
  ) => {
    const { organizationId } = member;
    const before = await findSupplier(trx, organizationId, id);
    if (input.currency !== undefined && input.currency !== before.currency) {
      checkCurrency(input.currency);
      if (await supplierHasDocuments(trx, organizationId, id)) {
        throw badRequest(
          'supplier_currency_locked',
          `This supplier already has bills in ${before.currency}, so their currency cannot change. Create a new supplier for another currency.`,
          { field: 'currency' },
        );
      }
    }
    await checkSupplierDefaults(trx, organizationId, input);
    await updatePayablesRow(trx, 'suppliers', organizationId, id, {
      ...sentColumns(input, SUPPLIER_COLUMNS),
      ...archivedColumn(input.archived),
      updated_at: new Date(),
    });
    const after = await findSupplier(trx, organizationId, id);
    const action =
      input.archived === true && !before.archived
        ? 'supplier.archived'
        : input.archived === false && before.archived
          ? 'supplier.restored'
          : 'supplier.updated';
    await recordMemberAudit(trx, member, action, ['supplier', id], {
      before: auditView(before),
      after: auditView(after),
    });
    return after;
  },
);

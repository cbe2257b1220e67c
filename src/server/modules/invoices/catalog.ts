import type { z } from 'zod';
import { badRequest, notFound } from '../../../shared/errors.ts';
import type {
  Item,
  ItemListQuery,
  TaxRate,
  itemInputSchema,
  itemUpdateSchema,
  taxRateInputSchema,
  taxRateUpdateSchema,
} from '../../../shared/invoices.ts';
import { recordMemberAudit } from '../audit/record.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { selectAccountsByIds } from '../ledger/queries.ts';
import { archivedColumn, inMemberTransaction, normalizeDecimal, sentColumns } from './common.ts';
import {
  type Executor,
  insertCompanyRow,
  selectItems,
  selectInvoicingAccounts,
  selectItemsByIds,
  selectTaxRates,
  selectTaxRatesByIds,
  updateCompanyRow,
} from './queries.ts';

// Products and services (items) and tax rates. A tax rate's percentage never changes once
// created: invoices already sent were calculated with it. A new rate replaces an old one.

type TaxRow = Awaited<ReturnType<typeof selectTaxRates>>[number];
type ItemRow = Awaited<ReturnType<typeof selectItems>>[number];

export const toTaxRate = (row: TaxRow): TaxRate => ({
  id: row.id,
  name: row.name,
  percent: row.percent,
  accountId: row.account_id,
  inclusive: row.inclusive,
  compound: row.compound,
  archived: row.archived_at !== null,
});

export const toItem = (row: ItemRow): Item => ({
  id: row.id,
  name: row.name,
  description: row.description,
  unitPrice: row.unit_price,
  incomeAccountId: row.income_account_id,
  taxRateId: row.tax_rate_id,
  archived: row.archived_at !== null,
});

const checkAccount = async (
  db: Executor,
  organizationId: string,
  accountId: string,
  allowed: { types: string[]; what: string },
) => {
  const [account] = await selectAccountsByIds(db, organizationId, [accountId]);
  if (!account) throw badRequest('account_not_found', 'The account does not exist in this company.');
  if (!allowed.types.includes(account.type)) {
    throw badRequest(
      'invalid_account',
      `Choose ${allowed.what}; ${account.code} ${account.name} is a ${account.type} account.`,
    );
  }
  if (account.archived_at)
    throw badRequest('account_archived', `Account ${account.code} ${account.name} is archived.`);
};

/** Tax rates and items alike: how one is read as the API shows it, and named in audit rows. */
type Catalog<View> = {
  entity: 'tax_rate' | 'item';
  missing: string;
  read: (db: Executor, organizationId: string, ids: string[]) => Promise<View[]>;
};

const TAX_RATES: Catalog<TaxRate> = {
  entity: 'tax_rate',
  missing: 'Tax rate not found.',
  read: async (db, organizationId, ids) =>
    (await selectTaxRatesByIds(db, organizationId, ids)).map(toTaxRate),
};

const ITEMS: Catalog<Item> = {
  entity: 'item',
  missing: 'Item not found.',
  read: async (db, organizationId, ids) => (await selectItemsByIds(db, organizationId, ids)).map(toItem),
};

/** One row of the company's catalog; 404 when it is not there. */
const findInCatalog = async <View>(
  db: Executor,
  organizationId: string,
  catalog: Catalog<View>,
  id: string,
) => {
  const [row] = await catalog.read(db, organizationId, [id]);
  if (!row) throw notFound(catalog.missing);
  return row;
};

/** Reads a created or changed row back and records the change's audit row; answers the row. */
const auditedChange = async <View>(
  trx: Executor,
  member: MemberContext,
  catalog: Catalog<View>,
  id: string,
  before?: View,
) => {
  const [after] = await catalog.read(trx, member.organizationId, [id]);
  const action = `${catalog.entity}.${before ? 'updated' : 'created'}` as const;
  await recordMemberAudit(trx, member, action, [catalog.entity, id], { before, after });
  return after!;
};

export const listTaxRates = async (ctx: AppContext, member: MemberContext) => ({
  taxRates: (await selectTaxRates(ctx.database.db, member.organizationId)).map(toTaxRate),
});

export const createTaxRate = inMemberTransaction(
  async (trx, member, input: z.output<typeof taxRateInputSchema>) => {
    const { organizationId } = member;
    const accountId =
      input.accountId ?? (await findSystemAccount(trx, organizationId, 'sales_tax_payable')).id;
    await checkAccount(trx, organizationId, accountId, {
      types: ['liability'],
      what: 'a liability account for the tax collected',
    });
    const id = await insertCompanyRow(trx, 'tax_rates', organizationId, {
      name: input.name,
      percent: normalizeDecimal(input.percent),
      account_id: accountId,
      inclusive: input.inclusive,
      compound: input.compound,
    });
    return auditedChange(trx, member, TAX_RATES, id);
  },
);

export const updateTaxRate = inMemberTransaction(
  async (
    trx,
    member,
    { taxRateId: id, ...input }: z.output<typeof taxRateUpdateSchema> & { taxRateId: string },
  ) => {
    const before = await findInCatalog(trx, member.organizationId, TAX_RATES, id);
    await updateCompanyRow(trx, 'tax_rates', member.organizationId, id, {
      ...sentColumns(input, { name: 'name' }),
      ...archivedColumn(input.archived),
    });
    return auditedChange(trx, member, TAX_RATES, id, before);
  },
);

export const listItems = async (ctx: AppContext, member: MemberContext, params: ItemListQuery) => ({
  items: (
    await selectItems(ctx.database.db, member.organizationId, {
      search: params.search,
      includeArchived: params.includeArchived === 'true',
    })
  ).map(toItem),
});

/** Accounts invoicing offers: income for lines, bank/cash for deposits, liabilities for tax. */
export const listInvoicingAccounts = async (ctx: AppContext, member: MemberContext) => ({
  accounts: (await selectInvoicingAccounts(ctx.database.db, member.organizationId)).map((a) => ({
    id: a.id,
    code: a.code,
    name: a.name,
    type: a.type,
    subtype: a.subtype,
    currency: a.currency.trim(),
    systemKey: a.system_key,
  })),
});

/** An item's income account and tax rate, when given: in the company, current, of the right type. */
const checkItemAccounts = async (
  db: Executor,
  organizationId: string,
  input: { incomeAccountId?: string | null; taxRateId?: string | null },
) => {
  if (input.incomeAccountId) {
    await checkAccount(db, organizationId, input.incomeAccountId, {
      types: ['income'],
      what: 'an income account',
    });
  }
  if (input.taxRateId) {
    const [rate] = await selectTaxRatesByIds(db, organizationId, [input.taxRateId]);
    if (!rate) throw badRequest('tax_rate_not_found', 'The tax rate does not exist in this company.');
  }
};

export const createItem = inMemberTransaction(
  async (trx, member, input: z.output<typeof itemInputSchema>) => {
    const { organizationId } = member;
    const incomeAccountId =
      input.incomeAccountId ?? (await findSystemAccount(trx, organizationId, 'sales')).id;
    await checkItemAccounts(trx, organizationId, { ...input, incomeAccountId });
    const id = await insertCompanyRow(trx, 'items', organizationId, {
      name: input.name,
      description: input.description,
      unit_price: input.unitPrice,
      income_account_id: incomeAccountId,
      tax_rate_id: input.taxRateId ?? null,
    });
    return auditedChange(trx, member, ITEMS, id);
  },
);

export const updateItem = inMemberTransaction(
  async (trx, member, { itemId: id, ...input }: z.output<typeof itemUpdateSchema> & { itemId: string }) => {
    const before = await findInCatalog(trx, member.organizationId, ITEMS, id);
    await checkItemAccounts(trx, member.organizationId, input);
    await updateCompanyRow(trx, 'items', member.organizationId, id, {
      ...sentColumns(input, {
        name: 'name',
        description: 'description',
        unitPrice: 'unit_price',
        taxRateId: 'tax_rate_id',
      }),
      // An income account is required: null leaves it as it is.
      ...(input.incomeAccountId ? { income_account_id: input.incomeAccountId } : {}),
      ...archivedColumn(input.archived),
      updated_at: new Date(),
    });
    return auditedChange(trx, member, ITEMS, id, before);
  },
);

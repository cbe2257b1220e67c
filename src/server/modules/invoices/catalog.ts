import { randomUUID } from 'node:crypto';
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
import { recordAudit } from '../audit/record.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { selectAccountsByIds } from '../ledger/queries.ts';
import { normalizeDecimal } from './common.ts';
import {
  type Executor,
  selectItems,
  selectInvoicingAccounts,
  selectItemsByIds,
  selectTaxRates,
  selectTaxRatesByIds,
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

export const listTaxRates = async (ctx: AppContext, member: MemberContext) => ({
  taxRates: (await selectTaxRates(ctx.database.db, member.organizationId)).map(toTaxRate),
});

export const createTaxRate = (
  ctx: AppContext,
  { organizationId, userId: actorUserId }: MemberContext,
  input: z.output<typeof taxRateInputSchema>,
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const accountId =
      input.accountId ?? (await findSystemAccount(trx, organizationId, 'sales_tax_payable')).id;
    await checkAccount(trx, organizationId, accountId, {
      types: ['liability'],
      what: 'a liability account for the tax collected',
    });
    const id = randomUUID();
    await trx
      .insertInto('tax_rates')
      .values({
        organization_id: organizationId,
        id,
        name: input.name,
        percent: normalizeDecimal(input.percent),
        account_id: accountId,
        inclusive: input.inclusive,
        compound: input.compound,
      })
      .execute();
    const [row] = await selectTaxRatesByIds(trx, organizationId, [id]);
    const rate = toTaxRate(row!);
    await recordAudit(trx, {
      organizationId,
      actorUserId,
      action: 'tax_rate.created',
      entityType: 'tax_rate',
      entityId: id,
      after: rate,
    });
    return rate;
  });

export const updateTaxRate = (
  ctx: AppContext,
  { organizationId, userId: actorUserId }: MemberContext,
  { taxRateId: id, ...input }: z.output<typeof taxRateUpdateSchema> & { taxRateId: string },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const [row] = await selectTaxRatesByIds(trx, organizationId, [id]);
    if (!row) throw notFound('Tax rate not found.');
    await trx
      .updateTable('tax_rates')
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.archived !== undefined ? { archived_at: input.archived ? new Date() : null } : {}),
      })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    const [after] = await selectTaxRatesByIds(trx, organizationId, [id]);
    const rate = toTaxRate(after!);
    await recordAudit(trx, {
      organizationId,
      actorUserId,
      action: 'tax_rate.updated',
      entityType: 'tax_rate',
      entityId: id,
      before: toTaxRate(row),
      after: rate,
    });
    return rate;
  });

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

const checkTaxRate = async (db: Executor, organizationId: string, taxRateId: string) => {
  const [rate] = await selectTaxRatesByIds(db, organizationId, [taxRateId]);
  if (!rate) throw badRequest('tax_rate_not_found', 'The tax rate does not exist in this company.');
};

export const createItem = (
  ctx: AppContext,
  { organizationId, userId: actorUserId }: MemberContext,
  input: z.output<typeof itemInputSchema>,
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const incomeAccountId =
      input.incomeAccountId ?? (await findSystemAccount(trx, organizationId, 'sales')).id;
    await checkAccount(trx, organizationId, incomeAccountId, {
      types: ['income'],
      what: 'an income account',
    });
    if (input.taxRateId) await checkTaxRate(trx, organizationId, input.taxRateId);
    const id = randomUUID();
    await trx
      .insertInto('items')
      .values({
        organization_id: organizationId,
        id,
        name: input.name,
        description: input.description,
        unit_price: input.unitPrice,
        income_account_id: incomeAccountId,
        tax_rate_id: input.taxRateId ?? null,
      })
      .execute();
    const [row] = await selectItemsByIds(trx, organizationId, [id]);
    const item = toItem(row!);
    await recordAudit(trx, {
      organizationId,
      actorUserId,
      action: 'item.created',
      entityType: 'item',
      entityId: id,
      after: item,
    });
    return item;
  });

export const updateItem = (
  ctx: AppContext,
  { organizationId, userId: actorUserId }: MemberContext,
  { itemId: id, ...input }: z.output<typeof itemUpdateSchema> & { itemId: string },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const [row] = await selectItemsByIds(trx, organizationId, [id]);
    if (!row) throw notFound('Item not found.');
    if (input.incomeAccountId) {
      await checkAccount(trx, organizationId, input.incomeAccountId, {
        types: ['income'],
        what: 'an income account',
      });
    }
    if (input.taxRateId) await checkTaxRate(trx, organizationId, input.taxRateId);
    await trx
      .updateTable('items')
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.unitPrice !== undefined ? { unit_price: input.unitPrice } : {}),
        ...(input.incomeAccountId ? { income_account_id: input.incomeAccountId } : {}),
        ...(input.taxRateId !== undefined ? { tax_rate_id: input.taxRateId } : {}),
        ...(input.archived !== undefined ? { archived_at: input.archived ? new Date() : null } : {}),
        updated_at: new Date(),
      })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    const [after] = await selectItemsByIds(trx, organizationId, [id]);
    const item = toItem(after!);
    await recordAudit(trx, {
      organizationId,
      actorUserId,
      action: 'item.updated',
      entityType: 'item',
      entityId: id,
      before: toItem(row),
      after: item,
    });
    return item;
  });

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import {
  ACCOUNT_SUBTYPES,
  ACCOUNT_TYPES,
  type Account,
  type AccountCreate,
  type AccountTypeName,
  type AccountUpdate,
  LIABILITY_MONEY_SUBTYPES,
  MONEY_SUBTYPES,
} from '../../../shared/ledger.ts';
import { isCurrencyCode } from '../../../shared/money.ts';
import type { AuditAction } from '../audit/actions.ts';
import { recordAudit } from '../audit/record.ts';
import { inTransaction } from '../../db/transaction.ts';
import {
  type Executor,
  accountHasPostings,
  selectAccount,
  selectAccounts,
  selectSettings,
} from './queries.ts';
import { STANDARD_CHART, type SystemKey } from './standard-chart.ts';

// The chart of accounts: setting it up, adding, changing and deleting accounts. Importing a
// chart from CSV is chart-import.ts; the ledger settings are ledger-settings.ts (re-exported
// here for the callers that import them with the chart).

export { getLedgerSettings, updateLedgerSettings } from './ledger-settings.ts';

export type InitializeLedgerInput = {
  organizationId: string;
  baseCurrency: string;
  fiscalYearStartMonth: number;
  actorUserId: string | null;
};

/** Sets a new company up: the standard chart and its ledger settings. Runs in the caller's transaction. */
export const initializeLedger = async (trx: Executor, input: InitializeLedgerInput) => {
  await trx.insertInto('ledger_settings').values({ organization_id: input.organizationId }).execute();
  await trx
    .insertInto('accounts')
    .values(
      STANDARD_CHART.map((a) => ({
        organization_id: input.organizationId,
        id: randomUUID(),
        code: a.code,
        name: a.name,
        type: a.type,
        subtype: a.subtype,
        parent_id: null,
        currency: input.baseCurrency,
        description: a.description ?? '',
        system_key: a.systemKey,
      })),
    )
    .execute();
  await recordAudit(trx, {
    organizationId: input.organizationId,
    actorUserId: input.actorUserId,
    action: 'ledger.initialized',
    entityType: 'ledger_settings',
    entityId: input.organizationId,
    after: { accounts: STANDARD_CHART.length, lockDate: null, approvalRequired: false },
  });
};

type AccountRow = NonNullable<Awaited<ReturnType<typeof selectAccount>>>;

/** Runs `change` in a transaction on one of the company's accounts (404 when there is none). */
const withAccount = <T>(
  db: Executor,
  organizationId: string,
  accountId: string,
  options: { forUpdate?: boolean },
  change: (trx: Executor, row: AccountRow) => Promise<T>,
) =>
  inTransaction(db, async (trx) => {
    const row = await selectAccount(trx, organizationId, accountId, options);
    if (!row) throw notFound('Account not found.');
    return change(trx, row);
  });

/** The audit row of a change to one account (recordAudit with the account as the entity). */
const auditAccount = (
  trx: Executor,
  organizationId: string,
  actorUserId: string | null,
  action: AuditAction,
  accountId: string,
  change: { before?: unknown; after?: unknown },
) =>
  recordAudit(trx, {
    organizationId,
    actorUserId,
    action,
    entityType: 'account',
    entityId: accountId,
    ...change,
  });

export const toAccount = (row: AccountRow & { has_postings?: boolean }): Account => ({
  id: row.id,
  code: row.code,
  name: row.name,
  type: row.type,
  subtype: row.subtype,
  parentId: row.parent_id,
  currency: row.currency.trim(),
  description: row.description,
  systemKey: row.system_key,
  archived: row.archived_at !== null,
  ...(row.has_postings !== undefined ? { hasPostings: row.has_postings } : {}),
});

export const listAccounts = async (db: Executor, organizationId: string) =>
  (await selectAccounts(db, organizationId)).map(toAccount);

/** The account another module posts to, by its stable system key (e.g. 'accounts_receivable'). */
export const findSystemAccount = async (db: Executor, organizationId: string, key: SystemKey | string) => {
  const row = await db
    .selectFrom('accounts')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('system_key', '=', key)
    .executeTakeFirst();
  if (!row) throw notFound(`This company has no ${key.replace(/_/g, ' ')} account.`);
  return toAccount(row);
};

/**
 * Bank, cash, cash-equivalent and credit-card accounts are money accounts: each is one ledger
 * account with its wallet details, created, archived and deleted with them in the Wallet
 * (decision 0022). The chart refuses to make, unmake or remove one on its own; the wallet
 * passes { moneyAccount: true }.
 */
export type ChartChangeOptions = { moneyAccount?: boolean };

export const isMoneySubtype = (type: string, subtype: string) =>
  (type === 'asset' || type === 'liability') &&
  MONEY_SUBTYPES.includes(subtype) &&
  (LIABILITY_MONEY_SUBTYPES.includes(subtype) ? type === 'liability' : type === 'asset');

const moneyAccountRefusal = (what: string) =>
  conflict(
    'money_account_in_wallet',
    `${what} Bank, cash, payment-processor, credit-card and loan accounts are money accounts: add, archive or delete them in the Wallet, which keeps the ledger account with them.`,
  );

const checkSubtype = (type: AccountTypeName, subtype: string) => {
  if (!ACCOUNT_SUBTYPES[type].includes(subtype)) {
    throw badRequest(
      'invalid_subtype',
      `"${subtype}" is not a subtype of ${type} accounts. Choose one of: ${ACCOUNT_SUBTYPES[type].join(', ')}.`,
    );
  }
};

const checkParent = async (
  db: Executor,
  organizationId: string,
  parentId: string,
  type: AccountTypeName,
  selfId?: string,
) => {
  const parent = await selectAccount(db, organizationId, parentId);
  if (!parent) throw badRequest('parent_not_found', 'The parent account does not exist in this company.');
  if (parent.type !== type)
    throw badRequest('parent_type_mismatch', `A ${type} account can only sit under another ${type} account.`);
  // Walk up so an account never becomes its own ancestor.
  let cursor: AccountRow | undefined = parent;
  for (let depth = 0; cursor && depth < 50; depth += 1) {
    if (cursor.id === selfId)
      throw badRequest('parent_cycle', 'An account cannot be placed under itself or its own sub-account.');
    cursor = cursor.parent_id ? await selectAccount(db, organizationId, cursor.parent_id) : undefined;
  }
};

const codeTaken = (code: string) =>
  conflict(
    'account_code_taken',
    `Account code ${code} is already used in this company. Choose another code.`,
  );

const isUniqueViolation = (error: unknown) =>
  typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';

/** Names are unique per company ignoring letter case (index accounts_name_ci, decision 0018). */
const nameTaken = (name: string, other?: { code: string; name: string }) =>
  conflict(
    'account_name_taken',
    other
      ? `An account named "${other.name}" (code ${other.code}) already exists in this company; account names must differ by more than letter case. Choose another name.`
      : `An account named "${name}" already exists in this company; account names must differ by more than letter case. Choose another name.`,
  );

const isNameViolation = (error: unknown) =>
  isUniqueViolation(error) &&
  /accounts_name_ci/.test(
    String((error as { constraint?: string; message?: string }).constraint ?? (error as Error).message),
  );

const accountNamed = (db: Executor, organizationId: string, name: string, exceptId?: string) => {
  let q = db
    .selectFrom('accounts')
    .select(['id', 'code', 'name'])
    .where('organization_id', '=', organizationId)
    .where(sql<boolean>`lower(name) = lower(${name})`);
  if (exceptId) q = q.where('id', '<>', exceptId);
  return q.executeTakeFirst();
};

export const createAccount = (
  db: Executor,
  organizationId: string,
  actorUserId: string | null,
  input: AccountCreate,
  options: ChartChangeOptions = {},
) =>
  inTransaction(db, async (trx) => {
    if (!ACCOUNT_TYPES.includes(input.type)) throw badRequest('invalid_type', 'Choose an account type.');
    checkSubtype(input.type, input.subtype);
    if (!options.moneyAccount && isMoneySubtype(input.type, input.subtype))
      throw moneyAccountRefusal('This account was not created.');
    const settings = await selectSettings(trx, organizationId);
    if (!settings) throw notFound('Company not found.');
    const currency = input.currency ?? settings.base_currency.trim();
    if (!isCurrencyCode(currency))
      throw badRequest('invalid_currency', `"${currency}" is not a currency code.`);
    if (input.parentId) await checkParent(trx, organizationId, input.parentId, input.type);
    const existing = await trx
      .selectFrom('accounts')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('code', '=', input.code.trim())
      .executeTakeFirst();
    if (existing) throw codeTaken(input.code.trim());
    const sameName = await accountNamed(trx, organizationId, input.name.trim());
    if (sameName) throw nameTaken(input.name.trim(), sameName);
    const row = await trx
      .insertInto('accounts')
      .values({
        organization_id: organizationId,
        id: randomUUID(),
        code: input.code.trim(),
        name: input.name.trim(),
        type: input.type,
        subtype: input.subtype,
        parent_id: input.parentId ?? null,
        currency,
        description: input.description?.trim() ?? '',
        system_key: null,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
      .catch((error) => {
        if (isNameViolation(error)) throw nameTaken(input.name.trim());
        if (isUniqueViolation(error)) throw codeTaken(input.code.trim());
        throw error;
      });
    const account = toAccount(row);
    await auditAccount(trx, organizationId, actorUserId, 'account.created', account.id, { after: account });
    return account;
  });

export const updateAccount = (
  db: Executor,
  organizationId: string,
  accountId: string,
  actorUserId: string | null,
  input: AccountUpdate,
  options: ChartChangeOptions = {},
) =>
  withAccount(db, organizationId, accountId, { forUpdate: true }, async (trx, row) => {
    const before = toAccount(row);
    if (input.subtype !== undefined) checkSubtype(row.type, input.subtype);
    if (!options.moneyAccount) {
      const wasMoney = isMoneySubtype(row.type, row.subtype);
      if (input.subtype !== undefined && wasMoney !== isMoneySubtype(row.type, input.subtype))
        throw moneyAccountRefusal(`${row.code} ${row.name} keeps its subtype.`);
      if (wasMoney && input.archived !== undefined && input.archived !== (row.archived_at !== null))
        throw moneyAccountRefusal(
          `${row.code} ${row.name} was not ${input.archived ? 'archived' : 'unarchived'} here.`,
        );
    }
    if (input.parentId) await checkParent(trx, organizationId, input.parentId, row.type, row.id);
    if (input.code !== undefined && input.code.trim() !== row.code) {
      const existing = await trx
        .selectFrom('accounts')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('code', '=', input.code.trim())
        .executeTakeFirst();
      if (existing) throw codeTaken(input.code.trim());
    }
    if (input.name !== undefined && input.name.trim() !== row.name) {
      const sameName = await accountNamed(trx, organizationId, input.name.trim(), row.id);
      if (sameName) throw nameTaken(input.name.trim(), sameName);
    }
    if (
      input.archived === true &&
      row.system_key &&
      ['retained_earnings', 'opening_balance_equity'].includes(row.system_key)
    ) {
      throw conflict(
        'account_required',
        `${row.name} is needed by the ledger itself and cannot be archived.`,
      );
    }
    const updated = await trx
      .updateTable('accounts')
      .set({
        ...(input.code !== undefined ? { code: input.code.trim() } : {}),
        ...(input.name !== undefined ? { name: input.name.trim() } : {}),
        ...(input.subtype !== undefined ? { subtype: input.subtype } : {}),
        ...(input.parentId !== undefined ? { parent_id: input.parentId } : {}),
        ...(input.description !== undefined ? { description: input.description.trim() } : {}),
        ...(input.archived !== undefined
          ? { archived_at: input.archived ? (row.archived_at ?? new Date()) : null }
          : {}),
        updated_at: new Date(),
      })
      .where('organization_id', '=', organizationId)
      .where('id', '=', accountId)
      .returningAll()
      .executeTakeFirstOrThrow()
      .catch((error) => {
        if (isNameViolation(error)) throw nameTaken(input.name?.trim() ?? row.name);
        if (isUniqueViolation(error)) throw codeTaken(input.code?.trim() ?? row.code);
        throw error;
      });
    const account = toAccount(updated);
    const action =
      input.archived === true && !before.archived
        ? 'account.archived'
        : input.archived === false && before.archived
          ? 'account.unarchived'
          : 'account.updated';
    await auditAccount(trx, organizationId, actorUserId, action, accountId, { before, after: account });
    return account;
  });

/** Deletes an account that never took a posting; one with postings can only be archived. */
export const deleteAccount = (
  db: Executor,
  organizationId: string,
  accountId: string,
  actorUserId: string | null,
  options: ChartChangeOptions = {},
) =>
  withAccount(db, organizationId, accountId, {}, async (trx, row) => {
    if (!options.moneyAccount && isMoneySubtype(row.type, row.subtype))
      throw moneyAccountRefusal(`${row.code} ${row.name} was not deleted.`);
    if (row.system_key) {
      throw conflict(
        'account_required',
        `${row.name} is used by invoices, payments or the ledger itself; archive it instead.`,
      );
    }
    if (await accountHasPostings(trx, organizationId, accountId)) {
      throw conflict(
        'account_has_postings',
        `${row.code} ${row.name} has postings and cannot be deleted; archive it instead.`,
      );
    }
    const child = await trx
      .selectFrom('accounts')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('parent_id', '=', accountId)
      .executeTakeFirst();
    if (child) throw conflict('account_has_children', 'Move or delete its sub-accounts first.');
    await trx
      .deleteFrom('accounts')
      .where('organization_id', '=', organizationId)
      .where('id', '=', accountId)
      .execute();
    await auditAccount(trx, organizationId, actorUserId, 'account.deleted', accountId, {
      before: toAccount(row),
    });
  });

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { parse } from 'csv-parse/sync';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import {
  ACCOUNT_SUBTYPES,
  ACCOUNT_TYPES,
  type Account,
  type AccountCreate,
  type AccountTypeName,
  type AccountUpdate,
  type LedgerSettings,
  LIABILITY_MONEY_SUBTYPES,
  MONEY_SUBTYPES,
  DEFAULT_SUBTYPE,
} from '../../../shared/ledger.ts';
import { isCurrencyCode } from '../../../shared/money.ts';
import { recordAudit } from '../audit/record.ts';
import { isIsoDate } from './dates.ts';
import { inTransaction } from '../../db/transaction.ts';
import {
  type Executor,
  accountHasPostings,
  selectAccount,
  selectAccounts,
  selectSettings,
} from './queries.ts';
import { STANDARD_CHART, type SystemKey } from './standard-chart.ts';

// The chart of accounts and the company's ledger settings.

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

const isMoneySubtype = (type: string, subtype: string) =>
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
    await recordAudit(trx, {
      organizationId,
      actorUserId,
      action: 'account.created',
      entityType: 'account',
      entityId: account.id,
      after: account,
    });
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
  inTransaction(db, async (trx) => {
    const row = await selectAccount(trx, organizationId, accountId, { forUpdate: true });
    if (!row) throw notFound('Account not found.');
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
    await recordAudit(trx, {
      organizationId,
      actorUserId,
      action,
      entityType: 'account',
      entityId: accountId,
      before,
      after: account,
    });
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
  inTransaction(db, async (trx) => {
    const row = await selectAccount(trx, organizationId, accountId);
    if (!row) throw notFound('Account not found.');
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
    await recordAudit(trx, {
      organizationId,
      actorUserId,
      action: 'account.deleted',
      entityType: 'account',
      entityId: accountId,
      before: toAccount(row),
    });
  });

// --- CSV import ------------------------------------------------------------------------

/** Splits CSV text into rows (RFC 4180: quoted fields, doubled quotes, CRLF). */
export const parseCsv = (text: string): string[][] => {
  // csv-parse is the app's one CSV reader (decision record 0017): RFC 4180 quoting, BOM,
  // any line end. Broken quoting is refused with its line rather than read some other way.
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
  } catch (error) {
    const e = error as { code?: unknown; lines?: unknown };
    if (typeof e.code !== 'string') throw error;
    throw badRequest(
      'csv_invalid',
      `The chart was not imported: line ${String(e.lines)} has a quote (") that does not open or close a field. Nothing was changed.`,
    );
  }
  return rows.filter((r) => r.some((f) => f.trim() !== ''));
};

/**
 * Imports accounts from CSV with a header row: code, name, type, and optionally subtype,
 * parent_code, currency, description. Existing codes are renamed/updated; new ones added.
 * All rows are checked before anything is written; any error writes nothing.
 */
export const importChartCsv = (
  db: Executor,
  organizationId: string,
  actorUserId: string | null,
  csv: string,
) =>
  inTransaction(db, async (trx) => {
    const rows = parseCsv(csv);
    if (rows.length < 2)
      throw badRequest(
        'csv_empty',
        'The file has no accounts. Put a header row first, then one account per row.',
      );
    const header = rows[0]!.map((h) => h.trim().toLowerCase().replace(/\s+/g, '_'));
    const col = (name: string) => header.indexOf(name);
    for (const required of ['code', 'name', 'type']) {
      if (col(required) < 0)
        throw badRequest('csv_missing_column', `The header row needs a "${required}" column.`);
    }
    const settings = await selectSettings(trx, organizationId);
    if (!settings) throw notFound('Company not found.');
    const existing = new Map((await selectAccounts(trx, organizationId)).map((a) => [a.code, a]));
    const errors: string[] = [];
    const parsed = rows.slice(1).map((r, i) => {
      const get = (name: string) => (col(name) >= 0 ? (r[col(name)] ?? '').trim() : '');
      const line = i + 2;
      const type = get('type').toLowerCase() as AccountTypeName;
      const subtype = get('subtype').toLowerCase().replace(/\s+/g, '_') || DEFAULT_SUBTYPE[type];
      const currency = get('currency').toUpperCase() || settings.base_currency.trim();
      if (!get('code') || get('code').length > 20)
        errors.push(`Row ${line}: the code must be 1 to 20 characters.`);
      if (!get('name') || get('name').length > 120)
        errors.push(`Row ${line}: the name must be 1 to 120 characters.`);
      if (!ACCOUNT_TYPES.includes(type))
        errors.push(`Row ${line}: type must be one of ${ACCOUNT_TYPES.join(', ')}.`);
      else if (!ACCOUNT_SUBTYPES[type].includes(subtype))
        errors.push(`Row ${line}: "${subtype}" is not a ${type} subtype.`);
      if (!isCurrencyCode(currency)) errors.push(`Row ${line}: "${currency}" is not a currency code.`);
      const prior = existing.get(get('code'));
      if (prior && prior.type !== type)
        errors.push(`Row ${line}: account ${get('code')} exists as ${prior.type}; its type cannot change.`);
      else if (
        prior
          ? isMoneySubtype(prior.type, prior.subtype) !== isMoneySubtype(type, subtype)
          : isMoneySubtype(type, subtype)
      )
        errors.push(
          `Row ${line}: bank, cash, payment-processor and credit-card accounts are money accounts; add them in the Wallet, and keep the subtype of existing ones.`,
        );
      return {
        code: get('code'),
        name: get('name'),
        type,
        subtype,
        currency,
        parentCode: get('parent_code'),
        description: get('description'),
      };
    });
    const codes = new Set<string>();
    for (const p of parsed) {
      if (codes.has(p.code)) errors.push(`Code ${p.code} appears twice in the file.`);
      codes.add(p.code);
    }
    // Names are unique ignoring case: against the file's other rows and the accounts it leaves as they are.
    const names = new Map<string, string>();
    for (const a of existing.values())
      if (!codes.has(a.code)) names.set(a.name.toLowerCase(), `account ${a.code}`);
    parsed.forEach((p, i) => {
      const key = p.name.toLowerCase();
      const holder = names.get(key);
      if (holder)
        errors.push(
          `Row ${i + 2}: the name "${p.name}" is already used by ${holder} (names must differ by more than letter case).`,
        );
      else names.set(key, `row ${i + 2}`);
    });
    for (const p of parsed) {
      if (p.parentCode && !codes.has(p.parentCode) && !existing.has(p.parentCode)) {
        errors.push(`Account ${p.code}: parent code ${p.parentCode} is not in the file or the chart.`);
      }
    }
    if (errors.length > 0)
      throw badRequest('csv_invalid', `The chart was not imported: ${errors.slice(0, 10).join(' ')}`, {
        errors,
      });
    let created = 0;
    let updated = 0;
    const idByCode = new Map([...existing.values()].map((a) => [a.code, a.id]));
    // Renames may swap names between accounts; park the renamed ones under their ids first so
    // the unique name index never sees two accounts with one name in between.
    const renamed = parsed
      .map((p) => existing.get(p.code))
      .filter((a, i) => a && a.name.toLowerCase() !== parsed[i]!.name.toLowerCase())
      .map((a) => a!.id);
    if (renamed.length > 0)
      await trx
        .updateTable('accounts')
        .set({ name: sql<string>`'renaming ' || id` })
        .where('organization_id', '=', organizationId)
        .where('id', 'in', renamed)
        .execute();
    for (const p of parsed) {
      const prior = existing.get(p.code);
      if (prior) {
        await trx
          .updateTable('accounts')
          .set({
            name: p.name,
            subtype: p.subtype,
            description: p.description || prior.description,
            updated_at: new Date(),
          })
          .where('organization_id', '=', organizationId)
          .where('id', '=', prior.id)
          .execute();
        updated += 1;
      } else {
        const id = randomUUID();
        idByCode.set(p.code, id);
        await trx
          .insertInto('accounts')
          .values({
            organization_id: organizationId,
            id,
            code: p.code,
            name: p.name,
            type: p.type,
            subtype: p.subtype,
            parent_id: null,
            currency: p.currency,
            description: p.description,
            system_key: null,
          })
          .execute();
        created += 1;
      }
    }
    for (const p of parsed) {
      if (!p.parentCode) continue;
      await trx
        .updateTable('accounts')
        .set({ parent_id: idByCode.get(p.parentCode)! })
        .where('organization_id', '=', organizationId)
        .where('code', '=', p.code)
        .execute();
    }
    await recordAudit(trx, {
      organizationId,
      actorUserId,
      action: 'account.imported',
      entityType: 'account',
      entityId: 'chart',
      after: { created, updated },
    });
    return { created, updated };
  });

// --- Settings ------------------------------------------------------------------------

export const getLedgerSettings = async (db: Executor, organizationId: string): Promise<LedgerSettings> => {
  const row = await selectSettings(db, organizationId);
  if (!row) throw notFound('Company not found.');
  return {
    lockDate: row.lock_date,
    approvalRequired: row.approval_required,
    baseCurrency: row.base_currency.trim(),
    fiscalYearStartMonth: row.fiscal_year_start_month,
  };
};

/** Changes the lock date or approval setting; the row lock makes a racing posting wait or see it. */
export const updateLedgerSettings = (
  db: Executor,
  organizationId: string,
  actorUserId: string | null,
  input: { lockDate?: string | null; approvalRequired?: boolean },
) =>
  inTransaction(db, async (trx) => {
    if (input.lockDate !== undefined && input.lockDate !== null && !isIsoDate(input.lockDate)) {
      throw badRequest('invalid_date', 'Use a real calendar date in the form YYYY-MM-DD.');
    }
    const locked = await trx
      .selectFrom('ledger_settings')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .forUpdate()
      .executeTakeFirst();
    if (!locked) throw notFound('Company not found.');
    const before = await getLedgerSettings(trx, organizationId);
    await trx
      .updateTable('ledger_settings')
      .set({
        ...(input.lockDate !== undefined ? { lock_date: input.lockDate } : {}),
        ...(input.approvalRequired !== undefined ? { approval_required: input.approvalRequired } : {}),
        updated_at: new Date(),
      })
      .where('organization_id', '=', organizationId)
      .execute();
    const after = await getLedgerSettings(trx, organizationId);
    if (before.lockDate !== after.lockDate) {
      await recordAudit(trx, {
        organizationId,
        actorUserId,
        action: 'ledger.lock_date_changed',
        entityType: 'ledger_settings',
        entityId: organizationId,
        before: { lockDate: before.lockDate },
        after: { lockDate: after.lockDate },
      });
    }
    if (before.approvalRequired !== after.approvalRequired) {
      await recordAudit(trx, {
        organizationId,
        actorUserId,
        action: 'ledger.settings_changed',
        entityType: 'ledger_settings',
        entityId: organizationId,
        before: { approvalRequired: before.approvalRequired },
        after: { approvalRequired: after.approvalRequired },
      });
    }
    return after;
  });

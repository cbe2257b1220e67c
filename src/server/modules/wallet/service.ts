import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import { isCurrencyCode } from '../../../shared/money.ts';
import {
  type MoneyAccountKind,
  MONEY_ACCOUNT_KIND_LABELS,
  isLiabilityMoneyAccountKind,
  lastFourOf,
  type moneyAccountCreateSchema,
  type moneyAccountUpdateSchema,
} from '../../../shared/wallet.ts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { recordAudit, recordMemberAudit } from '../audit/record.ts';
import { createAccount, deleteAccount, updateAccount } from '../ledger/accounts.ts';
import { accountHasPostings } from '../ledger/queries.ts';
import { changeOpening, postOpeningEntry } from './opening.ts';
import {
  moneyAccountHasActivity,
  selectAccountCodes,
  selectDefaultDepositAccount,
  selectMoneyAccount,
  selectOpenReconciliation,
  setDefaultDepositAccount,
  updateMoneyAccountRow,
} from './queries.ts';
import { getMoneyAccount, getWalletSummary, withExecutor } from './summary.ts';

// Money accounts (bank, cash, credit cards, payment-processor balances). A money account is
// one ledger account of the chart with its wallet details (decision 0022): created, renamed,
// archived and deleted together with it, here. Reading the wallet: summary.ts; opening
// balances: opening.ts; exchange rates: rates.ts. Transfers between money
// accounts live in the transfers module, above this one and transactions.

type CreateInput = z.output<typeof moneyAccountCreateSchema>;
type UpdateInput = z.output<typeof moneyAccountUpdateSchema>;

const LEDGER_PLACE: Record<
  MoneyAccountKind,
  { type: 'asset' | 'liability'; subtype: string; codes: [number, number] }
> = {
  cash: { type: 'asset', subtype: 'cash', codes: [1001, 1009] },
  bank: { type: 'asset', subtype: 'bank', codes: [1011, 1049] },
  payment_processor: { type: 'asset', subtype: 'cash_equivalent', codes: [1060, 1099] },
  credit_card: { type: 'liability', subtype: 'credit_card', codes: [2101, 2199] },
  // A loan owes money like a card: a liability of its own subtype, never cash (shared/cash.ts
  // counts only CASH_SUBTYPES), never a deposit account.
  loan: { type: 'liability', subtype: 'loan', codes: [2701, 2799] },
};

const nextFreeCode = (taken: string[], [from, to]: [number, number]) => {
  const used = new Set(taken);
  for (let code = from; code <= to; code += 1) if (!used.has(String(code))) return String(code);
  // The range is full: fall back to a suffixed code in the same family.
  for (let n = 1; n < 10_000; n += 1) if (!used.has(`${from}-${n}`)) return `${from}-${n}`;
  throw conflict('no_free_code', 'No free account code is left for this kind of account.');
};

export const createMoneyAccount = (ctx: AppContext, member: MemberContext, input: CreateInput) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    if (!isCurrencyCode(input.currency))
      throw badRequest('invalid_currency', `"${input.currency}" is not a currency code.`);
    const place = LEDGER_PLACE[input.kind];
    const code = nextFreeCode(await selectAccountCodes(trx, organizationId), place.codes);
    const ledgerAccount = await createAccount(
      trx,
      organizationId,
      userId,
      {
        code,
        name: input.name,
        type: place.type,
        subtype: place.subtype,
        currency: input.currency,
        description: [
          input.institution,
          lastFourOf(input.accountNumber) ? `•••• ${lastFourOf(input.accountNumber)}` : '',
        ]
          .filter(Boolean)
          .join(' '),
      },
      { moneyAccount: true },
    );
    const id = randomUUID();
    await trx
      .insertInto('money_accounts')
      .values({
        organization_id: organizationId,
        id,
        ledger_account_id: ledgerAccount.id,
        name: input.name,
        kind: input.kind,
        currency: input.currency,
        institution: input.institution,
        account_number_last4: lastFourOf(input.accountNumber),
        opening_balance: input.openingBalance,
        opening_date: input.openingDate,
        created_by: userId,
      })
      .execute();
    const openingEntryId = await postOpeningEntry(
      trx,
      member,
      { id, name: input.name, ledgerAccountId: ledgerAccount.id, currency: input.currency },
      { balance: input.openingBalance, date: input.openingDate, rate: input.openingRate },
    );
    if (openingEntryId)
      await updateMoneyAccountRow(trx, organizationId, id, { opening_entry_id: openingEntryId });
    // A new bank, cash or processor account becomes the deposit account when the company has
    // none, or when the current one is still untouched (the chart's "Business bank account" of
    // a new company, before anything was posted to it): the account a new user adds is the
    // one their money goes into.
    if (!isLiabilityMoneyAccountKind(input.kind)) {
      const current = await selectDefaultDepositAccount(trx, organizationId);
      const untouched =
        current &&
        !(await accountHasPostings(trx, organizationId, current.ledger_account_id)) &&
        !(await moneyAccountHasActivity(trx, organizationId, current.id));
      if (!current || untouched) await setDefaultDepositAccount(trx, organizationId, id);
    }
    const account = await getMoneyAccount(withExecutor(ctx, trx), member, { id });
    await recordMemberAudit(trx, member, 'money_account.created', ['money_account', id], { after: account });
    return account;
  });

export const updateMoneyAccount = (
  ctx: AppContext,
  member: MemberContext,
  input: UpdateInput & { id: string },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    const { id } = input;
    const row = await selectMoneyAccount(trx, organizationId, id, { forUpdate: true });
    if (!row) throw notFound('Money account not found.');
    const before = await getMoneyAccount(withExecutor(ctx, trx), member, { id });
    if (input.archived === true && !row.archived_at) {
      if (before.balance !== 0) {
        throw conflict(
          'account_has_balance',
          `${row.name} still holds a balance. Transfer it to another account first, then archive it.`,
        );
      }
      if (row.is_default_deposit) {
        throw conflict(
          'default_deposit_account',
          `${row.name} is the deposit account. Choose another deposit account in the Wallet first, then archive it.`,
        );
      }
      const open = await selectOpenReconciliation(trx, organizationId, id);
      if (open)
        throw conflict(
          'reconciliation_in_progress',
          'Finish or cancel the reconciliation in progress first.',
        );
    }
    // Unarchive first so a new opening can post to the (again open) ledger account.
    if (input.archived === false && row.archived_at) {
      await updateAccount(
        trx,
        organizationId,
        row.ledger_account_id,
        userId,
        { archived: false },
        { moneyAccount: true },
      );
      await updateMoneyAccountRow(trx, organizationId, id, { archived_at: null });
      row.archived_at = null;
    }
    const openingChanged =
      input.openingBalance !== undefined || input.openingDate !== undefined
        ? await changeOpening(trx, member, row, input)
        : false;
    await updateMoneyAccountRow(trx, organizationId, id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.institution !== undefined ? { institution: input.institution } : {}),
      ...(input.accountNumber !== undefined ? { account_number_last4: lastFourOf(input.accountNumber) } : {}),
      ...(input.archived === true ? { archived_at: row.archived_at ?? new Date() } : {}),
      updated_at: new Date(),
    });
    // The ledger account follows: same name, archived with it (an archived account takes no postings).
    if (input.name !== undefined || input.archived === true) {
      await updateAccount(
        trx,
        organizationId,
        row.ledger_account_id,
        userId,
        {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.archived === true ? { archived: true } : {}),
        },
        { moneyAccount: true },
      );
    }
    const after = await getMoneyAccount(withExecutor(ctx, trx), member, { id });
    if (openingChanged) {
      await recordMemberAudit(trx, member, 'money_account.opening_changed', ['money_account', id], {
        before: { openingBalance: before.openingBalance, openingDate: before.openingDate },
        after: { openingBalance: after.openingBalance, openingDate: after.openingDate },
      });
    }
    await recordAudit(trx, {
      organizationId,
      actorUserId: userId,
      action:
        input.archived === true && !before.archived
          ? 'money_account.archived'
          : input.archived === false && before.archived
            ? 'money_account.unarchived'
            : 'money_account.updated',
      entityType: 'money_account',
      entityId: id,
      before,
      after,
    });
    return after;
  });

/**
 * Deletes a money account and its ledger account, only while it is empty: no bank lines,
 * transfers, reconciliations, imports or postings (an opening balance is a posting). One with
 * activity is archived instead.
 */
export const deleteMoneyAccount = (ctx: AppContext, member: MemberContext, { id }: { id: string }) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    const row = await selectMoneyAccount(trx, organizationId, id, { forUpdate: true });
    if (!row) throw notFound('Money account not found.');
    const before = await getMoneyAccount(withExecutor(ctx, trx), member, { id });
    if (row.opening_entry_id || (await moneyAccountHasActivity(trx, organizationId, id))) {
      throw conflict(
        'account_has_activity',
        `${row.name} has transactions or an opening balance and cannot be deleted; archive it instead.`,
      );
    }
    if (row.is_default_deposit) {
      throw conflict(
        'default_deposit_account',
        `${row.name} is the deposit account. Choose another deposit account in the Wallet first.`,
      );
    }
    await trx
      .deleteFrom('categorization_rules')
      .where('organization_id', '=', organizationId)
      .where('money_account_id', '=', id)
      .execute();
    await trx
      .deleteFrom('money_accounts')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    // The ledger refuses when the account has postings or is one of its system accounts.
    await deleteAccount(trx, organizationId, row.ledger_account_id, userId, { moneyAccount: true });
    await recordMemberAudit(trx, member, 'money_account.deleted', ['money_account', id], { before });
  });

/** Makes a bank, cash or payment-processor account the company's deposit account. */
export const setDepositAccount = (
  ctx: AppContext,
  member: MemberContext,
  { moneyAccountId }: { moneyAccountId: string },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId } = member;
    const row = await selectMoneyAccount(trx, organizationId, moneyAccountId, { forUpdate: true });
    if (!row)
      throw badRequest('money_account_not_found', 'That money account does not exist in this company.');
    if (row.archived_at)
      throw badRequest('account_archived', `${row.name} is archived; choose an open account.`);
    if (isLiabilityMoneyAccountKind(row.kind))
      throw badRequest(
        'invalid_deposit_account',
        `${row.name} is a ${MONEY_ACCOUNT_KIND_LABELS[row.kind].toLowerCase()}; choose a bank, cash or processor account.`,
      );
    const before = await getWalletSummary(withExecutor(ctx, trx), member);
    await setDefaultDepositAccount(trx, organizationId, moneyAccountId);
    await recordMemberAudit(
      trx,
      member,
      'money_account.deposit_default_set',
      ['money_account', moneyAccountId],
      {
        before: { defaultDepositAccountId: before.defaultDepositAccountId },
        after: { defaultDepositAccountId: moneyAccountId },
      },
    );
    return getWalletSummary(withExecutor(ctx, trx), member);
  });

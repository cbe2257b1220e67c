import { sql } from 'kysely';
import { addDays } from '../../../shared/dates.ts';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import { type FeedAccountMapping, feedAccountKinds, newAccountKind } from '../../../shared/bank-feeds.ts';
import { MONEY_ACCOUNT_KIND_LABELS } from '../../../shared/wallet.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/transaction.ts';
import type { BankFeedAccountsTable } from '../../db/types.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { recordMemberAudit } from '../audit/record.ts';
import { createMoneyAccount } from '../wallet/service.ts';
import { withExecutor } from '../wallet/summary.ts';
import { selectMoneyAccount } from '../wallet/queries.ts';
import { placeWaitingLines } from './apply.ts';
import { loadConnection } from './queries.ts';

// Mapping a bank's account to a money account (issue 18 §1): an existing one of this company
// (another company's id is not found: 404), kept in the same currency and of a fitting kind
// (a card feeds a credit-card account, a checking account a bank account), or a new one made
// for it. Lines that waited for the mapping are placed at once.

type FeedAccountRow = {
  [K in keyof BankFeedAccountsTable]: BankFeedAccountsTable[K] extends { __select__: infer S }
    ? S
    : BankFeedAccountsTable[K];
};

/** The bank's balance in Kontor's sign: a card or loan the company owes on is negative. */
const kontorBalance = (account: { type: string; current_balance: number | null }) =>
  account.current_balance === null
    ? null
    : account.type === 'credit' || account.type === 'loan'
      ? -Number(account.current_balance)
      : Number(account.current_balance);

export const mapFeedAccount = async (
  ctx: AppContext,
  trx: Executor,
  member: MemberContext,
  account: FeedAccountRow,
  input: FeedAccountMapping,
) => {
  const organizationId = member.organizationId;
  const used = await trx
    .selectFrom('bank_feed_transactions')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organization_id', '=', organizationId)
    .where('connection_id', '=', account.connection_id)
    .where('provider_account_id', '=', account.provider_account_id)
    .where('state', 'in', ['posted', 'linked'])
    .executeTakeFirstOrThrow();
  let moneyAccountId: string | null = null;
  if (input.target === 'existing') {
    const money = await selectMoneyAccount(trx, organizationId, input.moneyAccountId, { forUpdate: true });
    if (!money) throw notFound('Money account not found.');
    if (money.archived_at)
      throw conflict('account_archived', `${money.name} is archived; unarchive it first.`);
    if (!account.currency)
      throw badRequest(
        'currency_unknown',
        `The bank does not say which currency ${account.name} is kept in.`,
      );
    if (money.currency.trim() !== account.currency)
      throw badRequest(
        'currency_mismatch',
        `${account.name} is kept in ${account.currency} but ${money.name} in ${money.currency.trim()}; choose a ${account.currency} account or make a new one.`,
      );
    const kinds = feedAccountKinds(account.type);
    if (!kinds.includes(money.kind))
      throw badRequest(
        'account_kind_mismatch',
        `${account.name} is a ${account.subtype ?? account.type} account; it feeds a ${kinds.map((k) => MONEY_ACCOUNT_KIND_LABELS[k].toLowerCase()).join(' or ')}, not a ${MONEY_ACCOUNT_KIND_LABELS[money.kind].toLowerCase()}.`,
      );
    const fed = await trx
      .selectFrom('bank_feed_accounts')
      .select(['id', 'name'])
      .where('organization_id', '=', organizationId)
      .where('money_account_id', '=', money.id)
      .where('id', '<>', account.id)
      .executeTakeFirst();
    if (fed) throw conflict('already_fed', `${money.name} is already fed by the bank account ${fed.name}.`);
    moneyAccountId = money.id;
  } else if (input.target === 'new') {
    const kind = newAccountKind(account.type);
    if (!kind || !account.currency)
      throw badRequest('unsupported_account_type', `Kontor cannot keep ${account.name} as a money account.`);
    const waiting = await trx
      .selectFrom('bank_feed_transactions')
      .select([
        sql<string | null>`min(date)::text`.as('first'),
        sql<string>`coalesce(sum(amount), 0)::text`.as('sum'),
      ])
      .where('organization_id', '=', organizationId)
      .where('connection_id', '=', account.connection_id)
      .where('provider_account_id', '=', account.provider_account_id)
      .where('state', '=', 'waiting')
      .executeTakeFirstOrThrow();
    const today = ctx.now().toISOString().slice(0, 10);
    const balance = kontorBalance(account);
    // The account opens on its first line (or 24 months back when none has come yet), with the
    // balance that, with every line the bank reported, gives the bank's balance today.
    const openingDate = waiting.first ?? addDays(today, -730);
    const openingBalance = balance === null || !waiting.first ? 0 : balance - Number(waiting.sum);
    const created = await createMoneyAccount(withExecutor(ctx, trx), member, {
      name: input.name ?? account.name.slice(0, 120),
      kind,
      currency: account.currency,
      institution: '',
      ...(account.mask && /^[0-9A-Za-z]+$/.test(account.mask) && { accountNumber: account.mask }),
      openingBalance,
      openingDate,
    });
    moneyAccountId = created.id;
  }
  if (account.money_account_id && account.money_account_id !== moneyAccountId && used.n > 0)
    throw conflict(
      'mapping_in_use',
      `Lines of ${account.name} are already in ${moneyAccountId ? 'another account' : 'a money account'}; they stay there. Disconnect and connect again to start over.`,
    );
  await trx
    .updateTable('bank_feed_accounts')
    .set({ money_account_id: moneyAccountId, updated_at: ctx.now() })
    .where('organization_id', '=', organizationId)
    .where('id', '=', account.id)
    .execute();
  await recordMemberAudit(trx, member, 'bank_feed.account_mapped', ['bank_feed_account', account.id], {
    before: { moneyAccountId: account.money_account_id },
    after: { moneyAccountId },
  });
  if (moneyAccountId) {
    const connection = await loadConnection(trx, organizationId, account.connection_id);
    await placeWaitingLines(ctx, trx, connection, account.provider_account_id);
  }
};

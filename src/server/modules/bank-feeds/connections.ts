import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import {
  type BankConnection,
  type BankFeeds,
  type ExchangeInput,
  type FeedAccountMapping,
  type LinkStart,
  type LinkTokenInput,
  type SyncQueued,
  feedAccountKinds,
} from '../../../shared/bank-feeds.ts';
import type { AppContext } from '../../context.ts';
import { type Executor, inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { recordAudit, recordMemberAudit } from '../audit/record.ts';
import { notifyBankFeedError } from '../notifications/events.ts';
import { emitWebhookEvent } from '../webhooks/emit.ts';
import { queueSync } from './jobs.ts';
import { mapFeedAccount } from './mapping.ts';
import { type BankFeedProvider, FeedItemError } from './provider.ts';
import { bankFeedProvider } from './providers.ts';
import { loadConnection } from './queries.ts';
import { tokenCipherOf } from './token-cipher.ts';
import { connectionView, listConnections } from './view.ts';

// Bank connections (issue 18): link (a link token, then the public token exchanged once for
// an access token kept encrypted), map each of the bank's accounts to a money account, sync
// now, reconnect after an item error, disconnect. Admins act (manage_settings), members see.
// The webhook route (plaid-webhook-route.ts) calls the *ByItem functions at the bottom.

type Ctx = Pick<AppContext, 'config' | 'database' | 'now'>;

/** A provider's failure as a clear 4xx: the user's bank needs them, or the provider is unreachable. */
export const providerRefusal = (error: unknown) => {
  if (error instanceof FeedItemError)
    return conflict('bank_feed_item_error', `The bank connection needs attention: ${error.message}`, {
      code: error.code,
    });
  if (error instanceof Error && 'status' in error) return error;
  return conflict(
    'bank_feed_unavailable',
    'The bank feed provider could not be reached. Nothing was changed; try again in a few minutes.',
  );
};

const callProvider = async <T>(run: () => Promise<T>): Promise<T> => {
  try {
    return await run();
  } catch (error) {
    throw providerRefusal(error);
  }
};

export const accessTokenOf = (
  ctx: Ctx,
  row: { access_token_ciphertext: string; access_token_key_id: string },
) =>
  tokenCipherOf(ctx.config).open({ ciphertext: row.access_token_ciphertext, keyId: row.access_token_key_id });

export const listBankFeeds = async (ctx: AppContext, member: MemberContext): Promise<BankFeeds> => ({
  provider: bankFeedProvider(ctx).name,
  connections: await listConnections(ctx.database.db, member.organizationId),
});

export const createLinkToken = async (
  ctx: AppContext,
  member: MemberContext,
  input: LinkTokenInput,
  provider: BankFeedProvider = bankFeedProvider(ctx),
): Promise<LinkStart> => {
  const db = ctx.database.db;
  const connection = input.connectionId
    ? await loadConnection(db, member.organizationId, input.connectionId)
    : null;
  if (connection && connection.provider !== provider.name)
    throw conflict(
      'provider_changed',
      'This connection was made with another provider; disconnect it and connect again.',
    );
  const company = await db
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', member.organizationId)
    .executeTakeFirstOrThrow();
  const publicUrl = ctx.config.publicUrl;
  return callProvider(() =>
    provider.createLinkToken({
      clientUserId: member.userId,
      companyName: company.name,
      ...(connection && { accessToken: accessTokenOf(ctx, connection) }),
      ...(publicUrl.startsWith('https://') && { webhookUrl: `${publicUrl}/api/plaid/webhook` }),
    }),
  );
};

export const exchangePublicToken = async (
  ctx: AppContext,
  member: MemberContext,
  input: ExchangeInput,
  provider: BankFeedProvider = bankFeedProvider(ctx),
): Promise<BankConnection> => {
  // The provider's calls come first, outside the transaction; nothing is stored if they fail.
  const item = await callProvider(() => provider.exchangePublicToken(input.publicToken));
  const accounts = await callProvider(() => provider.listAccounts(item.accessToken));
  const sealed = tokenCipherOf(ctx.config).seal(item.accessToken);
  const id = randomUUID();
  return inTransaction(ctx.database.db, async (trx) => {
    const taken = await trx
      .selectFrom('bank_feed_connections')
      .select('id')
      .where('provider', '=', provider.name)
      .where('item_id', '=', item.itemId)
      .executeTakeFirst();
    if (taken) throw conflict('already_connected', 'This bank login is already connected.');
    await trx
      .insertInto('bank_feed_connections')
      .values({
        organization_id: member.organizationId,
        id,
        provider: provider.name,
        item_id: item.itemId,
        access_token_ciphertext: sealed.ciphertext,
        access_token_key_id: sealed.keyId,
        institution_name: item.institutionName,
        created_by: member.userId,
      })
      .execute();
    if (accounts.length > 0)
      await trx
        .insertInto('bank_feed_accounts')
        .values(
          accounts.map((a) => ({
            organization_id: member.organizationId,
            id: randomUUID(),
            connection_id: id,
            provider_account_id: a.id,
            name: a.name.slice(0, 200),
            mask: a.mask,
            type: a.type,
            subtype: a.subtype,
            currency: a.currency,
            current_balance: a.currentBalance,
          })),
        )
        .execute();
    // The first sync starts at once; lines of accounts not yet mapped wait in the feed.
    await queueSync(
      trx,
      { organizationId: member.organizationId, connectionId: id, reason: 'linked' },
      ctx.now(),
    );
    const view = await connectionView(trx, member.organizationId, id);
    await recordMemberAudit(trx, member, 'bank_feed.connected', ['bank_feed_connection', id], {
      after: { institution: item.institutionName, provider: provider.name, accounts: accounts.length },
    });
    return view;
  });
};

export const setAccountMapping = (
  ctx: AppContext,
  member: MemberContext,
  input: FeedAccountMapping & { connectionId: string; feedAccountId: string },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    await loadConnection(trx, member.organizationId, input.connectionId, { forUpdate: true });
    const account = await trx
      .selectFrom('bank_feed_accounts')
      .selectAll()
      .where('organization_id', '=', member.organizationId)
      .where('connection_id', '=', input.connectionId)
      .where('id', '=', input.feedAccountId)
      .executeTakeFirst();
    if (!account) throw notFound('Bank account not found in this connection.');
    if (input.target !== 'none' && feedAccountKinds(account.type).length === 0)
      throw badRequest(
        'unsupported_account_type',
        `${account.name} is a ${account.type} account; Kontor feeds bank, card and loan accounts only.`,
      );
    await mapFeedAccount(ctx, trx, member, account, input);
    return connectionView(trx, member.organizationId, input.connectionId);
  });

export const syncNow = (
  ctx: AppContext,
  member: MemberContext,
  input: { connectionId: string },
): Promise<SyncQueued> =>
  inTransaction(ctx.database.db, async (trx) => {
    const connection = await loadConnection(trx, member.organizationId, input.connectionId);
    if (connection.status === 'error')
      throw conflict(
        'bank_feed_item_error',
        'The bank asks you to sign in again before it sends more transactions: choose Reconnect.',
        { code: connection.error_code },
      );
    const job = await queueSync(
      trx,
      { organizationId: member.organizationId, connectionId: connection.id, reason: 'sync now' },
      ctx.now(),
    );
    return { queued: job !== null };
  });

/** After Link in update mode succeeded: the connection is active again and syncs. */
export const markReconnected = (ctx: AppContext, member: MemberContext, input: { connectionId: string }) =>
  inTransaction(ctx.database.db, async (trx) => {
    const connection = await loadConnection(trx, member.organizationId, input.connectionId, {
      forUpdate: true,
    });
    await trx
      .updateTable('bank_feed_connections')
      .set({ status: 'active', error_code: null, error_message: null, updated_at: ctx.now() })
      .where('organization_id', '=', member.organizationId)
      .where('id', '=', connection.id)
      .execute();
    await queueSync(
      trx,
      { organizationId: member.organizationId, connectionId: connection.id, reason: 'reconnected' },
      ctx.now(),
    );
    await recordMemberAudit(trx, member, 'bank_feed.reconnected', ['bank_feed_connection', connection.id], {
      before: { status: connection.status, errorCode: connection.error_code },
    });
    return connectionView(trx, member.organizationId, connection.id);
  });

/**
 * Removes the item at the provider, then the connection with its token, accounts and feed
 * lines. The bank lines it brought in stay (they are the company's books).
 */
export const disconnect = async (
  ctx: AppContext,
  member: MemberContext,
  input: { connectionId: string },
  provider: BankFeedProvider = bankFeedProvider(ctx),
) => {
  const connection = await loadConnection(ctx.database.db, member.organizationId, input.connectionId);
  if (connection.provider === provider.name) {
    try {
      await provider.removeItem(accessTokenOf(ctx, connection));
    } catch (error) {
      // An item the provider no longer knows (revoked at the bank) is gone already.
      if (!(error instanceof FeedItemError)) throw providerRefusal(error);
    }
  }
  await inTransaction(ctx.database.db, async (trx) => {
    await trx
      .deleteFrom('bank_feed_connections')
      .where('organization_id', '=', member.organizationId)
      .where('id', '=', connection.id)
      .execute();
    await recordMemberAudit(trx, member, 'bank_feed.disconnected', ['bank_feed_connection', connection.id], {
      before: { institution: connection.institution_name, provider: connection.provider },
    });
  });
};

// --- Webhooks (plaid-webhook-route.ts) -------------------------------------------------------

const connectionsOfItem = (trx: Executor, itemId: string) =>
  trx
    .selectFrom('bank_feed_connections')
    .select(['organization_id', 'id', 'status', 'institution_name'])
    .where('item_id', '=', itemId)
    .execute();

/** SYNC_UPDATES_AVAILABLE: queues a sync. False when no connection has that item. */
export const queueConnectionSyncByItem = async (
  trx: Executor,
  itemId: string,
  reason: string,
  options: { now?: Date } = {},
): Promise<boolean> => {
  const rows = await connectionsOfItem(trx, itemId);
  for (const r of rows)
    await queueSync(
      trx,
      { organizationId: r.organization_id, connectionId: r.id, reason },
      options.now ?? new Date(),
    );
  return rows.length > 0;
};

/**
 * Records that a connection needs its user (ITEM_LOGIN_REQUIRED, ITEM_REVOKED, …; the
 * reconnect banner): the connection's state, an audit row, the `bank_feed.error` webhook
 * event and, with `ctx`, the members' "bank feed error" notification — all in `trx`.
 */
export const recordConnectionError = async (
  trx: Executor,
  connection: { organization_id: string; id: string; institution_name: string | null },
  code: string,
  message: string,
  options: { now: Date; ctx?: AppContext },
) => {
  const { now, ctx } = options;
  await trx
    .updateTable('bank_feed_connections')
    .set({
      // A consent that expires soon still syncs; the banner asks to reconnect before it ends.
      ...(code !== 'PENDING_EXPIRATION' && { status: 'error' as const }),
      error_code: code.slice(0, 100),
      error_message: message.slice(0, 500),
      updated_at: now,
    })
    .where('organization_id', '=', connection.organization_id)
    .where('id', '=', connection.id)
    .execute();
  await recordAudit(trx, {
    organizationId: connection.organization_id,
    actorUserId: null,
    action: 'bank_feed.synced',
    entityType: 'bank_feed_connection',
    entityId: connection.id,
    after: { error: code },
  });
  await emitWebhookEvent(trx, { organizationId: connection.organization_id, now }, 'bank_feed.error', {
    connectionId: connection.id,
    institution: connection.institution_name,
    code: code.slice(0, 100),
    message: message.slice(0, 500),
  });
  if (ctx)
    await notifyBankFeedError(ctx, trx, {
      organizationId: connection.organization_id,
      connectionId: connection.id,
      institution: connection.institution_name,
      error: message,
      day: now.toISOString().slice(0, 10),
    });
};

/** ITEM errors (ITEM_LOGIN_REQUIRED, ITEM_REVOKED, …): the reconnect banner. False for an unknown item. */
export const markConnectionErrorByItem = async (
  trx: Executor,
  itemId: string,
  code: string,
  message: string,
  options: { now?: Date; ctx?: AppContext } = {},
): Promise<boolean> => {
  const rows = await connectionsOfItem(trx, itemId);
  for (const r of rows)
    await recordConnectionError(trx, r, code, message, { now: options.now ?? new Date(), ctx: options.ctx });
  return rows.length > 0;
};

/** PENDING_EXPIRATION: the consent ends soon; the banner asks to reconnect before it does. */
export const markConnectionPendingExpiration = (
  trx: Executor,
  itemId: string,
  message = 'Your bank consent expires soon. Reconnect to keep transactions coming.',
  options: { now?: Date } = {},
) => markConnectionErrorByItem(trx, itemId, 'PENDING_EXPIRATION', message, options);

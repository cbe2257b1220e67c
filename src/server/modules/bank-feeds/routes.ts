import { z } from 'zod';
import {
  bankConnectionSchema,
  bankFeedsSchema,
  exchangeInputSchema,
  feedAccountMappingSchema,
  linkStartSchema,
  linkTokenInputSchema,
  syncQueuedSchema,
} from '../../../shared/bank-feeds.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import {
  createLinkToken,
  disconnect,
  exchangePublicToken,
  listBankFeeds,
  markReconnected,
  setAccountMapping,
  syncNow,
} from './connections.ts';

// Bank feeds (docs/bank-feeds.md): members see the connections; admins (manage_settings)
// connect, map, sync, reconnect and disconnect. The Plaid webhook is a public route of its own
// (plaid-webhook-route.ts).

export const bankFeedRoutes = companyRoutePlugin(['bank feeds'], (route) => {
  route.get(
    '/bank-feeds',
    {
      summary: 'The bank connections with their accounts, mapping, state, last sync and pending lines',
      permission: 'read',
      response: bankFeedsSchema,
    },
    listBankFeeds,
  );
  route.post(
    '/bank-feeds/link-token',
    {
      summary: "Start the provider's link flow (update mode with a connection in error)",
      permission: 'manage_settings',
      body: linkTokenInputSchema,
      response: linkStartSchema,
    },
    (ctx, member, input) => createLinkToken(ctx, member, input),
  );
  route.post(
    '/bank-feeds/connections',
    {
      summary:
        'Exchange the public token of a finished link flow: creates the connection and lists its accounts',
      permission: 'manage_settings',
      body: exchangeInputSchema,
      response: bankConnectionSchema,
      status: 201,
    },
    (ctx, member, input) => exchangePublicToken(ctx, member, input),
  );
  route.put(
    '/bank-feeds/connections/:connectionId/accounts/:feedAccountId',
    {
      summary: "Map one of the bank's accounts to a new or existing money account (or to none)",
      permission: 'manage_settings',
      body: feedAccountMappingSchema,
      response: bankConnectionSchema,
    },
    setAccountMapping,
  );
  route.post(
    '/bank-feeds/connections/:connectionId/sync',
    {
      summary: 'Sync now: queues a sync of the connection (202)',
      permission: 'manage_settings',
      response: syncQueuedSchema,
      status: 202,
    },
    syncNow,
  );
  route.post(
    '/bank-feeds/connections/:connectionId/reconnected',
    {
      summary: 'After the link flow in update mode: the connection is active again and syncs',
      permission: 'manage_settings',
      body: z.object({}).optional(),
      response: bankConnectionSchema,
    },
    markReconnected,
  );
  route.delete(
    '/bank-feeds/connections/:connectionId',
    {
      summary: 'Disconnect: removes the item at the provider and the token here; the lines brought in stay',
      permission: 'manage_settings',
      response: null,
    },
    (ctx, member, input) => disconnect(ctx, member, input),
  );
});

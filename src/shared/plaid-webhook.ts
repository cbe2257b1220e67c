import { z } from 'zod';

// The answer of POST /api/plaid/webhook (issue 18 §3; docs/bank-feeds.md "Webhook checks"):
// what a verified Plaid webhook led to. Refusals are the API's error shape.

export const plaidWebhookActions = ['sync_queued', 'connection_marked', 'ignored'] as const;

export const plaidWebhookAnswerSchema = z.object({
  received: z.literal(true),
  /** sync_queued: a sync of the item's connections; connection_marked: the reconnect banner; ignored: nothing to do. */
  action: z.enum(plaidWebhookActions),
});

export type PlaidWebhookAnswer = z.infer<typeof plaidWebhookAnswerSchema>;

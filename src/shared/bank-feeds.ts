import { z } from 'zod';
import { MONEY_ACCOUNT_KINDS, type MoneyAccountKind } from './wallet.ts';

// Bank feeds (issue 18, docs/bank-feeds.md): shapes the API and the Wallet's "Bank connections"
// card share. Access tokens never appear here: the server keeps them encrypted and no answer
// carries them.

export const BANK_FEED_PROVIDERS = ['plaid', 'demo'] as const;
export type BankFeedProviderName = (typeof BANK_FEED_PROVIDERS)[number];

/**
 * Which kinds of money account a provider's account type may feed: a credit card's lines go
 * to a credit-card account, a checking account's to a bank account, and so on.
 */
export const FEED_ACCOUNT_KINDS: Record<string, readonly MoneyAccountKind[]> = {
  depository: ['bank', 'payment_processor', 'cash'],
  credit: ['credit_card'],
  loan: ['loan'],
  other: ['bank', 'payment_processor'],
};
export const feedAccountKinds = (type: string): readonly MoneyAccountKind[] => FEED_ACCOUNT_KINDS[type] ?? [];
/** The kind a new money account for a provider account gets. */
export const newAccountKind = (type: string): MoneyAccountKind | null => feedAccountKinds(type)[0] ?? null;

const id = z.string().trim().min(1).max(100);

export const linkTokenInputSchema = z.object({
  /** Opens the flow in update mode for this connection (after the bank asked to sign in again). */
  connectionId: id.optional(),
});
export type LinkTokenInput = z.input<typeof linkTokenInputSchema>;

export const linkStartSchema = z.object({
  provider: z.enum(BANK_FEED_PROVIDERS),
  linkToken: z.string(),
  expiresAt: z.string(),
  /** The Demo Bank's institutions to choose from (Plaid's Link shows its own). */
  institutions: z.array(z.object({ id: z.string(), name: z.string() })).optional(),
});
export type LinkStart = z.infer<typeof linkStartSchema>;

export const exchangeInputSchema = z.object({
  publicToken: z.string().trim().min(1, 'The bank did not hand over a token; connect again.').max(500),
});
export type ExchangeInput = z.input<typeof exchangeInputSchema>;

export const feedAccountMappingSchema = z.discriminatedUnion('target', [
  /** Feed an existing money account of this company (same currency, a fitting kind). */
  z.object({ target: z.literal('existing'), moneyAccountId: id }),
  /** Create a money account for it (named after the bank's account unless a name is given). */
  z.object({
    target: z.literal('new'),
    name: z.string().trim().min(1).max(120).optional(),
  }),
  /** Do not bring this account's lines in (they wait until it is mapped). */
  z.object({ target: z.literal('none') }),
]);
export type FeedAccountMapping = z.input<typeof feedAccountMappingSchema>;

export const feedAccountSchema = z.object({
  id: z.string(),
  name: z.string(),
  mask: z.string().nullable(),
  type: z.string(),
  subtype: z.string().nullable(),
  currency: z.string().nullable(),
  /** The bank's current balance in minor units, Kontor's sign (a card that is owed is negative). */
  currentBalance: z.number().nullable(),
  moneyAccountId: z.string().nullable(),
  moneyAccountName: z.string().nullable(),
  /** The money-account kinds this account may feed (empty: it cannot be mapped). */
  kinds: z.array(z.enum(MONEY_ACCOUNT_KINDS)),
  /** Posted lines the bank reported that wait for this account to be mapped. */
  waitingCount: z.number(),
});
export type FeedAccount = z.infer<typeof feedAccountSchema>;

export const pendingLineSchema = z.object({
  id: z.string(),
  feedAccountId: z.string().nullable(),
  date: z.string(),
  amount: z.number(),
  currency: z.string(),
  description: z.string(),
});
export type PendingLine = z.infer<typeof pendingLineSchema>;

/** A line the sync could not apply as the bank reported it (locked by a reconciliation, before the opening date…). */
export const attentionLineSchema = pendingLineSchema.extend({
  state: z.enum(['skipped', 'conflict']),
  reason: z.string(),
  bankTransactionId: z.string().nullable(),
});
export type AttentionLine = z.infer<typeof attentionLineSchema>;

export const bankConnectionSchema = z.object({
  id: z.string(),
  provider: z.enum(BANK_FEED_PROVIDERS),
  institutionName: z.string().nullable(),
  status: z.enum(['active', 'error']),
  /** ITEM_LOGIN_REQUIRED, PENDING_EXPIRATION, ITEM_REVOKED…: reconnect through Link in update mode. */
  errorCode: z.string().nullable(),
  errorMessage: z.string().nullable(),
  lastSyncedAt: z.string().nullable(),
  /** The last sync's failure, if it failed (it is retried). */
  lastSyncError: z.string().nullable(),
  /** A sync is queued or running. */
  syncing: z.boolean(),
  firstSync: z.object({
    done: z.boolean(),
    pages: z.number(),
    lines: z.number(),
    oldestDate: z.string().nullable(),
  }),
  accounts: z.array(feedAccountSchema),
  pendingCount: z.number(),
  /** The newest pending lines (at most 20): shown, not posted until the bank posts them. */
  pending: z.array(pendingLineSchema),
  attention: z.array(attentionLineSchema),
  createdAt: z.string(),
});
export type BankConnection = z.infer<typeof bankConnectionSchema>;

export const bankFeedsSchema = z.object({
  provider: z.enum(BANK_FEED_PROVIDERS),
  connections: z.array(bankConnectionSchema),
});
export type BankFeeds = z.infer<typeof bankFeedsSchema>;

export const syncQueuedSchema = z.object({
  /** False when a sync of this connection was already waiting (it covers this request). */
  queued: z.boolean(),
});
export type SyncQueued = z.infer<typeof syncQueuedSchema>;

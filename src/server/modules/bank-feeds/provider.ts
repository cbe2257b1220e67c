// The one interface behind every bank feed (issue 18): Plaid through its official SDK when
// PLAID_CLIENT_ID/PLAID_SECRET are set, the built-in Demo Bank otherwise. The rest of the
// module (connections, sync, webhooks, the Wallet) talks only to this.

/** What the page needs to open the provider's link flow. */
export type LinkStart =
  | { provider: 'plaid'; linkToken: string; expiresAt: string }
  | { provider: 'demo'; linkToken: string; expiresAt: string; institutions: { id: string; name: string }[] };

export type LinkTokenRequest = {
  /** Stable per user id sent to the provider (never an email). */
  clientUserId: string;
  companyName: string;
  /** Set to open the flow in update mode for an existing connection (after an item error). */
  accessToken?: string;
  /** Where the provider sends webhooks for this item (absolute https URL in production). */
  webhookUrl?: string;
};

/** After the user finishes the flow, the page hands back a public token; exchanged once. */
export type ExchangedItem = { itemId: string; accessToken: string; institutionName: string | null };

export type FeedAccount = {
  /** The provider's account id (Plaid's account_id). */
  id: string;
  name: string;
  mask: string | null;
  /** depository | credit | loan | investment | other (Plaid's types). */
  type: string;
  subtype: string | null;
  /** ISO 4217; null when the provider does not say (refused when mapping). */
  currency: string | null;
  /** Current balance in minor units when known. */
  currentBalance: number | null;
};

/**
 * One transaction as the provider reports it, normalised: amount in minor units with
 * Kontor's sign (money in positive, money out negative — Plaid's is the opposite), dates ISO.
 */
export type FeedTransaction = {
  id: string;
  accountId: string;
  date: string;
  amount: number;
  currency: string;
  description: string;
  counterparty: string | null;
  reference: string | null;
  pending: boolean;
  /** The pending transaction this posted one replaces (Plaid's pending_transaction_id). */
  pendingId: string | null;
};

export type SyncPage = {
  added: FeedTransaction[];
  modified: FeedTransaction[];
  removed: { id: string; accountId: string | null }[];
  nextCursor: string;
  hasMore: boolean;
};

/** An error of the provider that the user must act on (shown as a reconnect banner). */
export class FeedItemError extends Error {
  constructor(
    readonly code: string, // ITEM_LOGIN_REQUIRED, PENDING_EXPIRATION, ITEM_REVOKED, …
    message: string,
  ) {
    super(message);
  }
}

export interface BankFeedProvider {
  readonly name: 'plaid' | 'demo';
  createLinkToken(request: LinkTokenRequest): Promise<LinkStart>;
  exchangePublicToken(publicToken: string): Promise<ExchangedItem>;
  listAccounts(accessToken: string): Promise<FeedAccount[]>;
  /** One page of /transactions/sync from `cursor` (null: from the start, up to 24 months). */
  syncTransactions(accessToken: string, cursor: string | null): Promise<SyncPage>;
  /** Removes the item at the provider (disconnect). */
  removeItem(accessToken: string): Promise<void>;
}

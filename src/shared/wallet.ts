import { z } from 'zod';
import { currencyCodeSchema as currencyCode, minorAmount, rateTextSchema as rateText } from './money.ts';
import { isoDate } from './ledger.ts';

// Money accounts, balances, exchange rates and transfers: shapes the API and the web app
// share. Balances are signed minor units of the account's currency (a credit card that is
// owed money shows a negative balance).

export const MONEY_ACCOUNT_KINDS = ['bank', 'cash', 'credit_card', 'loan', 'payment_processor'] as const;
export type MoneyAccountKind = (typeof MONEY_ACCOUNT_KINDS)[number];

/**
 * The kinds that owe money rather than hold it: liabilities in the ledger, never counted as
 * cash, never a deposit account.
 */
export const LIABILITY_MONEY_ACCOUNT_KINDS: readonly MoneyAccountKind[] = ['credit_card', 'loan'];
export const isLiabilityMoneyAccountKind = (kind: MoneyAccountKind) =>
  LIABILITY_MONEY_ACCOUNT_KINDS.includes(kind);

export const MONEY_ACCOUNT_KIND_LABELS: Record<MoneyAccountKind, string> = {
  bank: 'Bank account',
  cash: 'Cash',
  credit_card: 'Credit card',
  loan: 'Loan',
  payment_processor: 'Payment processor',
};

const signedMinor = minorAmount({ sign: 'any' });

export const moneyAccountCreateSchema = z.object({
  name: z.string().trim().min(1, 'Name the account.').max(120, 'Names are at most 120 characters.'),
  kind: z.enum(MONEY_ACCOUNT_KINDS, {
    error: 'Choose bank account, cash, credit card, loan or payment processor.',
  }),
  currency: currencyCode,
  institution: z.string().trim().max(120).default(''),
  /** The full or partial number; only the last four characters are kept. */
  accountNumber: z
    .string()
    .trim()
    .max(64)
    .regex(/^[0-9A-Za-z \-*.]*$/, 'Use letters, digits, spaces or dashes in the account number.')
    .optional(),
  /** Signed minor units: what the account held (or, for a card, owed as a negative) on the opening date. */
  openingBalance: signedMinor.default(0),
  openingDate: isoDate,
  /** Base units per one account-currency unit, for an opening balance in a foreign currency. */
  openingRate: rateText.optional(),
});
export type MoneyAccountCreate = z.input<typeof moneyAccountCreateSchema>;

export const moneyAccountUpdateSchema = z.object({
  name: moneyAccountCreateSchema.shape.name.optional(),
  institution: z.string().trim().max(120).optional(),
  accountNumber: moneyAccountCreateSchema.shape.accountNumber,
  archived: z.boolean().optional(),
  /**
   * A new opening balance and/or date: editable until a completed reconciliation covers the
   * date; the opening entry is reversed and posted again through the ledger.
   */
  openingBalance: signedMinor.optional(),
  openingDate: isoDate.optional(),
  /** Base units per one account-currency unit, for a foreign-currency opening balance. */
  openingRate: rateText.optional(),
});
export type MoneyAccountUpdate = z.input<typeof moneyAccountUpdateSchema>;

/** The company's deposit account: where invoice payments (and other money in) go by default. */
export const depositAccountInputSchema = z.object({
  moneyAccountId: z.string().min(1, 'Choose a money account.').max(100),
});

export const moneyAccountSchema = z.object({
  id: z.string(),
  ledgerAccountId: z.string(),
  ledgerAccountCode: z.string(),
  name: z.string(),
  kind: z.enum(MONEY_ACCOUNT_KINDS),
  currency: z.string(),
  institution: z.string(),
  /** e.g. "•••• 4821" */
  maskedNumber: z.string().nullable(),
  openingBalance: z.number(),
  openingDate: z.string(),
  /** The ledger balance in the account's own currency (asOf the summary's date). */
  balance: z.number(),
  /** The ledger balance in the base currency: the book value the balance sheet shows. */
  baseBalance: z.number(),
  /** The latest stored rate to the base currency (foreign-currency accounts), for reference. */
  rate: z.string().nullable(),
  rateDate: z.string().nullable(),
  uncategorizedCount: z.number(),
  lastReconciledDate: z.string().nullable(),
  /** Money comes in here unless another account is picked (one per company). */
  isDefaultDeposit: z.boolean(),
  /** Whether the opening balance and date can still change (no completed reconciliation covers them). */
  openingEditable: z.boolean(),
  archived: z.boolean(),
  createdAt: z.string(),
});
export type MoneyAccount = z.infer<typeof moneyAccountSchema>;

export const walletSummarySchema = z.object({
  baseCurrency: z.string(),
  /** The date the balances are at (end of day). */
  asOf: z.string(),
  accounts: z.array(moneyAccountSchema),
  /**
   * Sum of the base balances of the bank, cash and payment-processor accounts: the
   * balance sheet's cash and bank lines and the dashboard's cash position, to the cent.
   */
  cashBase: z.number(),
  /** What the credit cards owe (signed: negative when money is owed). */
  cardsBase: z.number(),
  /** What the loans owe (signed: negative when money is owed); never part of cashBase. */
  loansBase: z.number(),
  /** cashBase plus cardsBase plus loansBase. */
  totalBase: z.number(),
  defaultDepositAccountId: z.string().nullable(),
});
export type WalletSummary = z.infer<typeof walletSummarySchema>;

export const balanceHistorySchema = z.object({
  baseCurrency: z.string(),
  /** Month ends (or the last day so far for the current month), oldest first. */
  points: z.array(
    z.object({
      date: z.string(),
      totalBase: z.number(),
      balances: z.record(z.string(), z.number()),
    }),
  ),
});
export type BalanceHistory = z.infer<typeof balanceHistorySchema>;

export const exchangeRateInputSchema = z.object({
  currency: currencyCode,
  date: isoDate,
  rate: rateText,
});

export const exchangeRateSchema = z.object({ currency: z.string(), date: z.string(), rate: z.string() });
export type ExchangeRate = z.infer<typeof exchangeRateSchema>;
export const exchangeRateListSchema = z.object({ rates: z.array(exchangeRateSchema) });

export const walletQuerySchema = z.object({ asOf: isoDate.optional() });
export const balanceHistoryQuerySchema = z.object({
  months: z.coerce.number().int().min(1).max(60).default(12),
});

export const transferInputSchema = z
  .object({
    fromAccountId: z.string().min(1, 'Choose the account the money leaves.'),
    toAccountId: z.string().min(1, 'Choose the account the money arrives in.'),
    date: isoDate,
    /** Positive minor units of the from-account's currency. */
    amount: minorAmount({ sign: 'positive' }),
    /** Positive minor units arriving, for accounts in different currencies (or give the rate). */
    toAmount: minorAmount({ sign: 'positive' }).optional(),
    /** To-currency units per one from-currency unit. */
    rate: rateText.optional(),
    memo: z.string().trim().max(500).default(''),
  })
  .refine((t) => t.fromAccountId !== t.toAccountId, {
    message: 'Choose two different accounts.',
    path: ['toAccountId'],
  });
export type TransferInput = z.input<typeof transferInputSchema>;

export const transferSchema = z.object({
  id: z.string(),
  date: z.string(),
  fromAccountId: z.string(),
  toAccountId: z.string(),
  fromAmount: z.number(),
  toAmount: z.number(),
  fromCurrency: z.string(),
  toCurrency: z.string(),
  rate: z.string(),
  memo: z.string(),
  entryId: z.string(),
});
export type Transfer = z.infer<typeof transferSchema>;

/** "•••• 4821" from what the user typed; null when nothing was given. */
export const lastFourOf = (accountNumber: string | undefined | null) => {
  const chars = (accountNumber ?? '').replace(/[^0-9A-Za-z]/g, '');
  return chars ? chars.slice(-4) : null;
};

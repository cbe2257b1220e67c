import { z } from 'zod';
import { attachmentSchema } from './attachments.ts';
import { isoDate } from './input.ts';
import { currencyCodeSchema as currencyCode, minorAmount } from './money.ts';
import {
  cursorPage,
  cursorPageShape,
  cursorQuery,
  namedAmounts,
  optionalDateRange,
  reportRange,
  reportSince,
} from './schema-parts.ts';

// The ledger's vocabulary and request/response shapes, shared by the API and the web app.
// Amounts are integer minor units of the company's base currency unless a field says
// otherwise; dates are ISO calendar dates (YYYY-MM-DD).

export const ACCOUNT_TYPES = ['asset', 'liability', 'equity', 'income', 'expense'] as const;
export type AccountTypeName = (typeof ACCOUNT_TYPES)[number];

export const ACCOUNT_SUBTYPES: Record<AccountTypeName, readonly string[]> = {
  asset: [
    'bank',
    'cash',
    'cash_equivalent',
    'accounts_receivable',
    'inventory',
    'current_asset',
    'prepaid_expense',
    'fixed_asset',
    'accumulated_depreciation',
    'other_asset',
  ],
  liability: ['accounts_payable', 'credit_card', 'loan', 'tax', 'current_liability', 'long_term_liability'],
  equity: ['owner_equity', 'drawings', 'retained_earnings', 'opening_balance_equity'],
  income: ['sales', 'other_income'],
  expense: ['cost_of_sales', 'operating_expense', 'payroll_expense', 'depreciation', 'other_expense'],
};

/**
 * Subtypes of the asset accounts that hold money: the balance sheet's cash and bank lines and
 * the dashboard's cash position. Each such account is a money account of the wallet.
 */
export const CASH_SUBTYPES: readonly string[] = ['bank', 'cash', 'cash_equivalent'];

/**
 * Subtypes of the liability accounts that are money accounts: credit cards and loans. They
 * owe money; they are never cash.
 */
export const LIABILITY_MONEY_SUBTYPES: readonly string[] = ['credit_card', 'loan'];

/** Subtypes of the accounts that are money accounts: the cash ones, credit cards and loans. */
export const MONEY_SUBTYPES: readonly string[] = [...CASH_SUBTYPES, ...LIABILITY_MONEY_SUBTYPES];

/** The subtype an account of each type gets when an import does not name one. */
export const DEFAULT_SUBTYPE: Record<AccountTypeName, string> = {
  asset: 'current_asset',
  liability: 'current_liability',
  equity: 'owner_equity',
  income: 'sales',
  expense: 'operating_expense',
};

/** How people name each account type, singular ("Asset"). */
export const ACCOUNT_TYPE_LABELS: Record<AccountTypeName, string> = {
  asset: 'Asset',
  liability: 'Liability',
  equity: 'Equity',
  income: 'Income',
  expense: 'Expense',
};

export const SUBTYPE_LABELS: Record<string, string> = {
  bank: 'Bank',
  cash: 'Cash',
  cash_equivalent: 'Cash equivalent',
  accounts_receivable: 'Accounts receivable',
  inventory: 'Inventory',
  current_asset: 'Current asset',
  prepaid_expense: 'Prepaid expense',
  fixed_asset: 'Fixed asset',
  accumulated_depreciation: 'Accumulated depreciation',
  other_asset: 'Other asset',
  accounts_payable: 'Accounts payable',
  credit_card: 'Credit card',
  loan: 'Loan',
  tax: 'Tax',
  current_liability: 'Current liability',
  long_term_liability: 'Long-term liability',
  owner_equity: "Owner's equity",
  drawings: 'Drawings',
  retained_earnings: 'Retained earnings',
  opening_balance_equity: 'Opening balance equity',
  sales: 'Sales',
  other_income: 'Other income',
  cost_of_sales: 'Cost of sales',
  operating_expense: 'Operating expense',
  payroll_expense: 'Payroll expense',
  depreciation: 'Depreciation',
  other_expense: 'Other expense',
};

/** Debit-normal types show a positive balance when debits exceed credits. */
export const isDebitNormal = (type: AccountTypeName) => type === 'asset' || type === 'expense';

export const JOURNAL_SOURCES = [
  'manual',
  'invoice',
  'payment',
  'bank',
  'transfer',
  'opening_balance',
  'year_end_close',
  'reversal',
  'bill',
  'bill_payment',
  'supplier_credit',
] as const;
export type JournalSourceName = (typeof JOURNAL_SOURCES)[number];

export const JOURNAL_STATUSES = ['draft', 'pending_approval', 'posted'] as const;
export type JournalStatusName = (typeof JOURNAL_STATUSES)[number];

/** A real calendar date between MIN_DATE and MAX_DATE (src/shared/input.ts). */
export { isoDate };

const minorUnits = minorAmount({
  signMessage: 'Amounts cannot be negative; use the other side (debit or credit).',
});

export const accountSchema = z.object({
  id: z.string(),
  code: z.string(),
  name: z.string(),
  type: z.enum(ACCOUNT_TYPES),
  subtype: z.string(),
  parentId: z.string().nullable(),
  currency: z.string(),
  description: z.string(),
  systemKey: z.string().nullable(),
  archived: z.boolean(),
  hasPostings: z.boolean().optional(),
});
export type Account = z.infer<typeof accountSchema>;

export const accountCreateSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, 'Enter an account code.')
    .max(20, 'Account codes are at most 20 characters.'),
  name: z
    .string()
    .trim()
    .min(1, 'Enter an account name.')
    .max(120, 'Account names are at most 120 characters.'),
  type: z.enum(ACCOUNT_TYPES),
  subtype: z.string().min(1),
  parentId: z.string().min(1, 'Choose a parent account, or send null for none.').nullable().optional(),
  currency: currencyCode.optional(),
  description: z.string().max(500).optional(),
});
export type AccountCreate = z.infer<typeof accountCreateSchema>;

export const accountUpdateSchema = z.object({
  code: accountCreateSchema.shape.code.optional(),
  name: accountCreateSchema.shape.name.optional(),
  subtype: z.string().min(1).optional(),
  parentId: z.string().min(1, 'Choose a parent account, or send null for none.').nullable().optional(),
  description: z.string().max(500).optional(),
  archived: z.boolean().optional(),
});
export type AccountUpdate = z.infer<typeof accountUpdateSchema>;

export const journalLineInputSchema = z.object({
  accountId: z.string().min(1, 'Choose an account for every line.'),
  debit: minorUnits.optional(),
  credit: minorUnits.optional(),
  currency: currencyCode.optional(),
  /** Minor units of `currency` when the line is in a foreign currency. */
  amount: minorUnits.optional(),
  /** Base-currency units per one unit of `currency`, as exact decimal text or number. */
  rate: z.union([z.string(), z.number().positive()]).optional(),
  description: z.string().max(500).optional(),
  contactId: z.string().max(100).optional(),
});
export type JournalLineInput = z.infer<typeof journalLineInputSchema>;

export const journalEntryInputSchema = z.object({
  date: isoDate,
  memo: z.string().max(1000).default(''),
  reference: z.string().max(100).nullable().optional(),
  lines: z.array(journalLineInputSchema).min(2, 'An entry needs at least two lines.').max(500),
});

export const manualEntryCreateSchema = journalEntryInputSchema.extend({
  /** draft keeps it editable; posted posts it now (or sends it for approval when that is on). */
  status: z.enum(['draft', 'posted']).default('posted'),
});
export type ManualEntryCreate = z.infer<typeof manualEntryCreateSchema>;

export const draftUpdateSchema = journalEntryInputSchema.partial();

/** The two sides of a journal line, or of a report row made from lines: debit and credit (minor units). */
const lineSides = { debit: z.number(), credit: z.number() };

export const journalLineSchema = z.object({
  lineNo: z.number(),
  accountId: z.string(),
  accountCode: z.string(),
  accountName: z.string(),
  ...lineSides,
  currency: z.string().nullable(),
  amount: z.number().nullable(),
  rate: z.string().nullable(),
  description: z.string().nullable(),
  contactId: z.string().nullable(),
});
export type JournalLine = z.infer<typeof journalLineSchema>;

export const journalEntrySchema = z.object({
  id: z.string(),
  number: z.number().nullable(),
  date: z.string(),
  memo: z.string(),
  reference: z.string().nullable(),
  source: z.enum(JOURNAL_SOURCES),
  sourceId: z.string().nullable(),
  status: z.enum(JOURNAL_STATUSES),
  reversesEntryId: z.string().nullable(),
  reversedByEntryId: z.string().nullable(),
  isClosing: z.boolean(),
  createdBy: z.string().nullable(),
  approvedBy: z.string().nullable(),
  postedBy: z.string().nullable(),
  postedAt: z.string().nullable(),
  createdAt: z.string(),
  totalDebit: z.number(),
  lines: z.array(journalLineSchema),
  attachments: z.array(attachmentSchema).optional(),
});
export type JournalEntry = z.infer<typeof journalEntrySchema>;

export const reverseEntrySchema = z.object({
  date: isoDate.optional(),
  memo: z.string().max(1000).optional(),
});

export const openingBalancesSchema = z.object({
  date: isoDate,
  memo: z.string().max(1000).optional(),
  lines: z
    .array(
      z.object({
        accountId: z.string().min(1),
        debit: minorUnits.optional(),
        credit: minorUnits.optional(),
      }),
    )
    .min(1, 'Enter at least one opening balance.'),
});

export const ledgerSettingsSchema = z.object({
  lockDate: z.string().nullable(),
  approvalRequired: z.boolean(),
  baseCurrency: z.string(),
  fiscalYearStartMonth: z.number(),
});
export type LedgerSettings = z.infer<typeof ledgerSettingsSchema>;

export const ledgerSettingsUpdateSchema = z.object({
  lockDate: isoDate.nullable().optional(),
  approvalRequired: z.boolean().optional(),
});

export const fiscalYearSchema = z.object({
  startDate: z.string(),
  endDate: z.string(),
  status: z.enum(['open', 'closed']),
  closeEntryId: z.string().nullable(),
  closedAt: z.string().nullable(),
});
export type FiscalYear = z.infer<typeof fiscalYearSchema>;

// --- Reports --------------------------------------------------------------------------

export const REPORT_FORMATS = ['json', 'csv', 'pdf'] as const;

/** The dates a report query covers: up to `to`, from `from` or the beginning of the books. */
const reportPeriod = { from: isoDate.optional(), to: isoDate };
/** How a report answers: JSON unless CSV or PDF is asked for. */
const reportFormat = { format: z.enum(REPORT_FORMATS).default('json') };

export const reportRangeQuerySchema = z.object({ ...reportPeriod, ...reportFormat });

export const asOfQuerySchema = z.object({ asOf: isoDate, ...reportFormat });

/** Date layouts a CSV or PDF export can use. */
export const DATE_FORMATS = ['MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD', 'DD.MM.YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/** How an export writes dates and amounts (ignored by format=json). */
export const reportFormatQuerySchema = z.object({
  dateFormat: z.enum(DATE_FORMATS).default('YYYY-MM-DD'),
  locale: z
    .string()
    .max(20)
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'Use a language tag such as en-US.')
    .default('en-US'),
  currencyDisplay: z.enum(['symbol', 'code']).default('symbol'),
});
export type ReportFormatQuery = z.infer<typeof reportFormatQuerySchema>;

/** The query fields of a report that also downloads as a file: format=json|csv|pdf and the file's style. */
export const REPORT_FORMAT_QUERY = { ...reportFormat, ...reportFormatQuerySchema.shape };

const accountRef = {
  accountId: z.string(),
  code: z.string(),
  name: z.string(),
  type: z.enum(ACCOUNT_TYPES),
  subtype: z.string(),
};

export const trialBalanceSchema = z.object({
  ...reportSince,
  rows: z.array(
    z.object({
      ...accountRef,
      openingBalance: z.number(),
      ...lineSides,
      closingBalance: z.number(),
    }),
  ),
  totals: namedAmounts(['debit', 'credit', 'closingDebit', 'closingCredit']),
});
export type TrialBalance = z.infer<typeof trialBalanceSchema>;

const statementLine = z.object({
  ...accountRef,
  amount: z.number(),
  previousAmount: z.number().optional(),
  lastYearAmount: z.number().optional(),
});

/**
 * The income statement's figures; its totals hold each for the period, for the one before
 * (`previous…`) and for the same period a year earlier (`lastYear…`).
 */
const INCOME_FIGURES = ['income', 'costOfSales', 'grossProfit', 'expenses', 'netIncome'] as const;
const previousFigure = <K extends string>(name: K) =>
  `previous${name.charAt(0).toUpperCase()}${name.slice(1)}` as `previous${Capitalize<K>}`;
const lastYearFigure = <K extends string>(name: K) =>
  `lastYear${name.charAt(0).toUpperCase()}${name.slice(1)}` as `lastYear${Capitalize<K>}`;

/** Which comparison columns the income statement shows (and its CSV and PDF hold). */
export const INCOME_COMPARE = ['none', 'previous', 'lastYear', 'both'] as const;
export type IncomeCompare = (typeof INCOME_COMPARE)[number];

export const incomeStatementQuerySchema = reportRangeQuerySchema.extend({
  compare: z.enum(INCOME_COMPARE).default('both'),
});

export const incomeStatementSchema = z.object({
  ...reportRange,
  previousFrom: z.string(),
  previousTo: z.string(),
  lastYearFrom: z.string(),
  lastYearTo: z.string(),
  /** The comparisons asked for (compare=…), in column order, each labelled with its dates. */
  comparisons: z.array(
    z.object({ kind: z.enum(['previous', 'lastYear']), from: z.string(), to: z.string(), label: z.string() }),
  ),
  income: z.array(statementLine),
  costOfSales: z.array(statementLine),
  expenses: z.array(statementLine),
  totals: namedAmounts([
    ...INCOME_FIGURES,
    ...INCOME_FIGURES.map(previousFigure),
    ...INCOME_FIGURES.map(lastYearFigure),
  ]),
});
export type IncomeStatement = z.infer<typeof incomeStatementSchema>;
export type IncomeFigure = (typeof INCOME_FIGURES)[number];

/**
 * The change from `previous` to `current` in percent of the previous figure's size, one
 * decimal (200 → 250 is 25.0, -200 → -100 is 50.0); null when there is nothing to compare
 * with (the previous figure is zero).
 */
export const changePercent = (current: number, previous: number): number | null =>
  previous === 0 ? null : Math.round(((current - previous) * 1000) / Math.abs(previous)) / 10;

export const balanceSheetSchema = z.object({
  currency: z.string(),
  asOf: z.string(),
  fiscalYearStart: z.string(),
  assets: z.array(statementLine),
  liabilities: z.array(statementLine),
  equity: z.array(statementLine),
  currentYearEarnings: z.number(),
  priorYearsUnclosedEarnings: z.number(),
  totals: namedAmounts(['assets', 'liabilities', 'equity', 'liabilitiesAndEquity']),
  balanced: z.boolean(),
});
export type BalanceSheet = z.infer<typeof balanceSheetSchema>;

/**
 * The cash flow statement, indirect method: net income, then the non-cash items added back
 * (`adjustments`: depreciation, the movement of accumulated depreciation), the changes in
 * working capital (`workingCapital`: receivables, payables, inventory, prepaid, tax, credit
 * cards and other current assets and liabilities), investing and financing. Every line is the
 * change of one non-cash balance account, cash-signed (an increase of an asset uses cash).
 * `totals.netChange` is the change in the cash accounts' balance (CASH_SUBTYPES) over the
 * period, and equals operating + investing + financing.
 */
export const cashFlowSchema = z.object({
  ...reportRange,
  netIncome: z.number(),
  adjustments: z.array(statementLine),
  workingCapital: z.array(statementLine),
  investing: z.array(statementLine),
  financing: z.array(statementLine),
  totals: namedAmounts([
    'adjustments',
    'workingCapital',
    'operating',
    'investing',
    'financing',
    'netChange',
    'openingCash',
    'closingCash',
  ]),
});
export type CashFlow = z.infer<typeof cashFlowSchema>;

/** Where a journal line stands in a report's rows: its entry (id and number), line number and date. */
const entryLinePlace = { entryId: z.string(), entryNumber: z.number(), lineNo: z.number(), date: z.string() };

export const ledgerRowSchema = z.object({
  ...entryLinePlace,
  memo: z.string(),
  reference: z.string().nullable(),
  source: z.string(),
  description: z.string().nullable(),
  ...lineSides,
  balance: z.number(),
});

export const generalLedgerQuerySchema = z.object({
  accountId: z.string().min(1),
  ...reportPeriod,
  ...cursorQuery(1000, 100),
  ...reportFormat,
});

export const generalLedgerSchema = z.object({
  currency: z.string(),
  account: z.object(accountRef),
  from: z.string().nullable(),
  to: z.string(),
  openingBalance: z.number(),
  closingBalance: z.number(),
  ...cursorPageShape('rows', ledgerRowSchema),
});
export type GeneralLedger = z.infer<typeof generalLedgerSchema>;

export const journalReportQuerySchema = z.object({
  ...reportPeriod,
  ...cursorQuery(500, 50),
  ...reportFormat,
});

/** GET /reports/journal: posted entries with their lines, a page at a time. */
export const journalReportSchema = z.object({
  ...reportSince,
  ...cursorPageShape(
    'entries',
    z.object({
      id: z.string(),
      number: z.number(),
      date: z.string(),
      memo: z.string(),
      reference: z.string().nullable(),
      source: z.string(),
      reversesEntryId: z.string().nullable(),
      /** A foreign-currency line's currency and amount in it; null in the base currency. */
      lines: z.array(journalLineSchema.omit({ rate: true, contactId: true })),
    }),
  ),
});
export type JournalReport = z.infer<typeof journalReportSchema>;

export const accountTransactionsQuerySchema = journalReportQuerySchema.extend({
  accountId: z.string().optional(),
});

/** GET /reports/account-transactions: each line with the other side of its entry. */
export const accountTransactionsSchema = z.object({
  ...reportSince,
  ...cursorPageShape(
    'rows',
    z.object({
      ...entryLinePlace,
      accountId: z.string(),
      account: z.string(),
      memo: z.string(),
      source: z.string(),
      description: z.string().nullable(),
      split: z.string(),
      ...lineSides,
    }),
  ),
});
export type AccountTransactions = z.infer<typeof accountTransactionsSchema>;

export const journalListQuerySchema = z.object({
  status: z.enum(JOURNAL_STATUSES).optional(),
  source: z.enum(JOURNAL_SOURCES).optional(),
  ...optionalDateRange,
  search: z.string().max(100).optional(),
  ...cursorQuery(200, 50),
});

export const auditLogQuerySchema = z.object({
  entityType: z.string().max(60).optional(),
  entityId: z.string().max(100).optional(),
  ...cursorQuery(200, 50),
});

export const auditLogEntrySchema = z.object({
  id: z.string(),
  actorUserId: z.string().nullable(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  before: z.unknown(),
  after: z.unknown(),
  createdAt: z.string(),
});
export const auditLogPageSchema = cursorPage('entries', auditLogEntrySchema);

// --- Lists, imports -----------------------------------------------------------------------

/** GET /journal-entries: a page of entries, newest first. */
export const journalListSchema = cursorPage('entries', journalEntrySchema);
export type JournalList = z.infer<typeof journalListSchema>;

/** POST /accounts/import: a chart of accounts as CSV text. */
export const chartImportSchema = z.object({
  csv: z.string().min(1, 'Paste or upload the CSV text.').max(2_000_000),
});
export const chartImportResultSchema = z.object({ created: z.number(), updated: z.number() });
export type ChartImportResult = z.infer<typeof chartImportResultSchema>;

/** POST /ledger/import: an hledger/ledger journal file as text. */
export const journalImportSchema = z.object({
  journal: z
    .string()
    .min(1, 'Paste or upload the journal text.')
    .max(10_000_000, 'The journal is longer than 10 MB; split it by year and import each part.'),
});

/** What POST /ledger/import answers: entries posted, account mapping, and what was ignored by line. */
export const journalImportResultSchema = z.object({
  entries: z.number(),
  createdAccounts: z.number(),
  /** Each journal account name and the Kontor account it was posted to. */
  accounts: z.array(
    z.object({
      journalName: z.string(),
      accountId: z.string(),
      code: z.string(),
      name: z.string(),
      created: z.boolean(),
    }),
  ),
  /** What was read differently or ignored, by line (at most 500; noticeCount has the total). */
  notices: z.array(z.object({ line: z.number(), message: z.string() })),
  noticeCount: z.number(),
});
export type JournalImportResult = z.infer<typeof journalImportResultSchema>;

/** GET /ledger/export.journal: optional date range. */
export const journalExportQuerySchema = z.object(optionalDateRange);

/**
 * Where an entry a document posted is undone (an invoice, a payment or refund, a bank line, a
 * transfer, a money account's opening balance); null for entries the ledger itself owns, which
 * the journal's "Reverse entry" may reverse. The server refuses the others, the page hides it.
 */
export const documentOwnerOfEntry = (source: string, sourceId: string | null): string | null => {
  switch (source) {
    case 'invoice':
      return 'its invoice (void it in Invoices)';
    case 'payment':
      return 'its payment or refund (remove it in Invoices)';
    case 'bank':
      return 'its bank transaction (recategorise or delete it in Transactions)';
    case 'transfer':
      return 'its transfer (delete it in Transactions)';
    case 'opening_balance':
      return sourceId === null ? null : 'its money account (change the opening balance in Wallet)';
    case 'bill':
      return 'its bill (void it in Bills)';
    case 'bill_payment':
      return 'its bill payment (remove it in Bills)';
    case 'supplier_credit':
      return 'its supplier credit or refund (void or remove it in Bills)';
    default:
      return null;
  }
};

import { z } from 'zod';
import { minorAmount, rateTextSchema } from './money.ts';
import { cursorPage, optionalDateRange, searchText } from './schema-parts.ts';
import { isoDate } from './ledger.ts';

// Bank transactions, statement import, categorisation rules and reconciliation: the shapes
// the API and the web app agree on. Amounts are signed integer minor units of the money
// account's currency (positive = money in, negative = money out); dates are ISO dates.

export const TRANSACTION_STATUSES = ['uncategorized', 'categorized', 'reconciled'] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Date formats of bank CSVs. D and M may be one or two digits; a time of day may follow. */
export const CSV_DATE_FORMATS = [
  'YYYY-MM-DD',
  'DD/MM/YYYY',
  'MM/DD/YYYY',
  'DD.MM.YYYY',
  'DD-MM-YYYY',
  'YYYY/MM/DD',
  'YYYYMMDD',
  'YYYY.MM.DD',
  'DD.MM.YY',
  'DD/MM/YY',
  'MM/DD/YY',
  'MM-DD-YYYY',
  'DD-MM-YY',
  /** Day, English or German month name or abbreviation, year: 27-Feb-2018, 27 Feb 2018, 3. Dez. 2019. */
  'DD-MMM-YYYY',
  'DD-MMM-YY',
  /** Feb 27, 2018. */
  'MMM DD, YYYY',
] as const;
export type CsvDateFormat = (typeof CSV_DATE_FORMATS)[number];

export const DECIMAL_SEPARATORS = ['.', ','] as const;
export type DecimalSeparator = (typeof DECIMAL_SEPARATORS)[number];

export const CSV_DELIMITERS = [',', ';', '\t', '|'] as const;

const column = z.number().int().min(0).max(199);

/** How a CSV file's columns map onto a transaction (0-based column numbers). */
export const csvMappingSchema = z
  .object({
    delimiter: z.enum(CSV_DELIMITERS).default(','),
    hasHeader: z.boolean().default(true),
    dateColumn: column,
    descriptionColumn: column,
    payeeColumn: column.nullable().default(null),
    /** One signed amount column, or separate money-out (debit) and money-in (credit) columns. */
    amountColumn: column.nullable().default(null),
    debitColumn: column.nullable().default(null),
    creditColumn: column.nullable().default(null),
    externalIdColumn: column.nullable().default(null),
    dateFormat: z.enum(CSV_DATE_FORMATS),
    decimalSeparator: z.enum(DECIMAL_SEPARATORS).default('.'),
    /** For files that show money out as positive (credit card statements). */
    invertAmounts: z.boolean().default(false),
    /**
     * Where the table is, in records of the file (0-based, blank lines not counted): the
     * header row (when hasHeader), the first data row (null: the row after the header, or
     * the first row), and how many summary rows at the end are not transactions.
     */
    headerRow: z.number().int().min(0).max(999).default(0),
    firstDataRow: z.number().int().min(0).max(999).nullable().default(null),
    footerRows: z.number().int().min(0).max(999).default(0),
    /** An amount plus a debit/credit indicator column (D/C, DR/CR, S/H, Soll/Haben, +/-). */
    indicatorColumn: column.nullable().default(null),
    /** Indicator values meaning money out / money in (compared ignoring case; "" is a blank cell). */
    debitIndicators: z.array(z.string().trim().max(40)).max(20).default([]),
    creditIndicators: z.array(z.string().trim().max(40)).max(20).default([]),
    /** A column with each row's currency; rows in another currency than the account's are refused. */
    currencyColumn: column.nullable().default(null),
    /** A reference column, used as the description when the description and payee are empty. */
    referenceColumn: column.nullable().default(null),
    /**
     * Rows with neither a date nor an amount inside the table: left out (and listed), or added
     * to the description of the transaction right above (banks that wrap long texts).
     */
    continuationRows: z.enum(['leave_out', 'append']).default('leave_out'),
  })
  .refine((m) => m.amountColumn !== null || (m.debitColumn !== null && m.creditColumn !== null), {
    message: 'Choose the amount column, or both the money-out and money-in columns.',
    path: ['amountColumn'],
  })
  .refine(
    (m) =>
      m.indicatorColumn === null ||
      (m.amountColumn !== null && m.debitIndicators.length + m.creditIndicators.length > 0),
    {
      message: 'A debit/credit indicator needs the amount column and the values that mean money out and in.',
      path: ['indicatorColumn'],
    },
  );
export type CsvMapping = z.infer<typeof csvMappingSchema>;
export type CsvMappingInput = z.input<typeof csvMappingSchema>;

export const STATEMENT_FORMATS = ['csv', 'ofx', 'camt053'] as const;
export type StatementFormat = (typeof STATEMENT_FORMATS)[number];

/** Largest statement accepted in one request (characters of text). */
export const MAX_STATEMENT_CHARS = 60 * 1024 * 1024;

export const statementImportInputSchema = z.object({
  moneyAccountId: z.string().min(1, 'Choose the account this statement belongs to.'),
  fileName: z.string().trim().min(1).max(255),
  /** The file's text. */
  content: z
    .string()
    .min(1, 'The file is empty.')
    .max(MAX_STATEMENT_CHARS, 'The file is larger than 60 MB; split it.'),
  /** Detected from the name and content when left out. */
  format: z.enum(STATEMENT_FORMATS).optional(),
  /** Required for CSV; the account's remembered mapping is used when left out. */
  mapping: csvMappingSchema.optional(),
  /** Apply the company's categorisation rules to the new rows (default on). */
  applyRules: z.boolean().default(true),
  /**
   * Files with several statements (OFX, CAMT): the money account each goes to, by its index
   * in the preview's `statements`; null leaves that statement out. Unlisted statements go to
   * moneyAccountId.
   */
  statements: z
    .array(
      z.object({
        index: z.number().int().min(0).max(999),
        moneyAccountId: z.string().min(1).max(100).nullable(),
      }),
    )
    .max(1000)
    .optional(),
});
export type StatementImportInput = z.input<typeof statementImportInputSchema>;

export const previewRowSchema = z.object({
  line: z.number(),
  date: z.string(),
  amount: z.number(),
  description: z.string(),
  payee: z.string().nullable(),
  externalId: z.string().nullable(),
  duplicate: z.boolean(),
  ruleId: z.string().nullable(),
  categoryAccountId: z.string().nullable(),
  /** Which of the file's statements the row belongs to (index into the preview's statements). */
  statement: z.number().optional(),
});
export type PreviewRow = z.infer<typeof previewRowSchema>;

export const lineErrorSchema = z.object({ line: z.number(), reason: z.string() });

const statedBalanceSchema = z.object({ date: z.string(), amount: z.number() });

/** How many rows a statement holds: all of them, the new ones and those already there. */
const statementRowCounts = { totalRows: z.number(), newRows: z.number(), duplicateRows: z.number() };

/** Its money in and out, and the dates of its first and last row. */
const statementMoneySpan = {
  moneyIn: z.number(),
  moneyOut: z.number(),
  firstDate: z.string().nullable(),
  lastDate: z.string().nullable(),
};

/** One statement of a file (OFX/CAMT files may hold several accounts); amounts in its account's minor units. */
export const statementPartSchema = z.object({
  index: z.number(),
  /** Line in the file where the statement starts. */
  line: z.number(),
  kind: z.string(),
  accountNumber: z.string().nullable(),
  currency: z.string().nullable(),
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  /** Where it goes; null: left out. */
  moneyAccountId: z.string().nullable(),
  ...statementRowCounts,
  ...statementMoneySpan,
  openingBalance: statedBalanceSchema.nullable(),
  closingBalance: statedBalanceSchema.nullable(),
  /** What was left out on purpose, and balances that do not agree with the entries. */
  notices: z.array(z.string()),
});
export type StatementPart = z.infer<typeof statementPartSchema>;

export const statementPreviewSchema = z.object({
  format: z.enum(STATEMENT_FORMATS),
  /** Every statement in the file, each with its own account, period and balances. */
  statements: z.array(statementPartSchema),
  /** The character set the file's bytes were read in (uploads), e.g. "utf-8", "windows-1252". */
  encoding: z.string().nullable(),
  /**
   * Bytes of an upload that were not text in its character set and show as U+FFFD ("�"), and
   * the lines they are on (at most 20): the text of those lines is not exactly the file's.
   */
  unreadable: z.object({ bytes: z.number().int(), lines: z.array(z.number().int()) }).nullable(),
  currency: z.string().nullable(),
  accountNumber: z.string().nullable(),
  closingBalance: statedBalanceSchema.nullable(),
  ...statementRowCounts,
  categorizedByRules: z.number(),
  ...statementMoneySpan,
  /** The first rows (up to 500) for the preview table. */
  rows: z.array(previewRowSchema),
  mapping: csvMappingSchema.nullable(),
  /** CSV only: where the table was read (lines in the file) and the lines left out above and below it. */
  csvLayout: z
    .object({
      headerLine: z.number().nullable(),
      firstLine: z.number(),
      lastLine: z.number(),
      linesAbove: z.array(z.number()),
      linesBelow: z.array(z.number()),
      /** Rows with neither a date nor an amount, left out of the import and listed here. */
      leftOut: z.array(z.object({ line: z.number(), text: z.string() })),
      /** Rows added to the description of the transaction above (continuationRows: append). */
      joined: z.array(z.object({ line: z.number(), to: z.number() })).optional(),
    })
    .nullable()
    .optional(),
});
export type StatementPreview = z.infer<typeof statementPreviewSchema>;

/** The columns and first lines of a CSV, for the mapping step. */
export const csvSniffSchema = z.object({
  delimiter: z.enum(CSV_DELIMITERS),
  header: z.array(z.string()),
  sampleRows: z.array(z.array(z.string())),
  suggestedMapping: csvMappingSchema.nullable(),
  savedMapping: csvMappingSchema.nullable(),
  /** The file's first records and its last ones (index, line in the file, fields). */
  records: z.array(z.object({ index: z.number(), line: z.number(), fields: z.array(z.string()) })),
  totalRecords: z.number(),
  /** Every date format the date column's values fit; two or more: the user must choose. */
  dateFormatChoices: z.array(z.enum(CSV_DATE_FORMATS)),
  /** Amounts that read differently with a decimal point and a comma ("1,234"): the user must choose. */
  ambiguousAmounts: z.array(z.string()),
  /** What the detection found, in words (preamble, summary rows, ambiguities). */
  notes: z.array(z.string()),
});
export type CsvSniff = z.infer<typeof csvSniffSchema>;

export const statementImportResultSchema = z.object({
  /** null when every row was already there: a re-import adds nothing, not even a log row. */
  id: z.string().nullable(),
  imported: z.number(),
  duplicates: z.number(),
  categorizedByRules: z.number(),
  durationMs: z.number(),
  /** Per statement of the file: where it went and what it brought (one import log row each). */
  imports: z
    .array(
      z.object({
        index: z.number(),
        id: z.string().nullable(),
        moneyAccountId: z.string(),
        imported: z.number(),
        duplicates: z.number(),
      }),
    )
    .optional(),
});
export type StatementImportResult = z.infer<typeof statementImportResultSchema>;

/** How far a running import is: reading (parse, duplicates, rules), posting rows, finishing, done or failed. */
export const statementImportProgressSchema = z.object({
  phase: z.enum(['reading', 'posting', 'finishing', 'done', 'failed']),
  /** Rows posted so far, of `total` new rows (both 0 while reading). */
  done: z.number().int(),
  total: z.number().int(),
});
export type StatementImportProgress = z.infer<typeof statementImportProgressSchema>;
/** The header a commit's progress id travels in (a UUID the page chose). */
export const PROGRESS_ID_HEADER = 'x-progress-id';

export const statementImportSchema = z.object({
  id: z.string(),
  moneyAccountId: z.string(),
  fileName: z.string(),
  format: z.enum(STATEMENT_FORMATS),
  totalRows: z.number(),
  importedRows: z.number(),
  duplicateRows: z.number(),
  createdAt: z.string(),
});

// --- Transactions ---------------------------------------------------------------------

// 'payment': the register line of an invoice payment, its removal or a refund; its entry is the document's.
export const CATEGORY_KINDS = ['none', 'account', 'split', 'transfer', 'payment'] as const;

/** The documents a 'payment' line can be the register line of (invoicing's and payables'). */
export const REGISTER_SOURCE_KINDS = [
  'invoice_payment',
  'refund',
  'bill_payment',
  'bill_payment_batch',
  'supplier_refund',
] as const;
export type RegisterSourceKind = (typeof REGISTER_SOURCE_KINDS)[number];
export const REGISTER_SOURCE_LABELS: Record<RegisterSourceKind, string> = {
  invoice_payment: 'Invoice payment',
  refund: 'Refund',
  bill_payment: 'Bill payment',
  bill_payment_batch: 'Bill payment',
  supplier_refund: 'Supplier refund',
};

const signedMinor = minorAmount({ sign: 'any' });

/** Tax rate in basis points of a percent: 2000 = 20%. */
export const taxRateSchema = z
  .number()
  .int()
  .min(0, 'A tax rate cannot be negative.')
  .max(10000, 'A tax rate is at most 100%.');

export const splitInputSchema = z.object({
  categoryAccountId: z.string().min(1, 'Choose a category for every part.'),
  amount: signedMinor.refine((v) => v !== 0, 'A part of a split cannot be zero.'),
  description: z.string().trim().max(500).optional(),
});
export type SplitInput = z.infer<typeof splitInputSchema>;

export const transactionCreateSchema = z.object({
  moneyAccountId: z.string().min(1, 'Choose an account.'),
  date: isoDate,
  description: z.string().trim().min(1, 'Enter a description.').max(500),
  payee: z.string().trim().max(200).nullable().optional(),
  amount: signedMinor.refine((v) => v !== 0, 'Enter an amount other than zero.'),
  categoryAccountId: z.string().min(1).nullable().optional(),
  taxRate: taxRateSchema.nullable().optional(),
  notes: z.string().max(2000).optional(),
  /** Base-currency units per one unit of the account's currency, for a foreign account. */
  rate: rateTextSchema.optional(),
});
export type TransactionCreate = z.infer<typeof transactionCreateSchema>;

export const transactionUpdateSchema = z.object({
  date: isoDate.optional(),
  description: z.string().trim().min(1, 'Enter a description.').max(500).optional(),
  payee: z.string().trim().max(200).nullable().optional(),
  amount: signedMinor.refine((v) => v !== 0, 'Enter an amount other than zero.').optional(),
  /** null makes it uncategorised again. */
  categoryAccountId: z.string().min(1).nullable().optional(),
  taxRate: taxRateSchema.nullable().optional(),
  notes: z.string().max(2000).optional(),
  splits: z.array(splitInputSchema).min(2, 'A split needs at least two parts.').max(50).optional(),
});
export type TransactionUpdate = z.infer<typeof transactionUpdateSchema>;

export const bulkCategorizeSchema = z.object({
  transactionIds: z.array(z.string().min(1)).min(1, 'Select at least one transaction.').max(5000),
  categoryAccountId: z.string().min(1, 'Choose a category.'),
});
export const bulkCategorizeResultSchema = z.object({ updated: z.number(), unchanged: z.number() });

export const applyRulesInputSchema = z.object({ moneyAccountId: z.string().min(1).nullable().optional() });
export const applyRulesResultSchema = z.object({ categorized: z.number(), checked: z.number() });

/** The category account a part or a suggestion goes to, and its name. */
const categoryNamed = { categoryAccountId: z.string(), categoryName: z.string() };

export const splitSchema = z.object({
  lineNo: z.number(),
  ...categoryNamed,
  amount: z.number(),
  description: z.string().nullable(),
});

export const suggestionSchema = z.object({
  ...categoryNamed,
  /** How many earlier transactions with a similar description went to this category. */
  count: z.number(),
});

export const transactionSchema = z.object({
  id: z.string(),
  moneyAccountId: z.string(),
  moneyAccountName: z.string(),
  currency: z.string(),
  date: z.string(),
  description: z.string(),
  payee: z.string().nullable(),
  amount: z.number(),
  status: z.enum(TRANSACTION_STATUSES),
  categoryKind: z.enum(CATEGORY_KINDS),
  categoryAccountId: z.string().nullable(),
  categoryName: z.string().nullable(),
  transferId: z.string().nullable(),
  taxRate: z.number().nullable(),
  notes: z.string(),
  entryId: z.string().nullable(),
  importId: z.string().nullable(),
  externalId: z.string().nullable(),
  reconciliationId: z.string().nullable(),
  /** For a 'payment' line: the document it is the register line of, and the invoice it concerns. */
  source: z
    .object({
      kind: z.enum(REGISTER_SOURCE_KINDS),
      id: z.string(),
      invoiceId: z.string().nullable(),
    })
    .nullable(),
  splits: z.array(splitSchema),
  suggestion: suggestionSchema.nullable(),
  createdAt: z.string(),
});
export type Transaction = z.infer<typeof transactionSchema>;

export const TRANSACTION_SORTS = ['date', 'amount', 'description'] as const;

const csvList = z
  .string()
  .max(2000)
  .transform((s) => s.split(',').filter(Boolean));

export const transactionListQuerySchema = z.object({
  type: z.enum(['all', 'income', 'expense']).default('all'),
  moneyAccountId: z.string().max(100).optional(),
  /** A category account id, or "uncategorized". */
  categoryId: z.string().max(100).optional(),
  status: z.enum(TRANSACTION_STATUSES).optional(),
  ...optionalDateRange,
  /** Absolute amount bounds in minor units. */
  minAmount: z.coerce.number().pipe(minorAmount()).optional(),
  maxAmount: z.coerce.number().pipe(minorAmount()).optional(),
  search: searchText,
  sort: z.enum(TRANSACTION_SORTS).default('date'),
  direction: z.enum(['asc', 'desc']).default('desc'),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  cursor: z.string().max(500).optional(),
  ids: csvList.optional(),
  /** Candidates of a reconciliation: the account's unreconciled rows up to the statement date, and those ticked. */
  reconciliationId: z.string().max(100).optional(),
});
export type TransactionListQuery = z.input<typeof transactionListQuerySchema>;

export const transactionTotalsSchema = z.object({
  /** Per currency: the filter's count, money in and money out. */
  byCurrency: z.array(
    z.object({ currency: z.string(), count: z.number(), moneyIn: z.number(), moneyOut: z.number() }),
  ),
  count: z.number(),
});
export type TransactionTotals = z.infer<typeof transactionTotalsSchema>;

export const transactionPageSchema = cursorPage('transactions', transactionSchema);
export type TransactionPage = z.infer<typeof transactionPageSchema>;

// --- Rules ----------------------------------------------------------------------------

export const ruleInputSchema = z
  .object({
    name: z.string().trim().min(1, 'Name the rule.').max(120),
    priority: z.number().int().min(0).max(100000).default(100),
    enabled: z.boolean().default(true),
    descriptionContains: z.string().trim().max(200).nullable().default(null),
    payeeContains: z.string().trim().max(200).nullable().default(null),
    /** Absolute amount bounds in minor units. */
    minAmount: minorAmount().nullable().default(null),
    maxAmount: minorAmount().nullable().default(null),
    direction: z.enum(['any', 'in', 'out']).default('any'),
    moneyAccountId: z.string().min(1).nullable().default(null),
    setCategoryAccountId: z.string().min(1, 'Choose the category the rule sets.'),
    setPayee: z.string().trim().max(200).nullable().default(null),
    setTaxRate: taxRateSchema.nullable().default(null),
  })
  .refine(
    (r) =>
      r.descriptionContains ||
      r.payeeContains ||
      r.minAmount !== null ||
      r.maxAmount !== null ||
      r.moneyAccountId,
    {
      message: 'Give the rule at least one condition: text, amount range or account.',
      path: ['descriptionContains'],
    },
  )
  .refine((r) => r.minAmount === null || r.maxAmount === null || r.minAmount <= r.maxAmount, {
    message: 'The lowest amount must not be above the highest.',
    path: ['minAmount'],
  });
export type RuleInput = z.input<typeof ruleInputSchema>;

export const ruleSchema = z.object({
  id: z.string(),
  name: z.string(),
  priority: z.number(),
  enabled: z.boolean(),
  descriptionContains: z.string().nullable(),
  payeeContains: z.string().nullable(),
  minAmount: z.number().nullable(),
  maxAmount: z.number().nullable(),
  direction: z.enum(['any', 'in', 'out']),
  moneyAccountId: z.string().nullable(),
  setCategoryAccountId: z.string(),
  setCategoryName: z.string(),
  setPayee: z.string().nullable(),
  setTaxRate: z.number().nullable(),
});
export type Rule = z.infer<typeof ruleSchema>;
export const ruleListSchema = z.object({ rules: z.array(ruleSchema) });

// --- Reconciliation --------------------------------------------------------------------

export const reconciliationStartSchema = z.object({
  moneyAccountId: z.string().min(1, 'Choose an account.'),
  statementDate: isoDate,
  /** Signed minor units of the account's currency, as the statement shows it. */
  statementBalance: signedMinor,
});

export const reconciliationSchema = z.object({
  id: z.string(),
  moneyAccountId: z.string(),
  currency: z.string(),
  statementDate: z.string(),
  statementBalance: z.number(),
  /** The balance already reconciled before this statement. */
  openingBalance: z.number(),
  clearedBalance: z.number(),
  difference: z.number(),
  status: z.enum(['in_progress', 'completed', 'undone']),
  tickedIds: z.array(z.string()),
  completedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Reconciliation = z.infer<typeof reconciliationSchema>;
export const reconciliationListQuerySchema = z.object({ moneyAccountId: z.string().max(100).optional() });
export const reconciliationListSchema = z.object({ reconciliations: z.array(reconciliationSchema) });
export const reconciliationUndoSchema = z.object({ moneyAccountId: z.string().min(1) });

export const reconciliationTickSchema = z.object({
  transactionIds: z.array(z.string().min(1)).min(1).max(5000),
  ticked: z.boolean(),
});

/** Short, stable key of a description for finding similar transactions: lower case, no digits or punctuation. */
export const descriptionKey = (description: string) =>
  description
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z ]+/g, ' ')
    .split(' ')
    .filter((w) => w.length > 1)
    .slice(0, 3)
    .join(' ')
    .slice(0, 60);

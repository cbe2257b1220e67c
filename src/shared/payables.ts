import { z } from 'zod';
import { isoDate } from './input.ts';
import { RECURRING_FREQUENCIES } from './invoice-calc.ts';
import {
  currencySchema,
  documentRateSchema,
  minorUnitsSchema,
  optionalText,
  percentSchema,
  positiveAmountSchema,
  quantitySchema,
} from './invoice-catalog.ts';
import { AGING_BUCKETS } from './invoice-reports.ts';
import {
  amountInCurrency,
  cursorPage,
  cursorQuery,
  namedAmounts,
  numberedPageQuery,
  searchText,
} from './schema-parts.ts';

// Accounts payable (issue 15): the request and response shapes of suppliers, bills, approval,
// payments (one bill or a batch), supplier credits, recurring bills and the payables reports.
// The line calculation is invoicing's (shared/invoice-calc.ts): a bill line is an invoice line
// whose account is an expense (or asset) account.

const id = z.string().min(1).max(100);

// --- Status ------------------------------------------------------------------------------------

export const BILL_STORED_STATUSES = [
  'draft',
  'awaiting_approval',
  'open',
  'partially_paid',
  'paid',
  'void',
] as const;
export type BillStoredStatus = (typeof BILL_STORED_STATUSES)[number];
export const BILL_STATUSES = [...BILL_STORED_STATUSES, 'overdue'] as const;
export type BillStatus = (typeof BILL_STATUSES)[number];

export const BILL_STATUS_LABELS: Record<BillStatus, string> = {
  draft: 'Draft',
  awaiting_approval: 'Awaiting approval',
  open: 'Open',
  partially_paid: 'Partially paid',
  paid: 'Paid',
  overdue: 'Overdue',
  void: 'Void',
};

/** Overdue is derived: an open bill past its due date. Never stored, so never stale. */
export const billDisplayStatus = (stored: BillStoredStatus, dueDate: string, today: string): BillStatus =>
  (stored === 'open' || stored === 'partially_paid') && dueDate < today ? 'overdue' : stored;

export const PAYMENT_METHODS = ['bank_transfer', 'card', 'cash', 'check', 'direct_debit', 'other'] as const;

// --- Suppliers ---------------------------------------------------------------------------------

/** Which supplier a document or a row is about, with the supplier's name. */
export const supplierNamed = { supplierId: z.string(), supplierName: z.string() };

const email = z
  .string()
  .trim()
  .toLowerCase()
  .max(320)
  .refine((e) => e === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(e), 'Please enter a valid email address.');

export const supplierInputSchema = z.object({
  name: z.string().trim().min(1, 'Enter the supplier name.').max(200, 'At most 200 characters.'),
  company: optionalText(200).default(''),
  email: email.default(''),
  phone: optionalText(50).default(''),
  address: optionalText(1000).default(''),
  taxNumber: optionalText(50).default(''),
  /** The currency the supplier bills in; the company's base currency when left out. */
  currency: currencySchema.optional(),
  paymentTermsDays: z
    .number()
    .int()
    .min(0, 'Payment terms are 0 to 365 days.')
    .max(365, 'Payment terms are 0 to 365 days.')
    .default(30),
  /** The expense account a new bill line from this supplier starts with. */
  defaultAccountId: id.nullable().optional(),
  /** The tax a new bill line from this supplier starts with. */
  defaultTaxRateId: id.nullable().optional(),
  bankAccountName: optionalText(200).default(''),
  /** Account number or IBAN. */
  bankAccountNumber: optionalText(50).default(''),
  /** Sort code, routing number or BIC. */
  bankCode: optionalText(50).default(''),
  notes: optionalText(2000).default(''),
});
export type SupplierInput = z.input<typeof supplierInputSchema>;
export const supplierUpdateSchema = supplierInputSchema
  .partial()
  .extend({ archived: z.boolean().optional() });
export type SupplierUpdate = z.input<typeof supplierUpdateSchema>;

export const supplierSchema = z.object({
  id: z.string(),
  name: z.string(),
  company: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  taxNumber: z.string(),
  currency: z.string(),
  paymentTermsDays: z.number(),
  defaultAccountId: z.string().nullable(),
  defaultTaxRateId: z.string().nullable(),
  bankAccountName: z.string(),
  bankAccountNumber: z.string(),
  bankCode: z.string(),
  notes: z.string(),
  archived: z.boolean(),
  /** What the company owes the supplier on open bills, in the base currency. */
  balance: z.number(),
  /** Supplier credit not yet applied or refunded, in the base currency. */
  credit: z.number(),
  createdAt: z.string(),
});
export type Supplier = z.infer<typeof supplierSchema>;

export const supplierListQuerySchema = z.object({
  search: searchText,
  includeArchived: z.enum(['true', 'false']).optional(),
  ...numberedPageQuery(500, 50),
});
export type SupplierListQuery = z.infer<typeof supplierListQuerySchema>;
export const supplierListSchema = z.object({
  suppliers: z.array(supplierSchema),
  totalCount: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type SupplierList = z.infer<typeof supplierListSchema>;

/** A CSV of suppliers, as text (UTF-8) with a header row; see docs/payables.md for the columns. */
export const supplierImportSchema = z.object({
  csv: z.string().min(1, 'The file is empty.').max(5_000_000, 'The file is larger than 5 MB.'),
  /** Check and report without saving anything. */
  dryRun: z.boolean().default(false),
});
export const supplierImportResultSchema = z.object({
  created: z.number(),
  /** Rows whose supplier (same name, ignoring case) already exists: left as they are. */
  skipped: z.array(z.object({ line: z.number(), name: z.string(), reason: z.string() })),
  dryRun: z.boolean(),
});
export type SupplierImportResult = z.infer<typeof supplierImportResultSchema>;

/** A supplier statement: every bill, payment, credit and refund in a period with a running balance. */
export const supplierStatementQuerySchema = z.object({ from: isoDate.optional(), to: isoDate.optional() });
export const supplierStatementSchema = z.object({
  supplier: supplierSchema,
  from: z.string().nullable(),
  to: z.string(),
  currency: z.string(),
  openingBalance: z.number(),
  lines: z.array(
    z.object({
      date: z.string(),
      kind: z.enum(['bill', 'payment', 'credit', 'credit_applied', 'refund', 'void', 'payment_removed']),
      documentId: z.string(),
      number: z.string(),
      reference: z.string(),
      description: z.string(),
      /** What the company came to owe (bills) … */
      charges: z.number(),
      /** … and what settled it (payments, credits). */
      payments: z.number(),
      balance: z.number(),
    }),
  ),
  closingBalance: z.number(),
});
export type SupplierStatement = z.infer<typeof supplierStatementSchema>;

// --- Bills -------------------------------------------------------------------------------------

export const billLineInputSchema = z.object({
  itemId: id.nullable().optional(),
  description: z.string().trim().max(1000, 'At most 1000 characters.').default(''),
  quantity: quantitySchema,
  unitPrice: minorUnitsSchema,
  discountPercent: percentSchema('Discount').default('0'),
  /** The line's taxes; left out, the supplier's default tax (if any). An empty list is no tax. */
  taxRateIds: z.array(id).max(3, 'At most three taxes per line.').optional(),
  /** The expense (or asset) account; the supplier's default account when left out. */
  accountId: id.nullable().optional(),
});
export type BillLineInput = z.input<typeof billLineInputSchema>;

const billLines = z
  .array(billLineInputSchema)
  .min(1, 'Add at least one line.')
  .max(200, 'At most 200 lines.');

export const billInputSchema = z.object({
  supplierId: z.string().min(1, 'Choose a supplier.').max(100),
  /** The supplier's invoice number. Same supplier and reference twice is refused as a duplicate. */
  reference: optionalText(100).default(''),
  issueDate: isoDate,
  /** Defaults to the issue date plus the supplier's payment terms. */
  dueDate: isoDate.optional(),
  currency: currencySchema.optional(),
  /** Base-currency units per one unit of the bill's currency; the day's rate when left out. */
  exchangeRate: documentRateSchema.optional(),
  notes: optionalText(4000).default(''),
  lines: billLines,
});
export type BillInput = z.input<typeof billInputSchema>;
/** Only the fields sent change: reference and notes have no default here, so leaving them out keeps them. */
export const billUpdateSchema = billInputSchema
  .extend({ reference: optionalText(100).optional(), notes: optionalText(4000).optional() })
  .partial();
export type BillUpdate = z.input<typeof billUpdateSchema>;

export const billLineSchema = z.object({
  lineNo: z.number(),
  itemId: z.string().nullable(),
  description: z.string(),
  quantity: z.string(),
  unitPrice: z.number(),
  discountPercent: z.string(),
  taxRateIds: z.array(z.string()),
  accountId: z.string(),
  net: z.number(),
  tax: z.number(),
  total: z.number(),
});

export const billPaymentSchema = z.object({
  id: z.string(),
  billId: z.string(),
  batchId: z.string().nullable(),
  date: z.string(),
  ...amountInCurrency,
  exchangeRate: z.string(),
  /** The ledger account of the money account the money left. */
  paymentAccountId: z.string(),
  paymentAccountName: z.string(),
  method: z.string(),
  reference: z.string(),
  journalEntryId: z.string(),
  /** The bank line this payment is the cash of, when matched. */
  bankTransactionId: z.string().nullable(),
  reversed: z.boolean(),
  reversalEntryId: z.string().nullable(),
  createdAt: z.string(),
});
export type BillPayment = z.infer<typeof billPaymentSchema>;

export const billEventSchema = z.object({
  id: z.string(),
  at: z.string(),
  kind: z.string(),
  message: z.string(),
  actorName: z.string().nullable(),
});

export const billSummarySchema = z.object({
  id: z.string(),
  number: z.string(),
  ...supplierNamed,
  reference: z.string(),
  issueDate: z.string(),
  dueDate: z.string(),
  currency: z.string(),
  total: z.number(),
  amountDue: z.number(),
  status: z.enum(BILL_STATUSES),
  storedStatus: z.enum(BILL_STORED_STATUSES),
});
export type BillSummary = z.infer<typeof billSummarySchema>;

export const billSchema = billSummarySchema.extend({
  exchangeRate: z.string(),
  notes: z.string(),
  subtotal: z.number(),
  discountTotal: z.number(),
  taxTotal: z.number(),
  amountPaid: z.number(),
  amountCredited: z.number(),
  totalBase: z.number(),
  balanceBase: z.number(),
  taxes: z.array(
    z.object({
      taxRateId: z.string(),
      name: z.string(),
      percent: z.string(),
      taxable: z.number(),
      amount: z.number(),
    }),
  ),
  lines: z.array(billLineSchema),
  payments: z.array(billPaymentSchema),
  creditsApplied: z.array(
    z.object({
      id: z.string(),
      creditId: z.string(),
      creditNumber: z.string(),
      date: z.string(),
      amount: z.number(),
      reversed: z.boolean(),
    }),
  ),
  history: z.array(billEventSchema),
  attachments: z.array(
    z.object({
      id: z.string(),
      fileName: z.string(),
      contentType: z.string(),
      sizeBytes: z.number(),
      createdAt: z.string(),
    }),
  ),
  /** Whether the bill's total is above the company's approval threshold. */
  needsApproval: z.boolean(),
  submittedAt: z.string().nullable(),
  submittedBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  approvedBy: z.string().nullable(),
  journalEntryId: z.string().nullable(),
  voidEntryId: z.string().nullable(),
  scheduleId: z.string().nullable(),
  supplier: supplierSchema.pick({
    name: true,
    company: true,
    email: true,
    address: true,
    taxNumber: true,
    bankAccountName: true,
    bankAccountNumber: true,
    bankCode: true,
  }),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Bill = z.infer<typeof billSchema>;

export const billListQuerySchema = z.object({
  status: z.enum([...BILL_STATUSES, 'all']).default('all'),
  search: searchText,
  supplierId: id.optional(),
  /** Bills due on or before this date (the payment run). */
  dueBy: isoDate.optional(),
  ...cursorQuery(200, 50),
});
export type BillListQuery = z.input<typeof billListQuerySchema>;

export const billListSchema = cursorPage('bills', billSummarySchema).extend({ baseCurrency: z.string() });
export type BillList = z.infer<typeof billListSchema>;

/** Counts and amounts per status, in the base currency (the list's tabs and the dashboard). */
export const billTotalsSchema = z.object({
  baseCurrency: z.string(),
  totals: z.record(
    z.enum([...BILL_STATUSES, 'all']),
    z.object({ count: z.number(), total: z.number(), amountDue: z.number() }),
  ),
});
export type BillTotals = z.infer<typeof billTotalsSchema>;

/** Refused as a duplicate (409 duplicate_bill): the live bill with the same supplier and reference. */
export const duplicateBillDetailsSchema = z.object({ billId: z.string(), number: z.string() });

export const voidBillSchema = z.object({ reason: optionalText(1000).default('') });
export const rejectBillSchema = z.object({ reason: optionalText(1000).default('') });

// --- Approval threshold ------------------------------------------------------------------------

export const payablesSettingsSchema = z.object({
  /** Bills whose total in the base currency is above this need approval; null: none do. */
  approvalThreshold: z.number().nullable(),
  billPrefix: z.string(),
  nextBillNumber: z.number(),
  baseCurrency: z.string(),
});
export type PayablesSettings = z.infer<typeof payablesSettingsSchema>;
export const payablesSettingsUpdateSchema = z.object({
  approvalThreshold: minorUnitsSchema
    .refine((a) => a >= 0, 'The threshold cannot be negative.')
    .nullable()
    .optional(),
  billPrefix: z
    .string()
    .trim()
    .max(20, 'The prefix is at most 20 characters.')
    .regex(/^[A-Za-z0-9/_.-]*$/, 'The prefix may use letters, digits and - _ / . only.')
    .optional(),
});

// --- Paying ------------------------------------------------------------------------------------

export const billPaymentInputSchema = z.object({
  date: isoDate,
  amount: positiveAmountSchema('payment amount'),
  /** The ledger account of the money account the money left (MoneyAccount.ledgerAccountId). */
  paymentAccountId: z.string().min(1, 'Choose the account the money left.').max(100),
  method: z.enum(PAYMENT_METHODS).default('bank_transfer'),
  reference: optionalText(100).default(''),
  /** Rate on the payment date for a foreign-currency bill; the day's rate when left out. */
  exchangeRate: documentRateSchema.optional(),
});
export type BillPaymentInput = z.input<typeof billPaymentInputSchema>;

/** Pays several bills at once from one money account: one journal entry, one bank line. */
export const billBatchPaymentInputSchema = z.object({
  date: isoDate,
  paymentAccountId: id,
  method: z.enum(PAYMENT_METHODS).default('bank_transfer'),
  reference: optionalText(100).default(''),
  bills: z
    .array(z.object({ billId: id, amount: positiveAmountSchema('amount paid') }))
    .min(1, 'Choose at least one bill.')
    .max(200, 'A batch pays at most 200 bills.'),
});
export type BillBatchPaymentInput = z.input<typeof billBatchPaymentInputSchema>;
export const billBatchPaymentSchema = z.object({
  id: z.string(),
  date: z.string(),
  ...amountInCurrency,
  billCount: z.number(),
  paymentAccountId: z.string(),
  reference: z.string(),
  journalEntryId: z.string(),
  payments: z.array(billPaymentSchema),
  reversed: z.boolean(),
});
export type BillBatchPayment = z.infer<typeof billBatchPaymentSchema>;

/** The payment run: open bills due by a date (default a week from today), by supplier. */
export const paymentRunQuerySchema = z.object({ dueBy: isoDate.optional() });
export const paymentRunSchema = z.object({
  dueBy: z.string(),
  today: z.string(),
  baseCurrency: z.string(),
  suppliers: z.array(
    z.object({
      ...supplierNamed,
      bankAccountNumber: z.string(),
      bankCode: z.string(),
      bills: z.array(billSummarySchema),
      /** Per currency: what is due on these bills. */
      totals: z.array(z.object(amountInCurrency)),
    }),
  ),
  totals: z.array(z.object(amountInCurrency)),
  billCount: z.number(),
});
export type PaymentRun = z.infer<typeof paymentRunSchema>;

// --- Supplier credits --------------------------------------------------------------------------

export const supplierCreditInputSchema = z.object({
  supplierId: id,
  reference: optionalText(100).default(''),
  date: isoDate,
  currency: currencySchema.optional(),
  exchangeRate: documentRateSchema.optional(),
  reason: optionalText(1000).default(''),
  lines: billLines,
});
export type SupplierCreditInput = z.input<typeof supplierCreditInputSchema>;

export const supplierCreditSchema = z.object({
  id: z.string(),
  number: z.string(),
  ...supplierNamed,
  reference: z.string(),
  date: z.string(),
  currency: z.string(),
  exchangeRate: z.string(),
  reason: z.string(),
  status: z.enum(['issued', 'void']),
  subtotal: z.number(),
  taxTotal: z.number(),
  total: z.number(),
  amountApplied: z.number(),
  amountRefunded: z.number(),
  amountLeft: z.number(),
  journalEntryId: z.string(),
  lines: z.array(billLineSchema),
  allocations: z.array(
    z.object({
      id: z.string(),
      billId: z.string(),
      billNumber: z.string(),
      date: z.string(),
      amount: z.number(),
      reversed: z.boolean(),
    }),
  ),
  refunds: z.array(
    z.object({
      id: z.string(),
      date: z.string(),
      amount: z.number(),
      paymentAccountId: z.string(),
      reference: z.string(),
      journalEntryId: z.string(),
      reversed: z.boolean(),
    }),
  ),
  createdAt: z.string(),
});
export type SupplierCredit = z.infer<typeof supplierCreditSchema>;
export const supplierCreditListQuerySchema = z.object({
  supplierId: id.optional(),
  openOnly: z.enum(['true', 'false']).optional(),
  ...cursorQuery(200, 50),
});
export const supplierCreditListSchema = cursorPage(
  'credits',
  supplierCreditSchema.omit({ lines: true, allocations: true, refunds: true }),
);
export type SupplierCreditList = z.infer<typeof supplierCreditListSchema>;

export const applySupplierCreditSchema = z.object({
  billId: id,
  amount: positiveAmountSchema('amount applied'),
  date: isoDate.optional(),
});
export const supplierRefundInputSchema = z.object({
  date: isoDate,
  amount: positiveAmountSchema('refund'),
  /** The ledger account of the money account the refund came into. */
  paymentAccountId: id,
  reference: optionalText(100).default(''),
});
export const voidSupplierCreditSchema = z.object({ reason: optionalText(1000).default('') });

// --- Recurring bills ---------------------------------------------------------------------------

export const billScheduleInputSchema = z
  .object({
    supplierId: id,
    frequency: z.enum(RECURRING_FREQUENCIES),
    startDate: isoDate,
    endDate: isoDate.nullable().optional(),
    count: z.number().int().min(1).max(1000).nullable().optional(),
    /** Submit each bill as it is created; otherwise it waits as a draft. */
    autoSubmit: z.boolean().default(false),
    currency: currencySchema.optional(),
    exchangeRate: documentRateSchema.optional(),
    paymentTermsDays: z.number().int().min(0).max(365).optional(),
    reference: optionalText(100).default(''),
    notes: optionalText(4000).default(''),
    lines: billLines,
  })
  .refine((r) => !r.endDate || r.endDate >= r.startDate, {
    message: 'The end date must be on or after the start date.',
    path: ['endDate'],
  });
export type BillScheduleInput = z.input<typeof billScheduleInputSchema>;

export const billScheduleSchema = z.object({
  id: z.string(),
  ...supplierNamed,
  frequency: z.enum(RECURRING_FREQUENCIES),
  startDate: z.string(),
  endDate: z.string().nullable(),
  count: z.number().nullable(),
  autoSubmit: z.boolean(),
  status: z.enum(['active', 'paused', 'ended']),
  nextDate: z.string().nullable(),
  createdCount: z.number(),
  currency: z.string(),
  total: z.number(),
  reference: z.string(),
});
export type BillSchedule = z.infer<typeof billScheduleSchema>;
export const billScheduleListSchema = z.object({ schedules: z.array(billScheduleSchema) });
export const billScheduleStatusSchema = z.object({ status: z.enum(['active', 'paused', 'ended']) });

// --- Reports -----------------------------------------------------------------------------------

const bucketAmounts = namedAmounts([...AGING_BUCKETS, 'total']);
export const payablesAgingSchema = z.object({
  asOf: z.string(),
  currency: z.string(),
  rows: z.array(bucketAmounts.extend(supplierNamed)),
  totals: bucketAmounts,
  /** The accounts payable balance in the ledger on `asOf`, for comparison. */
  ledgerBalance: z.number(),
});
export type PayablesAging = z.infer<typeof payablesAgingSchema>;
export const payablesAgingQuerySchema = z.object({
  asOf: isoDate.optional(),
  format: z.enum(['json', 'csv', 'pdf']).default('json'),
});

// --- OpenAPI examples --------------------------------------------------------------------------
// A request body an integrator can start from, for each payables write. Registered on the schema
// instances themselves (zod's global registry, which the OpenAPI document reads), so the
// schemas' shapes do not change; derived schemas (partial, extend) carry none.

const SUPPLIER = '5f0c2a7e-9b1d-4c3e-8f2a-1d2e3f4a5b6c';
const BILL = 'a41e7c90-3d2b-4f1a-9e8c-7b6a5d4c3b2a';
const ACCOUNT = '0b9f6e2d-8c7a-4b5d-a3e1-f2c4d6e8a0b1';
const TAX_RATE = 'c3d5e7f9-1a2b-4c6d-8e0f-2a4b6c8d0e1f';
const MONEY_LEDGER = '7e6d5c4b-3a29-4180-9f8e-7d6c5b4a3928';
const paperLine = {
  description: 'Printer paper, A4 box',
  quantity: '10',
  unitPrice: 1250,
  accountId: ACCOUNT,
  taxRateIds: [TAX_RATE],
};
export const PAYABLES_EXAMPLES: [z.ZodType, unknown][] = [
  [
    supplierInputSchema,
    {
      name: 'Northwind Paper Ltd',
      email: 'accounts@northwind-paper.example',
      taxNumber: 'GB123456789',
      currency: 'GBP',
      paymentTermsDays: 30,
      defaultAccountId: ACCOUNT,
      defaultTaxRateId: TAX_RATE,
      bankAccountName: 'Northwind Paper Ltd',
      bankAccountNumber: 'GB33BUKB20201555555555',
      bankCode: 'BUKBGB22',
    },
  ],
  [
    supplierImportSchema,
    {
      csv: 'name,email,payment_terms_days\nNorthwind Paper Ltd,accounts@northwind-paper.example,30\n',
      dryRun: true,
    },
  ],
  [
    billInputSchema,
    { supplierId: SUPPLIER, reference: 'INV-2291', issueDate: '2026-11-20', lines: [paperLine] },
  ],
  [payablesSettingsUpdateSchema, { approvalThreshold: 100000, billPrefix: 'BILL-' }],
  [
    billPaymentInputSchema,
    {
      date: '2026-11-27',
      amount: 15000,
      paymentAccountId: MONEY_LEDGER,
      method: 'bank_transfer',
      reference: 'INV-2291',
    },
  ],
  [
    billBatchPaymentInputSchema,
    {
      date: '2026-11-27',
      paymentAccountId: MONEY_LEDGER,
      reference: 'Payment run 48',
      bills: [{ billId: BILL, amount: 15000 }],
    },
  ],
  [
    supplierCreditInputSchema,
    {
      supplierId: SUPPLIER,
      reference: 'CN-118',
      date: '2026-11-24',
      reason: 'Two boxes returned',
      lines: [{ ...paperLine, quantity: '2' }],
    },
  ],
  [applySupplierCreditSchema, { billId: BILL, amount: 3000 }],
  [
    supplierRefundInputSchema,
    { date: '2026-11-28', amount: 3000, paymentAccountId: MONEY_LEDGER, reference: 'Refund CN-118' },
  ],
  [
    billScheduleInputSchema,
    {
      supplierId: SUPPLIER,
      frequency: 'monthly',
      startDate: '2026-12-01',
      autoSubmit: true,
      reference: 'RENT',
      lines: [{ description: 'Office rent', quantity: '1', unitPrice: 150000, accountId: ACCOUNT }],
    },
  ],
];
for (const [schema, example] of PAYABLES_EXAMPLES) z.globalRegistry.add(schema, { examples: [example] });

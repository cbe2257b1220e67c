import type { ColumnType, Generated } from 'kysely';
import type { RegisterSourceKind } from '../../shared/transactions.ts';

// Table types. Each module adds its tables here next to its migration.

// Selected as Date; optional on insert (the column has a default or is nullable).
export type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;

export type AuditLogTable = {
  organization_id: string;
  id: Generated<string>;
  actor_user_id: string | null;
  action: string;
  entity_type: string;
  entity_id: string;
  before: unknown | null;
  after: unknown | null;
  created_at: Timestamp;
  /** The API key a change was made with (migration 20261128_1470); null for the web app. */
  api_key_id: ColumnType<string | null, string | null | undefined, string | null>;
};

export type Role = 'owner' | 'admin' | 'accountant' | 'member' | 'viewer';

export type OrganizationsTable = {
  id: string;
  name: string;
  base_currency: string;
  fiscal_year_start_month: ColumnType<number, number | undefined, number>;
  country: string | null;
  time_zone: ColumnType<string, string | undefined, string>;
  /** Printed on invoices (migration 0500). */
  address: ColumnType<string | null, string | null | undefined, string | null>;
  tax_number: ColumnType<string | null, string | null | undefined, string | null>;
  logo_data: ColumnType<Buffer | null, Buffer | null | undefined, Buffer | null>;
  logo_content_type: ColumnType<string | null, string | null | undefined, string | null>;
  created_by: string;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type OrganizationMembersTable = {
  organization_id: string;
  user_id: string;
  role: Role;
  created_at: Timestamp;
};

export type OrganizationInvitationsTable = {
  organization_id: string;
  id: string;
  email: string;
  role: Exclude<Role, 'owner'>;
  status: ColumnType<'pending' | 'accepted' | 'declined' | 'revoked', string | undefined, string>;
  invited_by: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  responded_at: Timestamp | null;
};

export type ContactMessagesTable = {
  id: Generated<string>;
  name: string;
  email: string;
  company: string;
  message: string;
  ip: string | null;
  user_agent: string | null;
  created_at: Timestamp;
  /** The admin console's inbox state (migration 20261128_0100). */
  read_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  replied_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
};

/** Better Auth's user table (read-only here: the auth module writes it). */
export type UserTable = {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
  image: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  banned: boolean | null;
  role: string | null;
  twoFactorEnabled: boolean | null;
  banReason: string | null;
};

// Ledger (modules/ledger): see migration 20261121_0400_ledger.ts.
export type AccountType = 'asset' | 'liability' | 'equity' | 'income' | 'expense';
export type JournalSource =
  | 'manual'
  | 'invoice'
  | 'payment'
  | 'bank'
  | 'transfer'
  | 'opening_balance'
  | 'year_end_close'
  | 'reversal'
  | 'bill'
  | 'bill_payment'
  | 'supplier_credit';
export type JournalStatus = 'draft' | 'pending_approval' | 'posted';

export type LedgerSettingsTable = {
  organization_id: string;
  lock_date: string | null;
  approval_required: ColumnType<boolean, boolean | undefined, boolean>;
  next_entry_number: ColumnType<number, number | undefined, number>;
  /** Sum of debit + credit + foreign amount of every posted line (numeric, as text); kept by trigger. */
  posted_volume: ColumnType<string, never, never>;
  updated_at: Timestamp;
};

export type AccountsTable = {
  organization_id: string;
  id: string;
  code: string;
  name: string;
  type: AccountType;
  subtype: string;
  parent_id: string | null;
  currency: string;
  description: ColumnType<string, string | undefined, string>;
  system_key: string | null;
  archived_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

/** Journal files imported into a company (hledger/ledger), by fingerprint (decision 0018). */
export type JournalImportsTable = {
  organization_id: string;
  id: string;
  fingerprint: string;
  entries: number;
  created_accounts: number;
  imported_by: string | null;
  created_at: Timestamp;
};

export type JournalEntriesTable = {
  organization_id: string;
  id: string;
  number: number | null;
  date: string;
  memo: ColumnType<string, string | undefined, string>;
  reference: string | null;
  source: JournalSource;
  source_id: string | null;
  status: JournalStatus;
  reverses_entry_id: string | null;
  is_closing: ColumnType<boolean, boolean | undefined, boolean>;
  created_by: string | null;
  approved_by: string | null;
  posted_by: string | null;
  posted_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type JournalLineColumns = {
  organization_id: string;
  entry_id: string;
  line_no: number;
  account_id: string;
  debit: number;
  credit: number;
  currency: string | null;
  amount: number | null;
  /** numeric: read as a decimal string. */
  rate: string | null;
  description: string | null;
  contact_id: string | null;
};

export type JournalLinesTable = JournalLineColumns & {
  date: string;
  entry_number: number;
  is_closing: ColumnType<boolean, boolean | undefined, boolean>;
};

export type JournalDraftLinesTable = JournalLineColumns;

export type AccountPeriodBalancesTable = {
  organization_id: string;
  account_id: string;
  period: string;
  is_closing: boolean;
  debit: number;
  credit: number;
};

export type FiscalYearClosesTable = {
  organization_id: string;
  id: string;
  end_date: string;
  start_date: string;
  close_entry_id: string | null;
  closed_by: string | null;
  closed_at: Timestamp;
  reopen_entry_id: string | null;
  reopened_by: string | null;
  reopened_at: Timestamp | null;
};

export type JournalAttachmentsTable = {
  organization_id: string;
  id: string;
  entry_id: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  /** A file on disk (storage 'disk', uploaded before 20261124_0500) or an object's key (storage 's3'). */
  storage_key: string | null;
  data: Buffer | null;
  /** Where the bytes are: 'database' (data), 'disk' or 's3' (storage_key); decision 0043. */
  storage: ColumnType<AttachmentStorage, AttachmentStorage | undefined, AttachmentStorage>;
  created_by: string | null;
  created_at: Timestamp;
};

export type AttachmentStorage = 'database' | 'disk' | 's3';

/** Objects of the attachment store to delete (decision 0043); keys hold the company's id. */
export type AttachmentObjectSweepTable = {
  key: string;
  reason: 'deleted' | 'upload';
  not_before: Date | null;
  attempts: ColumnType<number, number | undefined, number>;
  last_error: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
};

export type IdempotencyKeysTable = {
  organization_id: string;
  key: string;
  scope: string;
  request_hash: string;
  status_code: number | null;
  response: unknown | null;
  created_at: Timestamp;
};

// Accounts (src/server/auth, modules/profile, mail, promo): migrations 0110 and 0120.
export type AuthSessionTable = {
  id: string;
  expiresAt: Timestamp;
  token: string;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  ipAddress: string | null;
  userAgent: string | null;
  userId: string;
};

export type VerificationTable = {
  id: string;
  identifier: string;
  value: string;
  expiresAt: Timestamp;
  createdAt: Timestamp;
  updatedAt: Timestamp;
};

export type UserProfilesTable = {
  user_id: string;
  email: string;
  first_name: ColumnType<string, string | undefined, string>;
  last_name: ColumnType<string, string | undefined, string>;
  display_name: ColumnType<string, string | undefined, string>;
  phone: ColumnType<string, string | undefined, string>;
  company: ColumnType<string, string | undefined, string>;
  role: ColumnType<string, string | undefined, string>;
  timezone: ColumnType<string, string | undefined, string>;
  photo_url: ColumnType<string, string | undefined, string>;
  is_active: ColumnType<boolean, boolean | undefined, boolean>;
  preferences: ColumnType<unknown, string, string>;
  security: ColumnType<unknown, string, string>;
  created_at: Timestamp;
  last_login_at: Timestamp | null;
  updated_at: Timestamp;
};

export type UserPhotosTable = {
  user_id: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  data: Buffer;
  created_at: Timestamp;
};

export type MailOutboxTable = {
  id: Generated<string>;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  attachments: ColumnType<unknown, string | undefined, string>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
};

export type PromoCodesTable = {
  code: string;
  plan_access: string;
  description: string | null;
  expires_at: Timestamp | null;
  max_redemptions: number | null;
  redemption_count: Generated<number>;
  created_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** Migration 20261128_0100: what the code does (PromoKind in src/shared/billing.ts). */
  kind: ColumnType<'plan_access' | 'trial_extension' | 'discount', string | undefined, string>;
  trial_days: ColumnType<number | null, number | null | undefined, number | null>;
  percent_off: ColumnType<number | null, number | null | undefined, number | null>;
  access_days: ColumnType<number | null, number | null | undefined, number | null>;
  updated_at: Timestamp;
};

export type PromoRedemptionsTable = {
  code: string;
  user_id: string;
  plan_access: string;
  redeemed_at: ColumnType<Date, Date | string | undefined, Date | string>;
  kind: ColumnType<string, string | undefined, string>;
};

// Billing and the admin console (modules/billing, modules/admin): migration 20261128_0100.
type Nullable<T> = ColumnType<T | null, T | null | undefined, T | null>;
type NullableTime = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;

export type BillingAccountsTable = {
  user_id: string;
  plan: 'personal' | 'business' | 'enterprise';
  interval: 'monthly' | 'yearly';
  status: ColumnType<
    SubscriptionStatusColumn,
    SubscriptionStatusColumn | undefined,
    SubscriptionStatusColumn
  >;
  trial_ends_at: Timestamp;
  provider: ColumnType<'local' | 'stripe', 'local' | 'stripe' | undefined, 'local' | 'stripe'>;
  customer_id: Nullable<string>;
  subscription_id: Nullable<string>;
  current_period_end: NullableTime;
  cancel_at_period_end: ColumnType<boolean, boolean | undefined, boolean>;
  canceled_at: NullableTime;
  payment_method: ColumnType<unknown | null, string | null | undefined, string | null>;
  discount_code: Nullable<string>;
  percent_off: Nullable<number>;
  granted_plan: Nullable<'personal' | 'business' | 'enterprise'>;
  granted_until: NullableTime;
  state_changed_at: NullableTime;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type SubscriptionStatusColumn =
  | 'trialing'
  | 'active'
  | 'past_due'
  | 'canceled'
  | 'unpaid'
  | 'incomplete';

export type BillingEventsTable = {
  provider: string;
  event_id: string;
  type: string;
  user_id: string | null;
  event_created_at: Date | string;
  outcome: 'applied' | 'stale' | 'ignored';
  received_at: Timestamp;
};

export type BillingInvoicesTable = {
  provider: string;
  id: string;
  user_id: string;
  number: ColumnType<string, string | undefined, string>;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  currency: string;
  amount_due: number;
  amount_paid: number;
  description: ColumnType<string, string | undefined, string>;
  period_start: NullableTime;
  period_end: NullableTime;
  hosted_url: Nullable<string>;
  pdf_url: Nullable<string>;
  created_at: ColumnType<Date, Date | string, Date | string>;
};

export type BillingCheckoutsTable = {
  id: string;
  user_id: string;
  plan: 'personal' | 'business' | 'enterprise';
  interval: 'monthly' | 'yearly';
  percent_off: Nullable<number>;
  status: ColumnType<
    'open' | 'requires_action' | 'complete' | 'failed' | 'expired',
    'open' | 'requires_action' | 'complete' | 'failed' | 'expired' | undefined,
    'open' | 'requires_action' | 'complete' | 'failed' | 'expired'
  >;
  failure: Nullable<string>;
  created_at: Timestamp;
  completed_at: NullableTime;
};

export type PlatformAdminsTable = {
  user_id: string;
  granted_by: Nullable<string>;
  granted_at: Timestamp;
};

export type AdminAuditLogTable = {
  id: Generated<string>;
  admin_user_id: string;
  admin_email: string;
  action: string;
  target_type: string;
  target_id: string;
  details: ColumnType<unknown | null, string | null | undefined, string | null>;
  created_at: Timestamp;
};

// Invoices (modules/invoices): see migration 20261121_0500_invoices.ts.
type Defaulted<T> = ColumnType<T, T | undefined, T>;

export type InvoiceSettingsTable = {
  organization_id: string;
  invoice_prefix: Defaulted<string>;
  next_invoice_number: Defaulted<number>;
  credit_note_prefix: Defaulted<string>;
  next_credit_note_number: Defaulted<number>;
  default_terms: Defaulted<string>;
  default_notes: Defaulted<string>;
  updated_at: Timestamp;
};

export type CustomersTable = {
  organization_id: string;
  id: string;
  name: string;
  company: Defaulted<string>;
  email: Defaulted<string>;
  phone: Defaulted<string>;
  billing_address: Defaulted<string>;
  tax_number: Defaulted<string>;
  currency: string;
  payment_terms_days: Defaulted<number>;
  notes: Defaulted<string>;
  archived_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type TaxRatesTable = {
  organization_id: string;
  id: string;
  name: string;
  percent: string;
  account_id: string;
  inclusive: Defaulted<boolean>;
  compound: Defaulted<boolean>;
  archived_at: Timestamp | null;
  created_at: Timestamp;
};

export type ItemsTable = {
  organization_id: string;
  id: string;
  name: string;
  description: Defaulted<string>;
  unit_price: number;
  income_account_id: string;
  tax_rate_id: string | null;
  archived_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type InvoiceStatusValue = 'draft' | 'sent' | 'partially_paid' | 'paid' | 'void';

export type InvoicesTable = {
  organization_id: string;
  id: string;
  number: string | null;
  customer_id: string;
  issue_date: string;
  due_date: string;
  currency: string;
  exchange_rate: Defaulted<string>;
  reference: Defaulted<string>;
  notes: Defaulted<string>;
  terms: Defaulted<string>;
  status: Defaulted<InvoiceStatusValue>;
  subtotal: Defaulted<number>;
  discount_total: Defaulted<number>;
  tax_total: Defaulted<number>;
  total: Defaulted<number>;
  amount_paid: Defaulted<number>;
  amount_credited: Defaulted<number>;
  amount_due: Generated<number>;
  total_base: Defaulted<number>;
  balance_base: Defaulted<number>;
  journal_entry_id: string | null;
  void_entry_id: string | null;
  voided_at: Timestamp | null;
  sent_at: Timestamp | null;
  emailed_at: Timestamp | null;
  recurring_schedule_id: string | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type InvoiceLinesTable = {
  organization_id: string;
  document_id: string;
  line_no: number;
  item_id: string | null;
  description: Defaulted<string>;
  quantity: string;
  unit_price: number;
  discount_percent: Defaulted<string>;
  tax_rate_ids: ColumnType<string[], string, string>;
  account_id: string;
  gross: number;
  discount: number;
  net: number;
  tax: number;
  total: number;
  taxes: ColumnType<{ taxRateId: string; base: number; amount: number }[], string, string>;
};

export type InvoicePaymentsTable = {
  organization_id: string;
  id: string;
  invoice_id: string;
  date: string;
  amount: number;
  currency: string;
  exchange_rate: Defaulted<string>;
  amount_base: number;
  deposit_base: number;
  deposit_account_id: string;
  method: string;
  reference: Defaulted<string>;
  journal_entry_id: string;
  reversal_entry_id: string | null;
  reversed_at: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
  /** The part of `amount` kept as customer credit (migration 20261125_0500). */
  credit_amount: Defaulted<number>;
};

export type CreditNotesTable = {
  organization_id: string;
  id: string;
  number: string;
  invoice_id: string;
  date: string;
  reason: Defaulted<string>;
  status: Defaulted<'issued' | 'void'>;
  subtotal: number;
  tax_total: number;
  total: number;
  currency: string;
  exchange_rate: Defaulted<string>;
  amount_base: number;
  journal_entry_id: string;
  void_entry_id: string | null;
  created_by: string | null;
  created_at: Timestamp;
  /** The part of `total` that went to customer credit (migration 20261125_0500). */
  to_credit: Defaulted<number>;
};

export type CustomerCreditEntriesTable = {
  organization_id: string;
  id: string;
  customer_id: string;
  currency: string;
  date: string;
  kind:
    | 'overpayment'
    | 'credit_note'
    | 'applied'
    | 'refund'
    | 'payment_removed'
    | 'credit_note_voided'
    | 'exchange';
  amount: number;
  amount_base: number;
  exchange_rate: Defaulted<string>;
  receivable_base: Defaulted<number>;
  invoice_id: string | null;
  payment_id: string | null;
  credit_note_id: string | null;
  money_account_id: string | null;
  journal_entry_id: string | null;
  reference: Defaulted<string>;
  created_by: string | null;
  created_at: Timestamp;
};

export type InvoiceTaxPostingsTable = {
  organization_id: string;
  document_id: string;
  tax_rate_id: string;
  date: string;
  taxable_base: number;
  tax_base: number;
};

export type RecurringSchedulesTable = {
  organization_id: string;
  id: string;
  customer_id: string;
  frequency: 'weekly' | 'monthly' | 'quarterly' | 'yearly';
  start_date: string;
  end_date: string | null;
  max_count: number | null;
  auto_send: Defaulted<boolean>;
  status: Defaulted<'active' | 'paused' | 'ended'>;
  next_index: Defaulted<number>;
  next_date: string | null;
  currency: string;
  exchange_rate: Defaulted<string>;
  payment_terms_days: number;
  reference: Defaulted<string>;
  notes: Defaulted<string>;
  terms: Defaulted<string>;
  lines: ColumnType<unknown, string, string>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type RecurringRunsTable = {
  organization_id: string;
  schedule_id: string;
  occurrence_date: string;
  invoice_id: string;
  created_at: Timestamp;
};

export type InvoiceEventsTable = {
  organization_id: string;
  id: string;
  invoice_id: string;
  kind: string;
  message: string;
  actor_user_id: string | null;
  created_at: Timestamp;
  seq: Generated<number>;
};

// --- Wallet and bank transactions (migration 0600) ---------------------------------------

type WithDefault<T> = ColumnType<T, T | undefined, T>;

export type MoneyAccountKind = 'bank' | 'cash' | 'credit_card' | 'loan' | 'payment_processor';

export type MoneyAccountsTable = {
  organization_id: string;
  id: string;
  ledger_account_id: string;
  name: string;
  kind: MoneyAccountKind;
  currency: string;
  institution: WithDefault<string>;
  account_number_last4: string | null;
  opening_balance: WithDefault<number>;
  opening_date: string;
  opening_entry_id: string | null;
  /** The company's deposit account: at most one per company (migration 20261125_0200). */
  is_default_deposit: WithDefault<boolean>;
  csv_mapping: unknown | null;
  archived_at: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type ExchangeRatesTable = {
  organization_id: string;
  currency: string;
  date: string;
  rate: string;
  created_by: string | null;
  created_at: Timestamp;
};

export type StatementImportsTable = {
  organization_id: string;
  id: string;
  money_account_id: string;
  file_name: string;
  format: 'csv' | 'ofx' | 'camt053';
  file_sha256: string;
  total_rows: number;
  imported_rows: number;
  duplicate_rows: number;
  rule_rows: WithDefault<number>;
  created_by: string | null;
  created_at: Timestamp;
};

export type CategorizationRulesTable = {
  organization_id: string;
  id: string;
  name: string;
  priority: WithDefault<number>;
  enabled: WithDefault<boolean>;
  description_contains: string | null;
  payee_contains: string | null;
  min_amount: number | null;
  max_amount: number | null;
  direction: WithDefault<'any' | 'in' | 'out'>;
  money_account_id: string | null;
  set_category_account_id: string;
  set_payee: string | null;
  set_tax_rate: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type TransfersTable = {
  organization_id: string;
  id: string;
  date: string;
  from_money_account_id: string;
  to_money_account_id: string;
  from_amount: number;
  to_amount: number;
  rate: string;
  memo: WithDefault<string>;
  entry_id: string;
  created_by: string | null;
  created_at: Timestamp;
};

export type ReconciliationsTable = {
  organization_id: string;
  id: string;
  money_account_id: string;
  statement_date: string;
  statement_balance: number;
  opening_balance: number;
  status: 'in_progress' | 'completed' | 'undone';
  created_by: string | null;
  created_at: Timestamp;
  completed_by: string | null;
  completed_at: Timestamp | null;
  undone_at: Timestamp | null;
};

export type BankTransactionsTable = {
  organization_id: string;
  id: string;
  money_account_id: string;
  date: string;
  description: string;
  payee: string | null;
  amount: number;
  status: 'uncategorized' | 'categorized' | 'reconciled';
  category_kind: 'none' | 'account' | 'split' | 'transfer' | 'payment';
  category_account_id: string | null;
  transfer_id: string | null;
  /** The document a 'payment' line is the register line of (migration 20261125_0300). */
  source_kind: ColumnType<RegisterSourceKind | null, RegisterSourceKind | null | undefined>;
  source_id: ColumnType<string | null, string | null | undefined>;
  invoice_id: ColumnType<string | null, string | null | undefined>;
  tax_rate: number | null;
  notes: WithDefault<string>;
  rate: string | null;
  entry_id: string;
  import_id: string | null;
  external_id: string | null;
  dedupe_key: string;
  description_key: string;
  rule_id: string | null;
  reconciliation_id: string | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type BankTransactionSplitsTable = {
  organization_id: string;
  transaction_id: string;
  line_no: number;
  category_account_id: string;
  amount: number;
  description: string | null;
};

export type BankTransactionAttachmentsTable = {
  organization_id: string;
  id: string;
  transaction_id: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  /** The bytes when storage is 'database'; null for an object (storage_key). */
  data: Buffer | null;
  storage_key: string | null;
  storage: ColumnType<AttachmentStorage, AttachmentStorage | undefined, AttachmentStorage>;
  created_by: string | null;
  created_at: Timestamp;
};

/** Migration 20261125_0400: a bank line linked to the invoice payments it is the cash of. */
export type BankTransactionMatchesTable = {
  organization_id: string;
  id: string;
  transaction_id: string;
  kind: 'invoice' | 'payment';
  invoice_id: string;
  payment_id: string;
  amount: number;
  previous_entry_id: string;
  replaced_line: ColumnType<unknown | null, string | null | undefined, string | null>;
  created_by: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
};

// --- Payables (migration 20261127_0100) ---------------------------------------------------------

export type PayablesSettingsTable = {
  organization_id: string;
  approval_threshold: ColumnType<number | null, number | null | undefined, number | null>;
  bill_prefix: Defaulted<string>;
  next_bill_number: Defaulted<number>;
  credit_prefix: Defaulted<string>;
  next_credit_number: Defaulted<number>;
  updated_at: Timestamp;
};
export type SuppliersTable = {
  organization_id: string;
  id: string;
  name: string;
  company: Defaulted<string>;
  email: Defaulted<string>;
  phone: Defaulted<string>;
  address: Defaulted<string>;
  tax_number: Defaulted<string>;
  currency: string;
  payment_terms_days: Defaulted<number>;
  default_account_id: string | null;
  default_tax_rate_id: string | null;
  bank_account_name: Defaulted<string>;
  bank_account_number: Defaulted<string>;
  bank_code: Defaulted<string>;
  notes: Defaulted<string>;
  archived_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type BillSchedulesTable = {
  organization_id: string;
  id: string;
  supplier_id: string;
  frequency: 'weekly' | 'monthly' | 'quarterly' | 'yearly';
  start_date: string;
  end_date: string | null;
  max_count: number | null;
  auto_submit: Defaulted<boolean>;
  status: Defaulted<'active' | 'paused' | 'ended'>;
  next_index: Defaulted<number>;
  next_date: string | null;
  currency: string;
  exchange_rate: Defaulted<string>;
  payment_terms_days: number;
  reference: Defaulted<string>;
  notes: Defaulted<string>;
  lines: ColumnType<unknown, string, string>;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type BillStatusValue = 'draft' | 'awaiting_approval' | 'open' | 'partially_paid' | 'paid' | 'void';
export type BillsTable = {
  organization_id: string;
  id: string;
  number: string;
  supplier_id: string;
  reference: Defaulted<string>;
  issue_date: string;
  due_date: string;
  currency: string;
  exchange_rate: Defaulted<string>;
  notes: Defaulted<string>;
  status: Defaulted<BillStatusValue>;
  subtotal: Defaulted<number>;
  discount_total: Defaulted<number>;
  tax_total: Defaulted<number>;
  total: Defaulted<number>;
  amount_paid: Defaulted<number>;
  amount_credited: Defaulted<number>;
  amount_due: Generated<number>;
  total_base: Defaulted<number>;
  balance_base: Defaulted<number>;
  journal_entry_id: string | null;
  void_entry_id: string | null;
  voided_at: Timestamp | null;
  submitted_at: Timestamp | null;
  submitted_by: string | null;
  approved_at: Timestamp | null;
  approved_by: string | null;
  schedule_id: string | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type BillLinesTable = InvoiceLinesTable;
export type BillPaymentBatchesTable = {
  organization_id: string;
  id: string;
  date: string;
  payment_account_id: string;
  currency: string;
  total: number;
  bill_count: number;
  reference: Defaulted<string>;
  journal_entry_id: string;
  reversal_entry_id: string | null;
  reversed_at: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
};
export type BillPaymentsTable = {
  organization_id: string;
  id: string;
  bill_id: string;
  batch_id: string | null;
  date: string;
  amount: number;
  currency: string;
  exchange_rate: Defaulted<string>;
  amount_base: number;
  paid_base: number;
  payment_account_id: string;
  method: string;
  reference: Defaulted<string>;
  journal_entry_id: string;
  reversal_entry_id: string | null;
  reversed_at: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
};
export type SupplierCreditsTable = {
  organization_id: string;
  id: string;
  number: string;
  supplier_id: string;
  reference: Defaulted<string>;
  date: string;
  currency: string;
  exchange_rate: Defaulted<string>;
  reason: Defaulted<string>;
  status: Defaulted<'issued' | 'void'>;
  subtotal: number;
  discount_total: Defaulted<number>;
  tax_total: number;
  total: number;
  amount_applied: Defaulted<number>;
  amount_refunded: Defaulted<number>;
  amount_left: Generated<number>;
  total_base: number;
  journal_entry_id: string;
  void_entry_id: string | null;
  voided_at: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};
export type SupplierCreditAllocationsTable = {
  organization_id: string;
  id: string;
  credit_id: string;
  bill_id: string;
  date: string;
  amount: number;
  amount_base: number;
  /** What it used of the credit in base, at the credit's rate (migration 20261127_0160). */
  credit_base: number;
  /** The exchange gain or loss between amount_base and credit_base, when they differ. */
  exchange_entry_id: ColumnType<string | null, string | null | undefined>;
  reversed_at: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
};
export type SupplierCreditRefundsTable = {
  organization_id: string;
  id: string;
  credit_id: string;
  date: string;
  amount: number;
  amount_base: number;
  payment_account_id: string;
  reference: Defaulted<string>;
  journal_entry_id: string;
  reversal_entry_id: string | null;
  reversed_at: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
};
export type BillTaxPostingsTable = {
  organization_id: string;
  document_id: string;
  tax_rate_id: string;
  date: string;
  taxable_base: number;
  tax_base: number;
};
export type BillScheduleRunsTable = {
  organization_id: string;
  schedule_id: string;
  occurrence_date: string;
  bill_id: string;
  created_at: Timestamp;
};
export type BillEventsTable = {
  organization_id: string;
  id: string;
  bill_id: string;
  kind: string;
  message: string;
  actor_user_id: string | null;
  created_at: Timestamp;
  seq: Generated<number>;
};
export type BillAttachmentsTable = {
  organization_id: string;
  id: string;
  bill_id: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  /** The bytes when storage is 'database'; null for an object (storage_key). */
  data: Buffer | null;
  storage_key: string | null;
  storage: ColumnType<AttachmentStorage, AttachmentStorage | undefined, AttachmentStorage>;
  created_by: string | null;
  created_at: Timestamp;
};
export type BankTransactionBillMatchesTable = {
  organization_id: string;
  id: string;
  transaction_id: string;
  bill_id: string;
  payment_id: string;
  amount: number;
  previous_entry_id: string;
  created_by: string | null;
  created_at: ColumnType<Date, Date | string | undefined, never>;
};

/** A user's notification (migration 20261128_1200; modules/notifications). */
export type NotificationsTable = {
  id: Generated<string>;
  user_id: string;
  organization_id: string | null;
  category: 'transactions' | 'invoices' | 'payments' | 'security';
  kind: string;
  title: string;
  body: string;
  link: string;
  dedupe_key: string;
  in_app: boolean;
  emailed: ColumnType<boolean, boolean | undefined, boolean>;
  read_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** 1 while unread, 0 once read (generated from read_at). */
  unread: ColumnType<number, never, never>;
  created_at: Timestamp;
};

export type PushSubscriptionsTable = {
  id: Generated<string>;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  user_agent: string | null;
  created_at: Timestamp;
};

export type SignInEventsTable = {
  id: Generated<string>;
  user_id: string;
  session_id: string | null;
  ip: string | null;
  user_agent: string | null;
  device: string;
  device_key: string;
  new_device: boolean;
  created_at: Timestamp;
};

export type NotificationSettingsTable = {
  organization_id: string;
  /** Whole units of the transaction's currency from which a bank line is "large". */
  large_transaction_units: ColumnType<number, number, number>;
  updated_at: Timestamp;
};

/** Bank feeds (issue 18, migration 20261128_1500): a company's link to a bank through a feed provider. */
export type BankFeedConnectionsTable = {
  organization_id: string;
  id: string;
  provider: 'plaid' | 'demo';
  item_id: string;
  /** AES-256-GCM, never the token itself (bank-feeds/token-cipher.ts). */
  access_token_ciphertext: string;
  access_token_key_id: string;
  institution_name: string | null;
  status: WithDefault<'active' | 'error'>;
  error_code: string | null;
  error_message: string | null;
  sync_cursor: string | null;
  last_synced_at: Timestamp | null;
  last_sync_error: string | null;
  first_sync_pages: WithDefault<number>;
  first_sync_lines: WithDefault<number>;
  first_sync_oldest_date: string | null;
  first_sync_done_at: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type BankFeedAccountsTable = {
  organization_id: string;
  id: string;
  connection_id: string;
  provider_account_id: string;
  name: string;
  mask: string | null;
  type: string;
  subtype: string | null;
  currency: string | null;
  current_balance: number | null;
  money_account_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

export type BankFeedTransactionState = 'pending' | 'waiting' | 'posted' | 'linked' | 'skipped' | 'conflict';

export type BankFeedTransactionsTable = {
  organization_id: string;
  connection_id: string;
  provider_transaction_id: string;
  provider_account_id: string;
  date: string;
  amount: number;
  currency: string;
  description: string;
  counterparty: string | null;
  reference: string | null;
  pending: boolean;
  pending_id: string | null;
  state: BankFeedTransactionState;
  reason: string | null;
  bank_transaction_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
};

/** API keys (modules/api-keys, migration 20261128_1470): only the SHA-256 of a key is kept. */
export type ApiKeysTable = {
  organization_id: string;
  id: string;
  name: string;
  prefix: string;
  hash: string;
  scopes: ColumnType<string[], string, string>;
  expires_at: Timestamp | null;
  last_used_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_by: string | null;
  created_at: Timestamp;
};

export type Database = {
  api_keys: ApiKeysTable;
  invoice_settings: InvoiceSettingsTable;
  customers: CustomersTable;
  tax_rates: TaxRatesTable;
  items: ItemsTable;
  invoices: InvoicesTable;
  invoice_lines: InvoiceLinesTable;
  invoice_payments: InvoicePaymentsTable;
  credit_notes: CreditNotesTable;
  customer_credit_entries: CustomerCreditEntriesTable;
  invoice_tax_postings: InvoiceTaxPostingsTable;
  recurring_schedules: RecurringSchedulesTable;
  recurring_runs: RecurringRunsTable;
  invoice_events: InvoiceEventsTable;
  user: UserTable;
  session: AuthSessionTable;
  verification: VerificationTable;
  user_profiles: UserProfilesTable;
  user_photos: UserPhotosTable;
  mail_outbox: MailOutboxTable;
  promo_codes: PromoCodesTable;
  promo_redemptions: PromoRedemptionsTable;
  billing_accounts: BillingAccountsTable;
  billing_events: BillingEventsTable;
  billing_invoices: BillingInvoicesTable;
  billing_checkouts: BillingCheckoutsTable;
  platform_admins: PlatformAdminsTable;
  admin_audit_log: AdminAuditLogTable;
  contact_messages: ContactMessagesTable;
  audit_log: AuditLogTable;
  organizations: OrganizationsTable;
  organization_members: OrganizationMembersTable;
  organization_invitations: OrganizationInvitationsTable;
  ledger_settings: LedgerSettingsTable;
  accounts: AccountsTable;
  journal_entries: JournalEntriesTable;
  journal_lines: JournalLinesTable;
  journal_draft_lines: JournalDraftLinesTable;
  account_period_balances: AccountPeriodBalancesTable;
  fiscal_year_closes: FiscalYearClosesTable;
  journal_attachments: JournalAttachmentsTable;
  attachment_object_sweep: AttachmentObjectSweepTable;
  journal_imports: JournalImportsTable;
  idempotency_keys: IdempotencyKeysTable;
  money_accounts: MoneyAccountsTable;
  exchange_rates: ExchangeRatesTable;
  statement_imports: StatementImportsTable;
  categorization_rules: CategorizationRulesTable;
  transfers: TransfersTable;
  reconciliations: ReconciliationsTable;
  bank_transactions: BankTransactionsTable;
  bank_transaction_splits: BankTransactionSplitsTable;
  bank_transaction_attachments: BankTransactionAttachmentsTable;
  bank_transaction_matches: BankTransactionMatchesTable;
  payables_settings: PayablesSettingsTable;
  suppliers: SuppliersTable;
  bill_schedules: BillSchedulesTable;
  bills: BillsTable;
  bill_lines: BillLinesTable;
  bill_payment_batches: BillPaymentBatchesTable;
  bill_payments: BillPaymentsTable;
  supplier_credits: SupplierCreditsTable;
  supplier_credit_allocations: SupplierCreditAllocationsTable;
  supplier_credit_refunds: SupplierCreditRefundsTable;
  bill_tax_postings: BillTaxPostingsTable;
  bill_schedule_runs: BillScheduleRunsTable;
  bill_events: BillEventsTable;
  bill_attachments: BillAttachmentsTable;
  bank_transaction_bill_matches: BankTransactionBillMatchesTable;
  notifications: NotificationsTable;
  push_subscriptions: PushSubscriptionsTable;
  sign_in_events: SignInEventsTable;
  notification_settings: NotificationSettingsTable;
  bank_feed_connections: BankFeedConnectionsTable;
  bank_feed_accounts: BankFeedAccountsTable;
  bank_feed_transactions: BankFeedTransactionsTable;
};

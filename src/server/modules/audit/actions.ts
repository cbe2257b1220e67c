// Every action an audit row can name, once. recordAudit takes only these, so a misspelt or new
// action fails `tsc` until it is added here. The strings are stored in audit_log.action: never
// rename one (old rows keep their meaning); add a new one instead. The web shows no list of
// actions, so the list lives with the audit module rather than in src/shared.
//
// Spelling is not uniform, for history's sake: companies uses the imperative ('company.create'),
// every other module the past tense ('account.created'); attachments are '.attachment_removed'
// on journal entries but '.attachment_deleted' on bank transactions.

export const AUDIT_ACTIONS = [
  // companies (companies/service.ts)
  'company.create',
  'company.update',
  'member.role_change',
  'member.remove',
  'invitation.create',
  'invitation.revoke',
  'invitation.accept',
  'invitation.decline',
  // API keys (api-keys/service.ts)
  'api_key.created',
  'api_key.revoked',

  // ledger: settings and journal import (ledger/accounts.ts, ledger/journal-import.ts)
  'ledger.initialized',
  'ledger.lock_date_changed',
  'ledger.settings_changed',
  'ledger.journal_imported',
  // ledger: chart of accounts (ledger/accounts.ts)
  'account.created',
  'account.updated',
  'account.archived',
  'account.unarchived',
  'account.deleted',
  'account.imported',
  // ledger: journal entries (ledger/posting.ts; attachments/store.ts)
  'journal_entry.created',
  'journal_entry.updated',
  'journal_entry.deleted',
  'journal_entry.submitted',
  'journal_entry.approved',
  'journal_entry.posted',
  'journal_entry.reversed',
  'journal_entry.batch_posted',
  'journal_entry.attachment_added',
  'journal_entry.attachment_removed',
  // ledger: fiscal years (ledger/fiscal.ts)
  'fiscal_year.closed',
  'fiscal_year.reopened',

  // transactions: bank transactions (transactions/service.ts; attachments/store.ts)
  'bank_transaction.created',
  'bank_transaction.updated',
  'bank_transaction.deleted',
  'bank_transaction.attachment_added',
  'bank_transaction.attachment_deleted',
  // matching: a bank line to invoices or to a payment recorded by hand (matching/service.ts)
  'bank_transaction.matched',
  'bank_transaction.unmatched',
  // transactions: bulk re-categorising, one row per batch (transactions/service.ts, ledger/bulk.ts)
  'bank_transactions.categorized',
  'bank_transactions.categorized.reversed',
  'bank_transactions.rules_applied',
  'bank_transactions.rules_applied.reversed',
  // transactions: reconciliation (transactions/reconciliation.ts)
  'reconciliation.started',
  'reconciliation.completed',
  'reconciliation.cancelled',
  'reconciliation.undone',
  // transactions: categorisation rules (transactions/rules-service.ts)
  'rule.created',
  'rule.updated',
  'rule.deleted',

  // wallet (wallet/service.ts)
  'money_account.created',
  'money_account.updated',
  'money_account.archived',
  'money_account.unarchived',
  'money_account.opening_changed',
  'money_account.deleted',
  'money_account.deposit_default_set',
  'exchange_rate.set',

  // transfers (transfers/service.ts)
  'transfer.created',
  'transfer.deleted',

  // statement import (statement-import/service.ts)
  'statement_import.posted',
  'statement_import.committed',
  // bank feeds (bank-feeds/connections.ts, sync.ts)
  'bank_feed.connected',
  'bank_feed.account_mapped',
  'bank_feed.reconnected',
  'bank_feed.disconnected',
  'bank_feed.synced',

  // invoices: settings and catalog (invoices/settings.ts, invoices/catalog.ts)
  'invoice_settings.updated',
  'tax_rate.created',
  'tax_rate.updated',
  'item.created',
  'item.updated',
  // invoices: customers (invoices/customers.ts)
  'customer.created',
  'customer.updated',
  'customer.archived',
  'customer.restored',
  // invoices: invoices and payments (invoices/invoices.ts, invoices/payments.ts)
  'invoice.created',
  'invoice.updated',
  'invoice.deleted',
  'invoice.sent',
  'invoice.voided',
  'invoice.emailed',
  'invoice.payment_recorded',
  'invoice.payment_reversed',
  // invoices: credit notes (invoices/credit-notes.ts)
  'credit_note.issued',
  'credit_note.voided',
  // invoices: customer credit and refunds (invoices/credit.ts)
  'customer_credit.applied',
  'customer_credit.refunded',
  // invoices: recurring schedules, '.<new status>' (invoices/recurring.ts)
  'recurring_invoice.created',
  'recurring_invoice.active',
  'recurring_invoice.paused',
  'recurring_invoice.ended',

  // payables: settings and suppliers (payables/settings.ts, payables/suppliers.ts)
  'payables_settings.updated',
  'supplier.created',
  'supplier.updated',
  'supplier.archived',
  'supplier.restored',
  'suppliers.imported',
  // payables: bills and their approval (payables/bills.ts, payables/approval.ts)
  'bill.created',
  'bill.updated',
  'bill.deleted',
  'bill.submitted',
  'bill.approved',
  'bill.rejected',
  'bill.voided',
  'bill.attachment_added',
  'bill.attachment_removed',
  // payables: paying (payables/payments.ts, payables/batch-payments.ts)
  'bill.payment_recorded',
  'bill.payment_reversed',
  'bill_batch_payment.recorded',
  'bill_batch_payment.reversed',
  // payables: supplier credits (payables/credits.ts)
  'supplier_credit.issued',
  'supplier_credit.voided',
  'supplier_credit.applied',
  'supplier_credit.unapplied',
  'supplier_credit.refunded',
  'supplier_credit.refund_reversed',
  // payables: recurring bills, '.<new status>' (payables/recurring.ts)
  'recurring_bill.created',
  'recurring_bill.active',
  'recurring_bill.paused',
  'recurring_bill.ended',
  'recurring_bill.deleted',
  // matching: a money-out bank line to bills (matching/bills.ts)
  'bank_transaction.matched_to_bills',
  'bank_transaction.unmatched_from_bills',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

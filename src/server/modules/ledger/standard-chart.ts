import type { AccountTypeName } from '../../../shared/ledger.ts';

// The standard small-business chart of accounts a new company starts with. system_key lets
// other modules (invoices, payments, bank, wallet) find the accounts they post to without
// knowing codes or names, which the company may change.

export type StandardAccount = {
  code: string;
  name: string;
  type: AccountTypeName;
  subtype: string;
  systemKey: string | null;
  description?: string;
};

export const SYSTEM_KEYS = [
  'cash',
  'bank',
  'undeposited_funds',
  'accounts_receivable',
  'inventory',
  'prepaid_expenses',
  'equipment',
  'accumulated_depreciation',
  'accounts_payable',
  'credit_card',
  'sales_tax_payable',
  'payroll_liabilities',
  'unearned_revenue',
  'customer_credit',
  'loans_payable',
  'owner_equity',
  'owner_drawings',
  'retained_earnings',
  'opening_balance_equity',
  'sales',
  'services',
  'other_income',
  'discounts_given',
  'uncategorized_income',
  'cost_of_goods_sold',
  'bank_fees',
  'payment_processing_fees',
  'wages',
  'depreciation',
  'exchange_gain_loss',
  'uncategorized_expense',
] as const;
export type SystemKey = (typeof SYSTEM_KEYS)[number];

/** Longer descriptions of some standard accounts, by code. */
const DESCRIPTIONS: Record<string, string> = {
  '1050': 'Payments received and not yet deposited to a bank account.',
  '2350': 'Unapplied cash and credit owed to customers',
  '3900': 'The other side of opening balances brought over from another system.',
};

// code, name, type, subtype, system key
const CHART: [string, string, AccountTypeName, string, SystemKey | null][] = [
  ['1000', 'Cash on hand', 'asset', 'cash', 'cash'],
  ['1010', 'Business bank account', 'asset', 'bank', 'bank'],
  ['1050', 'Undeposited funds', 'asset', 'cash_equivalent', 'undeposited_funds'],
  ['1100', 'Accounts receivable', 'asset', 'accounts_receivable', 'accounts_receivable'],
  ['1200', 'Inventory', 'asset', 'inventory', 'inventory'],
  ['1300', 'Prepaid expenses', 'asset', 'prepaid_expense', 'prepaid_expenses'],
  ['1500', 'Equipment', 'asset', 'fixed_asset', 'equipment'],
  ['1510', 'Accumulated depreciation', 'asset', 'accumulated_depreciation', 'accumulated_depreciation'],
  ['2000', 'Accounts payable', 'liability', 'accounts_payable', 'accounts_payable'],
  ['2100', 'Credit card', 'liability', 'credit_card', 'credit_card'],
  ['2200', 'Sales tax payable', 'liability', 'tax', 'sales_tax_payable'],
  ['2210', 'Payroll liabilities', 'liability', 'current_liability', 'payroll_liabilities'],
  ['2300', 'Unearned revenue', 'liability', 'current_liability', 'unearned_revenue'],
  ['2350', 'Customer credit', 'liability', 'current_liability', 'customer_credit'],
  ['2700', 'Loans payable', 'liability', 'long_term_liability', 'loans_payable'],
  ['3000', "Owner's equity", 'equity', 'owner_equity', 'owner_equity'],
  ['3100', "Owner's drawings", 'equity', 'drawings', 'owner_drawings'],
  ['3200', 'Retained earnings', 'equity', 'retained_earnings', 'retained_earnings'],
  ['3900', 'Opening balance equity', 'equity', 'opening_balance_equity', 'opening_balance_equity'],
  ['4000', 'Sales', 'income', 'sales', 'sales'],
  ['4100', 'Services', 'income', 'sales', 'services'],
  ['4800', 'Other income', 'income', 'other_income', 'other_income'],
  ['4850', 'Discounts given', 'income', 'sales', 'discounts_given'],
  ['4900', 'Uncategorized income', 'income', 'other_income', 'uncategorized_income'],
  ['5000', 'Cost of goods sold', 'expense', 'cost_of_sales', 'cost_of_goods_sold'],
  ['6000', 'Advertising and marketing', 'expense', 'operating_expense', null],
  ['6100', 'Bank fees', 'expense', 'operating_expense', 'bank_fees'],
  ['6150', 'Payment processing fees', 'expense', 'operating_expense', 'payment_processing_fees'],
  ['6200', 'Rent', 'expense', 'operating_expense', null],
  ['6300', 'Utilities', 'expense', 'operating_expense', null],
  ['6400', 'Software and subscriptions', 'expense', 'operating_expense', null],
  ['6500', 'Office supplies', 'expense', 'operating_expense', null],
  ['6600', 'Professional fees', 'expense', 'operating_expense', null],
  ['6700', 'Insurance', 'expense', 'operating_expense', null],
  ['6800', 'Travel', 'expense', 'operating_expense', null],
  ['6850', 'Meals and entertainment', 'expense', 'operating_expense', null],
  ['6900', 'Wages and salaries', 'expense', 'payroll_expense', 'wages'],
  ['6950', 'Depreciation', 'expense', 'depreciation', 'depreciation'],
  ['7000', 'Interest expense', 'expense', 'other_expense', null],
  ['7100', 'Exchange gains and losses', 'expense', 'other_expense', 'exchange_gain_loss'],
  ['7900', 'Uncategorized expense', 'expense', 'operating_expense', 'uncategorized_expense'],
];

export const STANDARD_CHART: StandardAccount[] = CHART.map(([code, name, type, subtype, systemKey]) => ({
  code,
  name,
  type,
  subtype,
  systemKey,
  ...(DESCRIPTIONS[code] ? { description: DESCRIPTIONS[code] } : {}),
}));

// ─────────────────────────────────────────────────────────────────────────────────────
// SAMPLE DATA — NOT REAL. Fixed figures for the landing page's interactive demo (SPEC
// sections 1, 2 "Demo" and 9). Nothing here is read from or written to the database, and
// no real page may import this module. Amounts are integer cents (USD), dates ISO strings.
// ─────────────────────────────────────────────────────────────────────────────────────

export const DEMO_COMPANY = 'Northwind Studio Inc.';
export const DEMO_FISCAL_YEAR = 'FY 2025';
export const DEMO_CURRENCY = 'USD';
/** "Today" inside the demo, so "This Month" means the same thing on every visit. */
export const DEMO_TODAY = '2025-06-18';

/**
 * Sample rows from their field names and one tuple of values per row, so that a table reads
 * one row a line: `rows<Invoice>()(['number', 'amount'], [['INV-1', 100], …])`.
 */
const rows =
  <T>() =>
  <const K extends readonly (keyof T)[]>(
    keys: K,
    values: readonly { [I in keyof K]: T[K[I] & keyof T] }[],
  ): T[] =>
    values.map((row) => Object.fromEntries(keys.map((key, i) => [key, row[i]])) as T);

// ── Dashboard ──────────────────────────────────────────────────────────────────────────
export type Kpi = { label: string; value: number; change: number; kind: 'money' | 'percent' | 'count' };
export const DASHBOARD_KPIS: readonly Kpi[] = [
  { label: 'Revenue (YTD)', value: 248_392_00, change: 12.4, kind: 'money' },
  { label: 'Expenses (YTD)', value: 161_045_00, change: 4.1, kind: 'money' },
  { label: 'Net profit', value: 87_347_00, change: 23.8, kind: 'money' },
  { label: 'Cash on hand', value: 132_580_00, change: 6.2, kind: 'money' },
];

/** Monthly revenue and expenses, Jan–Jun. */
export const MONTHLY_CASH_FLOW: readonly { month: string; revenue: number; expenses: number }[] = [
  { month: 'Jan', revenue: 36_200_00, expenses: 25_900_00 },
  { month: 'Feb', revenue: 38_950_00, expenses: 26_400_00 },
  { month: 'Mar', revenue: 41_300_00, expenses: 27_100_00 },
  { month: 'Apr', revenue: 40_120_00, expenses: 26_850_00 },
  { month: 'May', revenue: 44_870_00, expenses: 27_300_00 },
  { month: 'Jun', revenue: 46_952_00, expenses: 27_495_00 },
];

// ── Accounting ─────────────────────────────────────────────────────────────────────────
export type LedgerLine = { date: string; account: string; reference: string; debit: number; credit: number };
export const GENERAL_LEDGER: readonly LedgerLine[] = rows<LedgerLine>()(
  ['date', 'account', 'reference', 'debit', 'credit'],
  [
    ['2025-06-16', '1000 Cash at bank', 'INV-2041', 12_450_00, 0],
    ['2025-06-16', '1200 Accounts receivable', 'INV-2041', 0, 12_450_00],
    ['2025-06-14', '6100 Rent', 'BILL-331', 4_800_00, 0],
    ['2025-06-14', '1000 Cash at bank', 'BILL-331', 0, 4_800_00],
    ['2025-06-12', '6400 Software', 'CARD-1187', 1_249_00, 0],
    ['2025-06-12', '2100 Credit card', 'CARD-1187', 0, 1_249_00],
  ],
);

export type TrialBalanceRow = { account: string; debit: number; credit: number };
export const TRIAL_BALANCE: readonly TrialBalanceRow[] = [
  { account: '1000 Cash at bank', debit: 132_580_00, credit: 0 },
  { account: '1200 Accounts receivable', debit: 58_240_00, credit: 0 },
  { account: '1500 Equipment', debit: 42_000_00, credit: 0 },
  { account: '2000 Accounts payable', debit: 0, credit: 21_730_00 },
  { account: '2100 Credit card', debit: 0, credit: 3_743_00 },
  { account: '3000 Owner equity', debit: 0, credit: 120_000_00 },
  { account: '4000 Sales revenue', debit: 0, credit: 248_392_00 },
  { account: '5000 Cost of sales', debit: 74_120_00, credit: 0 },
  { account: '6000 Operating expenses', debit: 86_925_00, credit: 0 },
];

export type JournalEntry = {
  number: string;
  date: string;
  memo: string;
  amount: number;
  status: 'posted' | 'draft';
};
export const JOURNAL_ENTRIES: readonly JournalEntry[] = rows<JournalEntry>()(
  ['number', 'date', 'memo', 'amount', 'status'],
  [
    ['JE-0192', '2025-06-16', 'Customer payment — Acme Corp', 12_450_00, 'posted'],
    ['JE-0191', '2025-06-14', 'June office rent', 4_800_00, 'posted'],
    ['JE-0190', '2025-06-12', 'Design software subscription', 1_249_00, 'posted'],
    ['JE-0189', '2025-06-30', 'Month-end depreciation', 700_00, 'draft'],
  ],
);

export const INCOME_STATEMENT = { revenue: 248_392_00, costOfSales: 74_120_00, operatingExpenses: 86_925_00 };
export const BALANCE_SHEET = { assets: 232_820_00, liabilities: 25_473_00, equity: 207_347_00 };
export const CASH_FLOW_SUMMARY = { operating: 94_310_00, investing: -18_000_00, financing: -5_500_00 };

// ── Transactions ───────────────────────────────────────────────────────────────────────
export type DemoTransaction = {
  id: string;
  description: string;
  /** Positive is money in, negative money out. */
  amount: number;
  date: string;
  category: string;
};
export const TRANSACTIONS: readonly DemoTransaction[] = rows<DemoTransaction>()(
  ['id', 'description', 'amount', 'date', 'category'],
  [
    ['TXN-1048', 'Acme Corp — INV-2041', 12_450_00, '2025-06-16', 'Sales'],
    ['TXN-1047', 'Office rent — June', -4_800_00, '2025-06-14', 'Rent'],
    ['TXN-1046', 'Figma subscription', -1_249_00, '2025-06-12', 'Software'],
    ['TXN-1045', 'Globex Ltd — INV-2038', 8_900_00, '2025-06-09', 'Sales'],
    ['TXN-1044', 'AWS cloud hosting', -2_318_45, '2025-06-03', 'Hosting'],
    ['TXN-1043', 'Initech — INV-2035', 5_600_00, '2025-05-28', 'Sales'],
    ['TXN-1042', 'Team offsite travel', -3_120_80, '2025-05-22', 'Travel'],
    ['TXN-1041', 'Interest received', 214_37, '2025-05-20', 'Interest'],
  ],
);

// ── Invoices ───────────────────────────────────────────────────────────────────────────
export type InvoiceStatus = 'draft' | 'sent' | 'overdue' | 'paid';
export type DemoInvoice = {
  number: string;
  client: string;
  amount: number;
  due: string;
  status: InvoiceStatus;
};
export const INVOICES: readonly DemoInvoice[] = [
  { number: 'INV-2042', client: 'Umbrella Health', amount: 18_750_00, due: '2025-07-15', status: 'sent' },
  { number: 'INV-2041', client: 'Acme Corp', amount: 12_450_00, due: '2025-06-15', status: 'paid' },
  { number: 'INV-2039', client: 'Stark Logistics', amount: 7_320_00, due: '2025-06-01', status: 'overdue' },
  { number: 'INV-2043', client: 'Wayne Foods', amount: 4_980_00, due: '2025-07-30', status: 'draft' },
  { number: 'INV-2038', client: 'Globex Ltd', amount: 8_900_00, due: '2025-06-05', status: 'paid' },
];

// ── Payroll ────────────────────────────────────────────────────────────────────────────
export type DemoEmployee = {
  name: string;
  role: string;
  /** Yearly salary, cents. */
  salary: number;
  status: 'Active' | 'On leave';
  department: string;
};
export const EMPLOYEES: readonly DemoEmployee[] = rows<DemoEmployee>()(
  ['name', 'role', 'salary', 'status', 'department'],
  [
    ['Maya Chen', 'Head of Finance', 142_000_00, 'Active', 'Finance'],
    ['Jonas Weber', 'Senior Engineer', 128_000_00, 'Active', 'Engineering'],
    ['Priya Nair', 'Product Designer', 104_000_00, 'On leave', 'Design'],
    ['Lucas Moreau', 'Account Executive', 92_000_00, 'Active', 'Sales'],
  ],
);
export const PAYROLL_SUMMARY = {
  nextRun: '2025-06-30',
  gross: 96_450_00,
  taxes: 21_219_00,
  net: 75_231_00,
  employees: 24,
};
export const BENEFITS: readonly { name: string; enrolled: number; monthlyCost: number }[] = [
  { name: 'Health insurance', enrolled: 22, monthlyCost: 11_440_00 },
  { name: '401(k) match', enrolled: 19, monthlyCost: 6_270_00 },
  { name: 'Learning budget', enrolled: 14, monthlyCost: 1_750_00 },
];
export const COMPLIANCE: readonly { item: string; status: 'Filed' | 'Due soon' }[] = [
  { item: 'Q2 payroll tax return', status: 'Due soon' },
  { item: 'State unemployment filing', status: 'Filed' },
  { item: 'W-4 updates', status: 'Filed' },
];

// ── CRM ────────────────────────────────────────────────────────────────────────────────
export type PipelineStage = 'Leads' | 'Qualified' | 'Proposal' | 'Closed';
export const PIPELINE: readonly { stage: PipelineStage; deals: { company: string; value: number }[] }[] = [
  {
    stage: 'Leads',
    deals: [
      { company: 'Hooli', value: 24_000_00 },
      { company: 'Vandelay Imports', value: 9_500_00 },
      { company: 'Pied Piper', value: 14_000_00 },
    ],
  },
  {
    stage: 'Qualified',
    deals: [
      { company: 'Cyberdyne', value: 38_000_00 },
      { company: 'Soylent Co.', value: 12_500_00 },
    ],
  },
  { stage: 'Proposal', deals: [{ company: 'Tyrell Corp', value: 56_000_00 }] },
  {
    stage: 'Closed',
    deals: [
      { company: 'Acme Corp', value: 45_000_00 },
      { company: 'Globex Ltd', value: 21_000_00 },
    ],
  },
];

// ── Inventory ──────────────────────────────────────────────────────────────────────────
export type StockStatus = 'In Stock' | 'Low Stock' | 'Out of Stock';
export type DemoInventoryItem = {
  item: string;
  sku: string;
  stock: number;
  reorder: number;
  /** Value of the stock on hand, cents. */
  value: number;
  status: StockStatus;
};
export const INVENTORY: readonly DemoInventoryItem[] = [
  { item: 'Wireless keyboard', sku: 'KB-220', stock: 184, reorder: 50, value: 9_016_00, status: 'In Stock' },
  { item: 'USB-C dock', sku: 'DK-410', stock: 22, reorder: 40, value: 3_278_00, status: 'Low Stock' },
  { item: '27" monitor', sku: 'MN-270', stock: 0, reorder: 15, value: 0, status: 'Out of Stock' },
  { item: 'Laptop stand', sku: 'LS-105', stock: 96, reorder: 30, value: 3_360_00, status: 'In Stock' },
];
export type AlertUrgency = 'high' | 'medium' | 'low';
export const INVENTORY_ALERTS: readonly { message: string; urgency: AlertUrgency }[] = [
  { message: '27" monitor is out of stock — 12 open orders waiting', urgency: 'high' },
  { message: 'USB-C dock below reorder point (22 of 40)', urgency: 'medium' },
  { message: 'Laptop stand supplier price rises 3% on 1 July', urgency: 'low' },
];

// ── Projects ───────────────────────────────────────────────────────────────────────────
export type DemoProject = {
  name: string;
  client: string;
  /** Percent complete, 0–100. */
  progress: number;
  budget: number;
  teamSize: number;
  deadline: string;
};
export const PROJECTS: readonly DemoProject[] = rows<DemoProject>()(
  ['name', 'client', 'progress', 'budget', 'teamSize', 'deadline'],
  [
    ['Brand refresh', 'Acme Corp', 92, 48_000_00, 4, '2025-06-30'],
    ['Checkout rebuild', 'Wayne Foods', 64, 82_000_00, 6, '2025-08-15'],
    ['Data migration', 'Globex Ltd', 38, 35_500_00, 3, '2025-07-20'],
    ['Mobile app MVP', 'Umbrella Health', 12, 120_000_00, 5, '2025-10-01'],
  ],
);
export const TEAM_WORKLOAD: readonly { name: string; load: number }[] = [
  { name: 'Design', load: 86 },
  { name: 'Engineering', load: 72 },
  { name: 'QA', load: 45 },
  { name: 'Project management', load: 58 },
];
export type MilestoneStatus = 'on-track' | 'at-risk' | 'pending';
export const MILESTONES: readonly { name: string; due: string; status: MilestoneStatus }[] = [
  { name: 'Brand guidelines hand-off', due: '2025-06-24', status: 'on-track' },
  { name: 'Checkout beta', due: '2025-07-08', status: 'at-risk' },
  { name: 'Data cut-over rehearsal', due: '2025-07-12', status: 'pending' },
];

// ── HR (dashboard preview tab and HR Portal) — SPEC section 9 figures ───────────────────
export const HR_METRICS = { employees: 247, satisfaction: 94, turnover: 2.1, openRoles: 8 };
export const EMPLOYEE_PORTAL: readonly { label: string; count: number; pending: number }[] = [
  { label: 'Time-off requests', count: 18, pending: 5 },
  { label: 'Performance reviews', count: 42, pending: 12 },
  { label: 'Training programs', count: 9, pending: 3 },
  { label: 'Onboarding tasks', count: 27, pending: 7 },
];
export type HrActivity = {
  activity: string;
  employee: string;
  department: string;
  time: string;
  type: 'leave' | 'review' | 'training' | 'onboarding';
};
export const HR_ACTIVITIES: readonly HrActivity[] = rows<HrActivity>()(
  ['activity', 'employee', 'department', 'time', 'type'],
  [
    ['Time off approved', 'Priya Nair', 'Design', '2 h ago', 'leave'],
    ['Review completed', 'Jonas Weber', 'Engineering', '5 h ago', 'review'],
    ['Started onboarding', 'Sam Okafor', 'Sales', 'Yesterday', 'onboarding'],
    ['Finished SOC 2 training', 'Maya Chen', 'Finance', 'Yesterday', 'training'],
  ],
);

// ── Supply chain ─────────────────────────────────────────────────────────────────────
export const SUPPLY_METRICS = { activeOrders: 47, vendors: 23, onTime: 96, spendMtd: 184_250_00 };
export type OrderStatus = 'In Transit' | 'Processing' | 'Delivered' | 'Delayed';
export type RiskLevel = 'None' | 'Low' | 'Medium' | 'High';
export type PurchaseOrder = {
  vendor: string;
  status: OrderStatus;
  orderNumber: string;
  value: number;
  eta: string;
  risk: RiskLevel;
};
export const PURCHASE_ORDERS: readonly PurchaseOrder[] = rows<PurchaseOrder>()(
  ['vendor', 'status', 'orderNumber', 'value', 'eta', 'risk'],
  [
    ['Nordic Components', 'In Transit', 'PO-7781', 42_300_00, 'Jun 21', 'Low'],
    ['Pacific Packaging', 'Processing', 'PO-7779', 8_950_00, 'Jun 27', 'None'],
    ['Atlas Metals', 'Delayed', 'PO-7772', 67_400_00, 'Jul 3', 'High'],
    ['Greenfield Paper', 'Delivered', 'PO-7765', 3_120_00, 'Jun 12', 'None'],
  ],
);
export type VendorPerformance = {
  vendor: string;
  rating: number;
  orders: number;
  onTime: number;
  quality: number;
};
export const VENDOR_PERFORMANCE: readonly VendorPerformance[] = [
  { vendor: 'Nordic Components', rating: 4.8, orders: 64, onTime: 98, quality: 99 },
  { vendor: 'Pacific Packaging', rating: 4.5, orders: 41, onTime: 95, quality: 97 },
  { vendor: 'Atlas Metals', rating: 3.9, orders: 27, onTime: 81, quality: 93 },
];
export type ShipmentStatus = 'In Transit' | 'Customs' | 'Delivered' | 'Processing';
export type Shipment = {
  id: string;
  route: string;
  progress: number;
  status: ShipmentStatus;
  carrier: string;
};
export const SHIPMENTS: readonly Shipment[] = [
  { id: 'SHP-3301', route: 'Rotterdam → New York', progress: 72, status: 'In Transit', carrier: 'Maersk' },
  { id: 'SHP-3298', route: 'Shenzhen → Los Angeles', progress: 45, status: 'Customs', carrier: 'COSCO' },
  { id: 'SHP-3295', route: 'Hamburg → Chicago', progress: 100, status: 'Delivered', carrier: 'DHL Freight' },
  { id: 'SHP-3302', route: 'Toronto → Austin', progress: 10, status: 'Processing', carrier: 'UPS' },
];

// ── BI and Analytics ──────────────────────────────────────────────────────────────────
export const EXECUTIVE_METRICS: readonly { label: string; value: string; change: number }[] = [
  { label: 'ARR', value: '$2.98M', change: 18.2 },
  { label: 'Gross margin', value: '70.2%', change: 1.6 },
  { label: 'Burn multiple', value: '0.8×', change: -12.0 },
  { label: 'Customer LTV', value: '$41.2k', change: 7.4 },
];
export const AI_INSIGHTS: readonly { insight: string; confidence: number }[] = [
  { insight: 'Software spend is 18% above plan; 3 seats unused for 60+ days.', confidence: 92 },
  { insight: 'Stark Logistics usually pays 21 days late — send a reminder now.', confidence: 87 },
  { insight: 'Q3 cash stays above your 3-month runway target.', confidence: 81 },
];
export type Prediction = { label: string; value: string; confidence: number; variance: string };
export const PREDICTIONS: readonly Prediction[] = [
  { label: 'Q3 revenue', value: '$142.6k', confidence: 89, variance: '±4.2%' },
  { label: 'Q3 expenses', value: '$86.1k', confidence: 93, variance: '±2.8%' },
  { label: 'Cash at 30 Sep', value: '$168.9k', confidence: 84, variance: '±6.1%' },
];
export type MarketSignal = {
  market: string;
  trend: 'Up' | 'Flat' | 'Down';
  sentiment: 'Positive' | 'Neutral' | 'Negative';
  risk: RiskLevel;
};
export const MARKET_INTELLIGENCE: readonly MarketSignal[] = [
  { market: 'SaaS tooling', trend: 'Up', sentiment: 'Positive', risk: 'Low' },
  { market: 'Freight costs', trend: 'Down', sentiment: 'Neutral', risk: 'Medium' },
  { market: 'Consumer retail', trend: 'Flat', sentiment: 'Negative', risk: 'High' },
];

import { randomUUID } from 'node:crypto';
import { convertMinor } from '../../../shared/money.ts';
import { addDays, daysBetween } from './dates.ts';
import type { PostJournalEntryInput, PostingLineInput } from './posting.ts';
import type { Executor } from '../../db/transaction.ts';

// A realistic small business for the seed script, the benchmark and tests: a few hundred
// accounts and a deterministic stream of everyday entries (credit sales with sales tax,
// customer payments, supplier bills and their payment, card spend, payroll, bank fees, some
// euro sales) spread over a date range. Deterministic from its seed, so runs compare.

/** mulberry32: small, fast, deterministic. */
export const prng = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

export type SampleChart = {
  bank: string[];
  receivable: string;
  payable: string;
  card: string;
  salesTax: string;
  payroll: string;
  wages: string;
  bankFees: string;
  income: string[];
  expenses: string[];
};

const EXPENSE_NAMES = [
  'Advertising',
  'Cloud hosting',
  'Contractors',
  'Courier',
  'Equipment rental',
  'Fuel',
  'Insurance',
  'Legal',
  'Licences',
  'Maintenance',
  'Marketing',
  'Office supplies',
  'Packaging',
  'Postage',
  'Printing',
  'Rent',
  'Repairs',
  'Software',
  'Subscriptions',
  'Telephone',
  'Training',
  'Travel',
  'Utilities',
  'Vehicle',
];
const INCOME_NAMES = [
  'Product sales',
  'Services',
  'Subscription revenue',
  'Support plans',
  'Training revenue',
  'Licensing',
];

/** Adds accounts so the chart has about `total` accounts, and returns the ones entries use. */
export const buildSampleChart = async (
  db: Executor,
  organizationId: string,
  total = 300,
): Promise<SampleChart> => {
  const existing = await db
    .selectFrom('accounts')
    .select(['id', 'code', 'system_key', 'currency'])
    .where('organization_id', '=', organizationId)
    .execute();
  const key = (k: string) => existing.find((a) => a.system_key === k)!.id;
  const used = new Set(existing.map((a) => a.code));
  const currency = existing[0]!.currency;
  const rows: {
    organization_id: string;
    id: string;
    code: string;
    name: string;
    type: 'asset' | 'income' | 'expense';
    subtype: string;
    parent_id: null;
    currency: string;
    system_key: null;
  }[] = [];
  const add = (code: string, name: string, type: 'asset' | 'income' | 'expense', subtype: string) => {
    if (used.has(code)) return null;
    used.add(code);
    const id = randomUUID();
    rows.push({
      organization_id: organizationId,
      id,
      code,
      name,
      type,
      subtype,
      parent_id: null,
      currency,
      system_key: null,
    });
    return id;
  };
  const bank = [key('bank')];
  for (let i = 1; i <= 3; i += 1) bank.push(add(`10${10 + i}`, `Bank account ${i + 1}`, 'asset', 'bank')!);
  const income = [key('sales'), key('services')];
  const expenses: string[] = [];
  let n = 0;
  while (existing.length + rows.length < total) {
    n += 1;
    if (n % 8 === 0) {
      const id = add(
        `4${String(200 + n).padStart(3, '0')}`,
        `${INCOME_NAMES[n % INCOME_NAMES.length]} ${Math.ceil(n / 8)}`,
        'income',
        'sales',
      );
      if (id) income.push(id);
    } else {
      const id = add(
        `6${String(1000 + n).padStart(4, '0')}`,
        `${EXPENSE_NAMES[n % EXPENSE_NAMES.length]} ${Math.ceil(n / EXPENSE_NAMES.length)}`,
        'expense',
        'operating_expense',
      );
      if (id) expenses.push(id);
    }
  }
  for (let i = 0; i < rows.length; i += 1000)
    await db
      .insertInto('accounts')
      .values(rows.slice(i, i + 1000))
      .execute();
  return {
    bank,
    receivable: key('accounts_receivable'),
    payable: key('accounts_payable'),
    card: key('credit_card'),
    salesTax: key('sales_tax_payable'),
    payroll: key('payroll_liabilities'),
    wages: key('wages'),
    bankFees: key('bank_fees'),
    income,
    expenses,
  };
};

type Entry = Omit<PostJournalEntryInput, 'organizationId'>;

/**
 * `count` entries in date order between `from` and `to`, about 3 lines each. EUR sales carry
 * currency, amount and rate when the base currency is not EUR.
 */
export function* sampleEntries(
  chart: SampleChart,
  options: { count: number; from: string; to: string; seed?: number; baseCurrency?: string },
): Generator<Entry> {
  const rand = prng(options.seed ?? 42);
  const span = daysBetween(options.from, options.to);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const money = (min: number, max: number) => Math.round(min + rand() * (max - min));
  const withEuro = options.baseCurrency !== undefined && options.baseCurrency !== 'EUR';
  for (let i = 0; i < options.count; i += 1) {
    const date = addDays(options.from, Math.floor((i * (span + 1)) / options.count));
    const roll = rand();
    let memo: string;
    let lines: PostingLineInput[];
    if (roll < 0.25) {
      const net = money(1_000, 500_000);
      const tax = Math.round(net * 0.08);
      memo = `Invoice ${100000 + i}`;
      lines = [
        { accountId: chart.receivable, debit: net + tax },
        { accountId: pick(chart.income), credit: net },
        { accountId: chart.salesTax, credit: tax },
      ];
    } else if (roll < 0.45) {
      const amount = money(1_000, 540_000);
      memo = `Customer payment ${i}`;
      lines = [
        { accountId: pick(chart.bank), debit: amount },
        { accountId: chart.receivable, credit: amount },
      ];
    } else if (roll < 0.62) {
      const a = money(500, 200_000);
      const b = money(500, 50_000);
      memo = `Supplier bill ${i}`;
      lines = [
        { accountId: pick(chart.expenses), debit: a },
        { accountId: pick(chart.expenses), debit: b },
        { accountId: chart.payable, credit: a + b },
      ];
    } else if (roll < 0.74) {
      const amount = money(500, 250_000);
      memo = `Bill payment ${i}`;
      lines = [
        { accountId: chart.payable, debit: amount },
        { accountId: pick(chart.bank), credit: amount },
      ];
    } else if (roll < 0.88) {
      const amount = money(199, 40_000);
      memo = `Card purchase ${i}`;
      lines = [
        { accountId: pick(chart.expenses), debit: amount, description: 'Card' },
        { accountId: chart.card, credit: amount },
      ];
    } else if (roll < 0.93) {
      const gross = money(200_000, 900_000);
      const withheld = Math.round(gross * 0.22);
      memo = `Payroll ${date}`;
      lines = [
        { accountId: chart.wages, debit: gross },
        { accountId: pick(chart.bank), credit: gross - withheld },
        { accountId: chart.payroll, credit: withheld },
      ];
    } else if (roll < 0.97 || !withEuro) {
      const amount = money(100, 5_000);
      memo = 'Bank fee';
      lines = [
        { accountId: chart.bankFees, debit: amount },
        { accountId: pick(chart.bank), credit: amount },
      ];
    } else {
      const eur = money(10_000, 300_000);
      const rate = (1.05 + Math.floor(rand() * 1000) / 10_000).toFixed(4);
      const base = convertMinor(eur, 'EUR', rate, options.baseCurrency!);
      memo = `EUR sale ${i}`;
      lines = [
        { accountId: chart.receivable, debit: base, currency: 'EUR', amount: eur, rate },
        { accountId: pick(chart.income), credit: base },
      ];
    }
    yield { date, memo, source: 'manual', lines, actorUserId: null };
  }
}

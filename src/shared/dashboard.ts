import { z } from 'zod';
import { daysBetween } from './dates.ts';
import { isoDate } from './input.ts';
import { JOURNAL_STATUSES } from './ledger.ts';

// The dashboard's one answer (GET /api/orgs/:organizationId/dashboard, issue 17 §3): the
// monthly series, the key figures, the 13-week cash forecast, the insights and the latest
// entries, in one round trip. Every amount is integer minor units of the company's base
// currency; every figure carries the app path of the report or list behind it (`link`).
// docs/dashboard.md says what each figure means and how it is computed.

/** The longest range the series covers (five years of months). */
export const DASHBOARD_MAX_DAYS = 1_830;
export const DASHBOARD_MONTH_CHOICES = [12, 24] as const;

export const dashboardQuerySchema = z
  .object({
    months: z.coerce
      .number({ error: 'Choose 12 or 24 months.' })
      .int('Choose 12 or 24 months.')
      .refine((v) => v === 12 || v === 24, 'Choose 12 or 24 months.')
      .optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.from > q.to)
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'The start date is after the end date.' });
    else if (q.from && q.to && daysBetween(q.from, q.to) > DASHBOARD_MAX_DAYS)
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'Choose a range of at most five years.' });
    if (q.months !== undefined && (q.from || q.to))
      ctx.addIssue({
        code: 'custom',
        path: ['months'],
        message: 'Give either months or a date range, not both.',
      });
  });
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

const link = z.string();

export const dashboardMonthSchema = z.object({
  /** First day of the month. */
  month: z.string(),
  /** The part of the month inside the range (the first and last month may be partial). */
  from: z.string(),
  to: z.string(),
  income: z.number(),
  /** Cost of sales and expenses, as the income statement adds them. */
  expenses: z.number(),
  net: z.number(),
  /** The wallet's cash total (bank, cash and payment processor accounts) at the end of `to`. */
  cash: z.number(),
  link,
});
export type DashboardMonth = z.infer<typeof dashboardMonthSchema>;

const documentsOwed = z.object({
  total: z.number(),
  overdue: z.number(),
  overdueCount: z.number(),
  link,
  overdueLink: link,
});

export const dashboardKpisSchema = z.object({
  cash: z.object({ amount: z.number(), asOf: z.string(), link }),
  burn: z.object({
    /** Average net cash outflow per month over the last three full months; 0 when cash grew. */
    monthly: z.number(),
    /** Cash at the start and the end of those three months. */
    from: z.string(),
    to: z.string(),
    startCash: z.number(),
    endCash: z.number(),
    link,
  }),
  /** Cash divided by the monthly burn, one decimal; null when the company is not burning cash. */
  runwayMonths: z.number().nullable(),
  revenueGrowth: z.object({
    current: z.number(),
    previous: z.number(),
    /** (current − previous) / previous in percent, one decimal; null when previous is 0. */
    percent: z.number().nullable(),
    from: z.string(),
    to: z.string(),
    previousFrom: z.string(),
    previousTo: z.string(),
    link,
  }),
  dso: z.object({
    /** Receivables ÷ invoiced sales of the last `windowDays` days × windowDays; null without sales. */
    days: z.number().nullable(),
    receivables: z.number(),
    sales: z.number(),
    windowDays: z.number(),
    link,
  }),
  receivables: documentsOwed,
  payables: documentsOwed,
});
export type DashboardKpis = z.infer<typeof dashboardKpisSchema>;

export const FORECAST_SOURCES = [
  'invoice',
  'bill',
  'recurring_invoice',
  'recurring_bill',
  'unscheduled_spending',
] as const;
export type ForecastSource = (typeof FORECAST_SOURCES)[number];
export const FORECAST_SOURCE_LABELS: Record<ForecastSource, string> = {
  invoice: 'Open invoices',
  bill: 'Open bills',
  recurring_invoice: 'Recurring invoices',
  recurring_bill: 'Recurring bills',
  unscheduled_spending: 'Other spending (trailing average)',
};

/** One expected movement of cash: positive in, negative out, in the week its date falls in. */
export const forecastItemSchema = z.object({
  source: z.enum(FORECAST_SOURCES),
  date: z.string(),
  amount: z.number(),
  label: z.string(),
  link,
});
export type ForecastItem = z.infer<typeof forecastItemSchema>;

export const forecastPointSchema = z.object({
  weekStart: z.string(),
  weekEnd: z.string(),
  inflow: z.number(),
  outflow: z.number(),
  /** Cash expected at the end of the week. */
  balance: z.number(),
  low: z.number(),
  high: z.number(),
});
export type ForecastPoint = z.infer<typeof forecastPointSchema>;

export const forecastSchema = z.object({
  from: z.string(),
  to: z.string(),
  startCash: z.number(),
  endCash: z.number(),
  points: z.array(forecastPointSchema),
  /** The sum of the items of each source inside the horizon. */
  totals: z.object(
    Object.fromEntries(FORECAST_SOURCES.map((s) => [s, z.number()])) as {
      [K in ForecastSource]: z.ZodNumber;
    },
  ),
  /** The dated items (invoices, bills, recurring occurrences), largest first, at most 20. */
  items: z.array(forecastItemSchema),
  /** The trailing weeks of other spending behind the average and the band. */
  spending: z.object({
    weeks: z.array(z.number()),
    weeklyAverage: z.number(),
    /** Population standard deviation of `weeks`, rounded to a minor unit. */
    spread: z.number(),
    link,
  }),
});
export type Forecast = z.infer<typeof forecastSchema>;

export const INSIGHT_KINDS = ['spend_change', 'late_payer', 'unusual_transaction'] as const;
export const insightSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('spend_change'),
    accountId: z.string(),
    accountName: z.string(),
    month: z.string(),
    previousMonth: z.string(),
    amount: z.number(),
    previousAmount: z.number(),
    /** Percent change, one decimal; null when the previous month was 0. */
    percent: z.number().nullable(),
    link,
  }),
  z.object({
    kind: z.literal('late_payer'),
    customerId: z.string(),
    customerName: z.string(),
    invoiceId: z.string(),
    invoiceNumber: z.string().nullable(),
    balance: z.number(),
    daysLate: z.number(),
    /** The median days after the due date of the customer's paid invoices. */
    usualDaysLate: z.number(),
    paidInvoices: z.number(),
    link,
  }),
  z.object({
    kind: z.literal('unusual_transaction'),
    entryId: z.string(),
    entryNumber: z.number().nullable(),
    date: z.string(),
    accountId: z.string(),
    accountName: z.string(),
    memo: z.string(),
    amount: z.number(),
    /** The median expense on the account over the trailing window, and how many it is of. */
    median: z.number(),
    sampleSize: z.number(),
    link,
  }),
]);
export type Insight = z.infer<typeof insightSchema>;

/** One of the latest posted entries, as the dashboard lists them. */
export const recentEntrySchema = z.object({
  id: z.string(),
  number: z.number().nullable(),
  date: z.string(),
  memo: z.string(),
  source: z.string(),
  status: z.enum(JOURNAL_STATUSES),
  reversedByEntryId: z.string().nullable(),
  totalDebit: z.number(),
});
export type RecentEntry = z.infer<typeof recentEntrySchema>;

export const dashboardSchema = z.object({
  currency: z.string(),
  today: z.string(),
  from: z.string(),
  to: z.string(),
  months: z.array(dashboardMonthSchema),
  kpis: dashboardKpisSchema,
  forecast: forecastSchema,
  insights: z.array(insightSchema),
  recent: z.array(recentEntrySchema),
  /** Whether anything was ever posted: a new company sees its first steps instead. */
  hasEntries: z.boolean(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

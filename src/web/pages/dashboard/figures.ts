import type { Dashboard, DashboardQuery, Insight } from '../../../shared/dashboard.ts';
import { isIsoDate } from '../../../shared/dates.ts';
import {
  formatAmount,
  formatAmountCompact,
  formatDate,
  formatMonthYear,
  formatPercent,
  plural,
} from '../../lib/format.ts';

// What the dashboard page derives from the one answer of GET /dashboard (the server computes
// every figure; docs/dashboard.md): the range asked in the address bar, the sentences of the
// insights in the reader's formats, and the rows of the charts.

export type RangeChoice = '12' | '24' | 'custom';

/** The range in the address bar (?months=24, or ?from=…&to=…); 12 months when nothing valid is there. */
export const rangeFromParams = (params: URLSearchParams): { choice: RangeChoice; query: DashboardQuery } => {
  const from = params.get('from');
  const to = params.get('to');
  if (from && to && isIsoDate(from) && isIsoDate(to) && from <= to)
    return { choice: 'custom', query: { from, to } };
  if (params.get('months') === '24') return { choice: '24', query: { months: 24 } };
  return { choice: '12', query: { months: 12 } };
};

/** A signed percent with its direction, e.g. "+12.5%" or "−3.0%". */
export const signedPercent = (percent: number) =>
  `${percent > 0 ? '+' : percent < 0 ? '−' : ''}${formatPercent(Math.abs(percent))}`;

/** The sentence of an insight (title and detail), with its figures in the reader's formats. */
export const insightText = (insight: Insight, currency: string): { title: string; detail: string } => {
  const money = (minor: number) => formatAmount(minor, currency);
  switch (insight.kind) {
    case 'spend_change': {
      const up = insight.amount > insight.previousAmount;
      const change = insight.percent === null ? '' : ` (${signedPercent(insight.percent)})`;
      return {
        title: `${insight.accountName} ${up ? 'rose' : 'fell'}${change}`,
        detail: `${money(insight.amount)} in ${formatMonthYear(insight.month)} against ${money(insight.previousAmount)} in ${formatMonthYear(insight.previousMonth)}.`,
      };
    }
    case 'late_payer':
      return {
        title: `${insight.customerName} is paying later than usual`,
        detail: `${insight.invoiceNumber ?? 'An invoice'} (${money(insight.balance)} open) is ${plural(insight.daysLate, 'day')} past due; their last ${plural(insight.paidInvoices, 'paid invoice')} came in a median ${plural(insight.usualDaysLate, 'day')} after the due date.`,
      };
    case 'unusual_transaction':
      return {
        title: `Unusual ${insight.accountName} expense: ${money(insight.amount)}`,
        detail: `${insight.memo || 'No memo'}, ${formatDate(insight.date)}: ${(insight.amount / Math.max(insight.median, 1)).toFixed(1)}× the median ${money(insight.median)} of ${plural(insight.sampleSize, 'expense')} on this account in the last 180 days.`,
      };
  }
};

/** Runway in words: "14.5 months", or why there is none. */
export const runwayText = (kpis: Dashboard['kpis']) =>
  kpis.runwayMonths === null ? 'Not burning cash' : `${kpis.runwayMonths.toFixed(1)} months of runway`;

/** Whether the months hold nothing to draw. */
export const monthsEmpty = (months: Dashboard['months']) =>
  months.every((m) => m.income === 0 && m.expenses === 0 && m.cash === 0);

/**
 * A chart's value axis: about five round ticks covering `values` (minor units), and labels
 * that tell the ticks apart — compact ("$7.1K") where that is enough, in full otherwise (a
 * nearly flat forecast would read "$7K, $7K, $7K"). `width` fits the longest label.
 */
export const valueAxis = (values: number[], currency: string, count = 5) => {
  const finite = values.filter(Number.isFinite);
  let min = finite.length ? Math.min(...finite) : 0;
  let max = finite.length ? Math.max(...finite) : 0;
  if (min === max) {
    const pad = Math.max(Math.abs(max) * 0.05, 100);
    min -= pad;
    max += pad;
  }
  const rough = (max - min) / (count - 1);
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, ([1, 2, 2.5, 5, 10].find((m) => m * magnitude >= rough) ?? 10) * magnitude);
  const ticks: number[] = [];
  for (let t = Math.floor(min / step) * step; t <= Math.ceil(max / step) * step + step / 2; t += step)
    ticks.push(Math.round(t));
  const compact = ticks.map((t) => formatAmountCompact(t, currency));
  const labels =
    new Set(compact).size === ticks.length ? compact : ticks.map((t) => formatAmount(t, currency));
  const byTick = new Map(ticks.map((t, i) => [t, labels[i]!]));
  const longest = Math.max(...labels.map((l) => l.length));
  return {
    ticks,
    domain: [ticks[0]!, ticks[ticks.length - 1]!] as [number, number],
    format: (v: number) => byTick.get(Math.round(v)) ?? formatAmountCompact(Math.round(v), currency),
    width: Math.max(48, Math.ceil(longest * 7.2) + 8),
  };
};

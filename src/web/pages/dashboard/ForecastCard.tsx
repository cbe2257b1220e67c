import { lazy } from 'react';
import { Link } from 'react-router';
import { FORECAST_SOURCES, FORECAST_SOURCE_LABELS, type Dashboard } from '../../../shared/dashboard.ts';
import { Money } from '../../components/money/Money.tsx';
import { Card, CardHeader } from '../../components/ui/Card.tsx';
import { RowTh, TableHead, Td } from '../../components/ui/Table.tsx';
import { formatDate, formatDayMonth } from '../../lib/format.ts';
import { ChartSlot } from './parts.tsx';

// The 13-week cash forecast: the chart with its band, what goes into it by source, and the
// largest dated items, each linking to its invoice, bill or schedule (docs/dashboard.md).

const ForecastChart = lazy(() => import('./ForecastChart.tsx'));

const SOURCE_LINKS: Record<(typeof FORECAST_SOURCES)[number], string> = {
  invoice: '/invoices',
  bill: '/bills',
  recurring_invoice: '/invoices?tab=recurring',
  recurring_bill: '/bills?tab=recurring',
  unscheduled_spending: '/transactions',
};

export const ForecastCard = ({ data }: { data: Dashboard }) => {
  const { forecast: f, currency } = data;
  const empty =
    f.startCash === 0 && f.points.every((p) => p.balance === 0 && p.inflow === 0 && p.outflow === 0);
  const rows = f.points.map((p) => ({
    label: formatDayMonth(p.weekEnd),
    period: `${formatDate(p.weekStart)} – ${formatDate(p.weekEnd)}`,
    balance: p.balance,
    band: [p.low, p.high] as [number, number],
  }));
  return (
    <Card>
      <CardHeader
        title="Cash forecast, next 13 weeks"
        description={
          <>
            From <Money minor={f.startCash} currency={currency} /> today to{' '}
            <Money minor={f.endCash} currency={currency} /> by {formatDate(f.to)}. The band is the spread of
            the last {f.spending.weeks.length} weeks of other spending.
          </>
        }
      />
      <div className="grid gap-6 px-3 py-4 sm:px-5 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          <ChartSlot
            height={260}
            empty={
              empty
                ? {
                    title: 'Nothing to forecast yet',
                    description:
                      'Open invoices and bills, recurring schedules and spending in the bank register make the forecast.',
                  }
                : null
            }
          >
            <ForecastChart data={rows} currency={currency} />
          </ChartSlot>
          <div className="sr-only">
            <table>
              <caption>Expected cash at the end of each week, with its low and high, in {currency}</caption>
              <TableHead
                columns={[
                  'Week',
                  { label: 'Expected', numeric: true },
                  { label: 'Low', numeric: true },
                  { label: 'High', numeric: true },
                ]}
              />
              <tbody>
                {f.points.map((p) => (
                  <tr key={p.weekStart}>
                    <RowTh>
                      {formatDate(p.weekStart)} – {formatDate(p.weekEnd)}
                    </RowTh>
                    <Td numeric>
                      <Money minor={p.balance} currency={currency} />
                    </Td>
                    <Td numeric>
                      <Money minor={p.low} currency={currency} />
                    </Td>
                    <Td numeric>
                      <Money minor={p.high} currency={currency} />
                    </Td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
        <div className="min-w-0">
          <h3 className="text-sm font-semibold text-slate-900 dark:text-white">What goes into it</h3>
          <ul className="mt-2 divide-y divide-slate-100 text-sm dark:divide-slate-800">
            {FORECAST_SOURCES.map((s) => (
              <li key={s}>
                <Link
                  to={SOURCE_LINKS[s]}
                  className="flex min-h-11 items-center justify-between gap-3 text-slate-700 hover:underline dark:text-slate-200"
                >
                  <span>{FORECAST_SOURCE_LABELS[s]}</span>
                  <Money minor={f.totals[s]} currency={currency} />
                </Link>
              </li>
            ))}
          </ul>
          {f.items.length > 0 ? (
            <>
              <h3 className="mt-4 text-sm font-semibold text-slate-900 dark:text-white">Largest expected</h3>
              <ul className="mt-2 divide-y divide-slate-100 text-sm dark:divide-slate-800">
                {f.items.slice(0, 5).map((i) => (
                  <li key={`${i.link}-${i.date}-${i.amount}`}>
                    <Link
                      to={i.link}
                      className="flex min-h-11 items-center justify-between gap-3 text-slate-700 hover:underline dark:text-slate-200"
                    >
                      <span className="min-w-0">
                        <span className="block truncate">{i.label}</span>
                        <span className="block text-xs text-slate-500 dark:text-slate-400">
                          {i.date <= data.today ? 'Overdue' : `Due ${formatDate(i.date)}`}
                        </span>
                      </span>
                      <Money minor={i.amount} currency={currency} />
                    </Link>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </div>
      </div>
    </Card>
  );
};

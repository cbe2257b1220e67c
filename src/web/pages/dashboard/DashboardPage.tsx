import { useQuery } from '@tanstack/react-query';
import { lazy, useDeferredValue, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Dashboard, DashboardQuery } from '../../../shared/dashboard.ts';
import { Money } from '../../components/money/Money.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { Button, buttonClasses } from '../../components/ui/Button.tsx';
import { Card, CardHeader, ErrorState } from '../../components/ui/Card.tsx';
import { SelectField } from '../../components/ui/Field.tsx';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { RowTh, TableHead, Td } from '../../components/ui/Table.tsx';
import { api, errorText } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { formatDate, formatMonth, formatMonthYear } from '../../lib/format.ts';
import { keys } from '../../lib/queryKeys.ts';
import { DateInput } from '../accounting/parts.tsx';
import { ForecastCard } from './ForecastCard.tsx';
import { type RangeChoice, monthsEmpty, rangeFromParams } from './figures.ts';
import { Insights } from './Insights.tsx';
import { KpiTiles } from './KpiTiles.tsx';
import { ChartSlot, GetStarted, KpiSkeletons } from './parts.tsx';
import { RecentEntries } from './RecentEntries.tsx';

// /dashboard: where the current company stands, in ONE call (GET /api/orgs/:id/dashboard,
// docs/dashboard.md): key figures that link to their reports, income, expenses, net and cash
// per month for 12 or 24 months (or a date range), the 13-week cash forecast with its band,
// insights and the latest entries. A new company gets its first steps instead of zeros.

const IncomeExpenseChart = lazy(() => import('./IncomeExpenseChart.tsx'));

const useDashboard = (query: DashboardQuery) => {
  const { company } = useCompany();
  return useQuery({
    queryKey: keys.ledger(company.id, 'dashboard', query),
    queryFn: () => api.get<Dashboard>(`/api/orgs/${company.id}/dashboard`, query),
    staleTime: 0,
    refetchOnWindowFocus: true,
  });
};

const CHOICES: { value: RangeChoice; label: string }[] = [
  { value: '12', label: 'Last 12 months' },
  { value: '24', label: 'Last 24 months' },
  { value: 'custom', label: 'Date range' },
];

/** The range picker: 12 or 24 months, or a from/to range; kept in the address bar. */
const RangePicker = ({ choice, data }: { choice: RangeChoice; data?: Dashboard }) => {
  const [, setParams] = useSearchParams();
  const [custom, setCustom] = useState(choice === 'custom');
  const [from, setFrom] = useState(data?.from ?? '');
  const [to, setTo] = useState(data?.to ?? '');
  const shown = custom ? 'custom' : choice;
  return (
    <form
      className="flex flex-wrap items-end gap-3"
      onSubmit={(e) => {
        e.preventDefault();
        if (from && to && from <= to) setParams({ from, to });
      }}
    >
      <div className="w-44">
        <SelectField
          label="Period"
          value={shown}
          options={CHOICES}
          onChange={(e) => {
            const next = e.target.value as RangeChoice;
            if (next === 'custom') {
              setCustom(true);
              setFrom((f) => f || data?.from || '');
              setTo((t) => t || data?.to || '');
              return;
            }
            setCustom(false);
            setParams(next === '24' ? { months: '24' } : {});
          }}
        />
      </div>
      {shown === 'custom' ? (
        <>
          <DateInput label="From" value={from} onChange={setFrom} max={to || undefined} required />
          <DateInput label="To" value={to} onChange={setTo} min={from || undefined} required />
          <Button type="submit" variant="secondary">
            Show
          </Button>
        </>
      ) : null}
    </form>
  );
};

const MonthsCard = ({ data }: { data: Dashboard }) => {
  const { currency } = data;
  const rows = data.months.map((m) => ({
    label:
      m.month.slice(5, 7) === '01' || data.months.length <= 1
        ? formatMonthYear(m.month)
        : formatMonth(m.month),
    period: `${formatDate(m.from)} – ${formatDate(m.to)}`,
    income: m.income,
    expenses: m.expenses,
    net: m.net,
    cash: m.cash,
  }));
  return (
    <Card>
      <CardHeader
        title="Income, expenses and cash"
        description={`${formatDate(data.from)} – ${formatDate(data.to)}, from posted entries; cash at each month's end`}
        actions={
          <Link
            to={`/accounting?tab=reports&report=income-statement&from=${data.from}&to=${data.to}`}
            className="inline-flex min-h-11 items-center text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300"
          >
            Income statement
          </Link>
        }
      />
      <div className="px-2 py-4 sm:px-3">
        <ChartSlot
          height={300}
          empty={
            monthsEmpty(data.months)
              ? {
                  title: 'No income or expenses yet',
                  description: 'Record a sale, an invoice payment or an expense and the month fills in here.',
                }
              : null
          }
        >
          <IncomeExpenseChart data={rows} currency={currency} />
        </ChartSlot>
        <div className="sr-only">
          <table>
            <caption>Income, expenses, net income and month-end cash by month, in {currency}</caption>
            <TableHead
              columns={[
                'Month',
                { label: 'Income', numeric: true },
                { label: 'Expenses', numeric: true },
                { label: 'Net income', numeric: true },
                { label: 'Cash', numeric: true },
              ]}
            />
            <tbody>
              {rows.map((d) => (
                <tr key={d.period}>
                  <RowTh>{d.period}</RowTh>
                  {([d.income, d.expenses, d.net, d.cash] as const).map((v, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns
                    <Td key={i} numeric>
                      <Money minor={v} currency={currency} />
                    </Td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </Card>
  );
};

/**
 * Today in the company's time zone (what the server calls today), known before the figures
 * arrive: the header line has its full text from the first paint, so it never wraps later.
 */
// One date format per time zone: making an Intl format costs far more than using it, and the
// header asks on every render.
const todayFormats = new Map<string, Intl.DateTimeFormat>();

const companyToday = (timeZone: string) => {
  try {
    let format = todayFormats.get(timeZone);
    if (!format) {
      format = new Intl.DateTimeFormat('en-CA', { timeZone });
      todayFormats.set(timeZone, format);
    }
    return format.format(new Date());
  } catch {
    return new Date().toISOString().slice(0, 10);
  }
};

const DashboardPage = () => {
  const { company } = useCompany();
  const [params] = useSearchParams();
  const { choice, query } = rangeFromParams(params);
  const dashboard = useDashboard(query);
  // The figures (tiles, tables, forecast, entries) are drawn in a deferred render, which React
  // splits into slices of a few milliseconds, rather than in the one long task of the answer's
  // arrival; until then the placeholders stay.
  const data = useDeferredValue(dashboard.data);

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Dashboard"
        description={`${company.name} · ${company.baseCurrency} · ${formatDate(data?.today ?? companyToday(company.timeZone))}`}
        actions={
          <Link to="/accounting?tab=reports" className={buttonClasses('secondary')}>
            View reports
          </Link>
        }
      />
      <RangePicker key={`${choice}-${data?.from ?? ''}`} choice={choice} data={data} />

      {dashboard.isError ? (
        <ErrorState
          message={`Could not load the dashboard. ${errorText(dashboard.error)}`}
          onRetry={() => void dashboard.refetch()}
        />
      ) : !data ? (
        <div aria-busy="true" className="space-y-6">
          <span className="sr-only" role="status">
            Loading the dashboard...
          </span>
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            <KpiSkeletons count={6} />
          </div>
          <Card>
            <div className="flex h-[300px] items-center justify-center">
              <Spinner label="Loading monthly figures..." />
            </div>
          </Card>
        </div>
      ) : (
        <>
          {data.hasEntries ? null : <GetStarted />}
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            <KpiTiles data={data} />
          </div>
          <MonthsCard data={data} />
          <Insights data={data} />
          <ForecastCard data={data} />
          <RecentEntries entries={data.recent} currency={data.currency} />
        </>
      )}
    </div>
  );
};

export default DashboardPage;

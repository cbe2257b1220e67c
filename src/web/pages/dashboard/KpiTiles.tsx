import { Link } from 'react-router';
import type { Dashboard } from '../../../shared/dashboard.ts';
import { Money } from '../../components/money/Money.tsx';
import { formatDate, formatMonthYear, plural } from '../../lib/format.ts';
import { runwayText, signedPercent } from './figures.ts';
import { Kpi } from './parts.tsx';

// The six key figures of GET /dashboard, each linking to the report or list it comes from.

const FOOT = 'mt-3 border-t border-slate-100 pt-2 text-sm dark:border-slate-800';
const FOOT_LINK =
  'inline-flex min-h-11 items-center gap-2 font-medium text-red-700 hover:underline dark:text-red-400';

const Overdue = ({
  what,
  amount,
  count,
  currency,
  to,
}: {
  what: 'invoice' | 'bill';
  amount: number;
  count: number;
  currency: string;
  to: string;
}) => (
  <div className={FOOT}>
    {count > 0 ? (
      <Link to={to} className={FOOT_LINK}>
        <span>{plural(count, what)} overdue:</span>
        <Money minor={amount} currency={currency} />
      </Link>
    ) : (
      <p className="flex min-h-11 items-center text-slate-500 dark:text-slate-400">Nothing overdue</p>
    )}
  </div>
);

export const KpiTiles = ({ data }: { data: Dashboard }) => {
  const { kpis, currency } = data;
  const growth = kpis.revenueGrowth;
  return (
    <>
      <Kpi
        label="Cash"
        to={kpis.cash.link}
        linkLabel="Open the wallet"
        hint={`Bank, cash and payment accounts, ${formatDate(kpis.cash.asOf)}`}
      >
        <Money minor={kpis.cash.amount} currency={currency} />
      </Kpi>
      <Kpi
        label="Monthly burn"
        to={kpis.burn.link}
        linkLabel="Open the cash flow statement of those months"
        hint={`Average net cash outflow, ${formatMonthYear(kpis.burn.from)} – ${formatMonthYear(kpis.burn.to)}`}
        footer={
          <p className={`${FOOT} font-medium text-slate-700 dark:text-slate-200`}>{runwayText(kpis)}</p>
        }
      >
        {kpis.burn.monthly > 0 ? <Money minor={kpis.burn.monthly} currency={currency} /> : 'None'}
      </Kpi>
      <Kpi
        label="Revenue growth"
        to={growth.link}
        linkLabel="Open the income statement of the range"
        hint={
          <>
            Income <Money minor={growth.current} currency={currency} />, {formatDate(growth.from)} –{' '}
            {formatDate(growth.to)}, against <Money minor={growth.previous} currency={currency} /> the period
            before
          </>
        }
      >
        {growth.percent === null ? (
          <span className="text-slate-500 dark:text-slate-400">No earlier income</span>
        ) : (
          <span className={growth.percent < 0 ? 'text-red-700 dark:text-red-400' : ''}>
            {signedPercent(growth.percent)}
          </span>
        )}
      </Kpi>
      <Kpi
        label="Days sales outstanding"
        to={kpis.dso.link}
        linkLabel="Open the receivables aging"
        hint={`Receivables ÷ invoiced sales of the last ${kpis.dso.windowDays} days × ${kpis.dso.windowDays}`}
      >
        {kpis.dso.days === null ? (
          <span className="text-slate-500 dark:text-slate-400">No recent sales</span>
        ) : (
          `${kpis.dso.days.toFixed(1)} days`
        )}
      </Kpi>
      <Kpi
        label="Receivables"
        to={kpis.receivables.link}
        linkLabel="Open the receivables aging"
        hint="Owed to you by customers"
        footer={
          <Overdue
            what="invoice"
            amount={kpis.receivables.overdue}
            count={kpis.receivables.overdueCount}
            currency={currency}
            to={kpis.receivables.overdueLink}
          />
        }
      >
        <Money minor={kpis.receivables.total} currency={currency} />
      </Kpi>
      <Kpi
        label="Payables"
        to={kpis.payables.link}
        linkLabel="Open the payables aging"
        hint="You owe to suppliers"
        footer={
          <Overdue
            what="bill"
            amount={kpis.payables.overdue}
            count={kpis.payables.overdueCount}
            currency={currency}
            to={kpis.payables.overdueLink}
          />
        }
      >
        <Money minor={kpis.payables.total} currency={currency} />
      </Kpi>
    </>
  );
};

import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { currencyExponent, formatMoney } from '../../../shared/money.ts';
import type { BalanceHistory } from '../../../shared/wallet.ts';

// The total across accounts (in the base currency) at each month end.

const MONTH = new Intl.DateTimeFormat('en-US', { month: 'short', year: '2-digit', timeZone: 'UTC' });

export const BalanceChart = ({ history }: { history: BalanceHistory }) => {
  const data = history.points.map((p) => ({
    label: MONTH.format(new Date(`${p.date}T00:00:00Z`)),
    total: p.totalBase,
    date: p.date,
  }));
  const compact = (minor: number) =>
    new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: history.baseCurrency,
      notation: 'compact',
      maximumFractionDigits: 1,
    }).format(minor / 10 ** currencyExponent(history.baseCurrency));
  return (
    <figure>
      <div className="h-64 text-slate-500 dark:text-slate-400" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart data={data} margin={{ top: 8, right: 12, left: 8, bottom: 0 }}>
            <defs>
              <linearGradient id="balanceFill" x1="0" y1="0" x2="0" y2="1">
                <stop offset="0%" stopColor="#2563eb" stopOpacity={0.35} />
                <stop offset="100%" stopColor="#2563eb" stopOpacity={0.02} />
              </linearGradient>
            </defs>
            <CartesianGrid
              strokeDasharray="3 3"
              stroke="currentColor"
              strokeOpacity={0.15}
              vertical={false}
            />
            <XAxis dataKey="label" stroke="currentColor" fontSize={12} tickLine={false} axisLine={false} />
            <YAxis
              stroke="currentColor"
              fontSize={12}
              tickLine={false}
              axisLine={false}
              width={64}
              tickFormatter={compact}
            />
            <Tooltip
              formatter={(value) => [formatMoney(Number(value), history.baseCurrency), 'Total']}
              contentStyle={{ borderRadius: 8, fontSize: 12 }}
            />
            <Area type="monotone" dataKey="total" stroke="#2563eb" strokeWidth={2} fill="url(#balanceFill)" />
          </AreaChart>
        </ResponsiveContainer>
      </div>
      {/* The same figures as a table for screen readers. */}
      <table className="sr-only">
        <caption>Total balance at each month end</caption>
        <tbody>
          {data.map((d) => (
            <tr key={d.date}>
              <th scope="row">{d.date}</th>
              <td>{formatMoney(d.total, history.baseCurrency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
};

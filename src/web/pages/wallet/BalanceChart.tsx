import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { BalanceHistory } from '../../../shared/wallet.ts';
import { formatAmount, formatAmountCompact, formatDate, formatMonthYear } from '../../lib/format.ts';

// The total across accounts (in the base currency) at each month end.

export const BalanceChart = ({ history }: { history: BalanceHistory }) => {
  const data = history.points.map((p) => ({
    label: formatMonthYear(p.date),
    total: p.totalBase,
    date: p.date,
  }));
  const compact = (minor: number) => formatAmountCompact(minor, history.baseCurrency);
  return (
    <figure>
      <div className="h-64 text-slate-500 dark:text-slate-400" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart
            accessibilityLayer={false}
            data={data}
            margin={{ top: 8, right: 12, left: 8, bottom: 0 }}
          >
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
              formatter={(value) => [formatAmount(Number(value), history.baseCurrency), 'Total']}
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
              <th scope="row">{formatDate(d.date)}</th>
              <td>{formatAmount(d.total, history.baseCurrency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
};

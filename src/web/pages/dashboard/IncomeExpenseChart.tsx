import {
  Bar,
  CartesianGrid,
  ComposedChart,
  Legend,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatAmount } from '../../lib/format.ts';
import { valueAxis } from './figures.ts';
import { useTheme } from '../../lib/theme.tsx';

// Income and expenses per month as bars, net income and month-end cash as lines (cash on its
// own axis, right). Kept in its own chunk: Recharts is large and only the dashboard needs it.
// Amounts stay in minor units; lib/format.ts writes them.

export type MonthPoint = {
  label: string;
  period: string;
  income: number;
  expenses: number;
  net: number;
  cash: number;
};

const NAMES: Record<string, string> = {
  income: 'Income',
  expenses: 'Expenses',
  net: 'Net income',
  cash: 'Cash',
};

export const chartTooltipStyle = (dark: boolean) => ({
  background: dark ? '#0f172a' : '#ffffff',
  border: `1px solid ${dark ? '#334155' : '#e2e8f0'}`,
  borderRadius: 8,
  color: dark ? '#e2e8f0' : '#0f172a',
  fontSize: 13,
});

const IncomeExpenseChart = ({ data, currency }: { data: MonthPoint[]; currency: string }) => {
  const { resolved } = useTheme();
  const dark = resolved === 'dark';
  const axis = dark ? '#94a3b8' : '#64748b';
  // Bars start at zero; the cash line has its own scale on the right.
  const flow = valueAxis(
    data.flatMap((d) => [0, d.income, d.expenses, d.net]),
    currency,
  );
  const cash = valueAxis(
    data.map((d) => d.cash),
    currency,
  );
  return (
    <ResponsiveContainer width="100%" height={300}>
      <ComposedChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 0, bottom: 0, left: 0 }}>
        <CartesianGrid vertical={false} stroke={dark ? '#1e293b' : '#e2e8f0'} />
        <XAxis
          dataKey="label"
          interval="preserveStartEnd"
          minTickGap={8}
          tick={{ fill: axis, fontSize: 12 }}
          axisLine={false}
          tickLine={false}
        />
        <YAxis
          yAxisId="flow"
          tick={{ fill: axis, fontSize: 12 }}
          axisLine={false}
          tickLine={false}
          width={flow.width}
          ticks={flow.ticks}
          domain={flow.domain}
          tickFormatter={flow.format}
        />
        <YAxis
          yAxisId="cash"
          orientation="right"
          tick={{ fill: axis, fontSize: 12 }}
          axisLine={false}
          tickLine={false}
          width={cash.width}
          ticks={cash.ticks}
          domain={cash.domain}
          tickFormatter={cash.format}
        />
        <Tooltip
          cursor={{ fill: dark ? 'rgba(148,163,184,0.08)' : 'rgba(100,116,139,0.08)' }}
          formatter={(value, name) => [formatAmount(Number(value), currency), NAMES[String(name)] ?? name]}
          labelFormatter={(_, payload) => payload?.[0]?.payload?.period ?? ''}
          contentStyle={chartTooltipStyle(dark)}
        />
        <Legend formatter={(v) => NAMES[String(v)] ?? v} wrapperStyle={{ fontSize: 13, color: axis }} />
        <Bar
          yAxisId="flow"
          dataKey="income"
          fill={dark ? '#34d399' : '#059669'}
          radius={[4, 4, 0, 0]}
          maxBarSize={24}
          isAnimationActive={false}
        />
        <Bar
          yAxisId="flow"
          dataKey="expenses"
          fill={dark ? '#fb7185' : '#e11d48'}
          radius={[4, 4, 0, 0]}
          maxBarSize={24}
          isAnimationActive={false}
        />
        <Line
          yAxisId="flow"
          dataKey="net"
          type="monotone"
          stroke={dark ? '#fbbf24' : '#d97706'}
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
        />
        <Line
          yAxisId="cash"
          dataKey="cash"
          type="monotone"
          stroke={dark ? '#60a5fa' : '#2563eb'}
          strokeWidth={2}
          strokeDasharray="5 3"
          dot={false}
          isAnimationActive={false}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
};

export default IncomeExpenseChart;

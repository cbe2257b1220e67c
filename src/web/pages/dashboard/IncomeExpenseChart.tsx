import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatAmount, formatAmountCompact } from '../../lib/format.ts';
import { useTheme } from '../../lib/theme.tsx';

// Income against expenses per month. Kept in its own chunk: Recharts is large and only the
// dashboard needs it. Amounts stay in minor units; lib/format.ts writes them.

export type MonthPoint = { label: string; period: string; income: number; expenses: number };

const IncomeExpenseChart = ({ data, currency }: { data: MonthPoint[]; currency: string }) => {
  const { resolved } = useTheme();
  const dark = resolved === 'dark';
  const axis = dark ? '#94a3b8' : '#64748b';
  return (
    <ResponsiveContainer width="100%" height={280}>
      <BarChart
        accessibilityLayer={false}
        data={data}
        margin={{ top: 8, right: 8, bottom: 0, left: 8 }}
        barGap={2}
      >
        <CartesianGrid vertical={false} stroke={dark ? '#1e293b' : '#e2e8f0'} />
        <XAxis
          dataKey="label"
          interval={0}
          tick={{ fill: axis, fontSize: 12 }}
          axisLine={false}
          tickLine={false}
        />
        <YAxis
          tick={{ fill: axis, fontSize: 12 }}
          axisLine={false}
          tickLine={false}
          width={64}
          tickFormatter={(v: number) => formatAmountCompact(Math.round(v), currency)}
        />
        <Tooltip
          cursor={{ fill: dark ? 'rgba(148,163,184,0.08)' : 'rgba(100,116,139,0.08)' }}
          formatter={(value, name) => [
            formatAmount(Number(value), currency),
            name === 'income' ? 'Income' : 'Expenses',
          ]}
          labelFormatter={(_, payload) => payload?.[0]?.payload?.period ?? ''}
          contentStyle={{
            background: dark ? '#0f172a' : '#ffffff',
            border: `1px solid ${dark ? '#334155' : '#e2e8f0'}`,
            borderRadius: 8,
            color: dark ? '#e2e8f0' : '#0f172a',
            fontSize: 13,
          }}
        />
        <Legend
          formatter={(v) => (v === 'income' ? 'Income' : 'Expenses')}
          wrapperStyle={{ fontSize: 13, color: axis }}
        />
        <Bar dataKey="income" fill={dark ? '#34d399' : '#059669'} radius={[4, 4, 0, 0]} maxBarSize={28} />
        <Bar dataKey="expenses" fill={dark ? '#fb7185' : '#e11d48'} radius={[4, 4, 0, 0]} maxBarSize={28} />
      </BarChart>
    </ResponsiveContainer>
  );
};

export default IncomeExpenseChart;

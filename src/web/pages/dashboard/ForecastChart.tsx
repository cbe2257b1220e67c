import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatAmount } from '../../lib/format.ts';
import { useTheme } from '../../lib/theme.tsx';
import { valueAxis } from './figures.ts';
import { chartTooltipStyle } from './IncomeExpenseChart.tsx';

// The 13-week cash forecast: the expected balance at each week's end as a line, inside its
// uncertainty band (low to high) drawn as a range Area. Its own chunk, with Recharts.

export type ForecastRow = { label: string; period: string; balance: number; band: [number, number] };

const ForecastChart = ({ data, currency }: { data: ForecastRow[]; currency: string }) => {
  const { resolved } = useTheme();
  const dark = resolved === 'dark';
  const axis = dark ? '#94a3b8' : '#64748b';
  const line = dark ? '#60a5fa' : '#2563eb';
  const y = valueAxis(
    data.flatMap((d) => [d.balance, ...d.band]),
    currency,
  );
  return (
    <ResponsiveContainer width="100%" height={260}>
      <ComposedChart accessibilityLayer={false} data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
        <CartesianGrid vertical={false} stroke={dark ? '#1e293b' : '#e2e8f0'} />
        <XAxis
          dataKey="label"
          interval="preserveStartEnd"
          minTickGap={12}
          tick={{ fill: axis, fontSize: 12 }}
          axisLine={false}
          tickLine={false}
        />
        <YAxis
          tick={{ fill: axis, fontSize: 12 }}
          axisLine={false}
          tickLine={false}
          width={y.width}
          ticks={y.ticks}
          domain={y.domain}
          tickFormatter={y.format}
        />
        <Tooltip
          formatter={(value, name) =>
            name === 'band' && Array.isArray(value)
              ? [
                  `${formatAmount(Number(value[0]), currency)} – ${formatAmount(Number(value[1]), currency)}`,
                  'Range',
                ]
              : [formatAmount(Number(value), currency), 'Expected cash']
          }
          labelFormatter={(_, payload) => payload?.[0]?.payload?.period ?? ''}
          contentStyle={chartTooltipStyle(dark)}
        />
        <Area
          dataKey="band"
          stroke="none"
          fill={line}
          fillOpacity={dark ? 0.22 : 0.15}
          isAnimationActive={false}
        />
        <Line
          dataKey="balance"
          type="monotone"
          stroke={line}
          strokeWidth={2}
          dot={false}
          isAnimationActive={false}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
};

export default ForecastChart;

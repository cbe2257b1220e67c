import { Sparkles } from 'lucide-react';
import { formatMoney, formatMoneyCompact } from './logic.ts';
import {
  AI_INSIGHTS,
  DASHBOARD_KPIS,
  EMPLOYEE_PORTAL,
  EXECUTIVE_METRICS,
  HR_ACTIVITIES,
  HR_METRICS,
  MARKET_INTELLIGENCE,
  MONTHLY_CASH_FLOW,
  PREDICTIONS,
  PURCHASE_ORDERS,
  SHIPMENTS,
  SUPPLY_METRICS,
  VENDOR_PERFORMANCE,
  type OrderStatus,
  type RiskLevel,
} from './sampleData.ts';
import {
  AmountStatus,
  Badge,
  Card,
  ListCard,
  ProgressBar,
  Screen,
  StatGrid,
  type Tone,
  TwoLine,
  changeStats,
} from './ui.tsx';

// Panels shared by the hero's dashboard preview (tabs) and the interactive demo (sidebar).

const ORDER_TONE: Record<OrderStatus, Tone> = {
  'In Transit': 'blue',
  Processing: 'slate',
  Delivered: 'green',
  Delayed: 'red',
};
export const RISK_TONE: Record<RiskLevel, Tone> = {
  None: 'green',
  Low: 'blue',
  Medium: 'amber',
  High: 'red',
};

export const CashFlowChart = () => {
  const max = Math.max(...MONTHLY_CASH_FLOW.map((m) => m.revenue));
  return (
    <figure>
      <div className="flex h-36 items-end gap-2 sm:gap-3" aria-hidden="true">
        {MONTHLY_CASH_FLOW.map((m) => (
          <div key={m.month} className="flex h-full flex-1 flex-col justify-end">
            <div className="flex h-full items-end gap-1">
              <div
                className="flex-1 rounded-t-md bg-gradient-to-t from-brand-600 to-brand-400"
                style={{ height: `${(m.revenue / max) * 100}%` }}
              />
              <div
                className="flex-1 rounded-t-md bg-slate-300 dark:bg-slate-600"
                style={{ height: `${(m.expenses / max) * 100}%` }}
              />
            </div>
            <span className="mt-1 text-center text-[11px] text-slate-600 dark:text-slate-400">{m.month}</span>
          </div>
        ))}
      </div>
      <figcaption className="mt-2 flex gap-4 text-xs text-slate-600 dark:text-slate-400">
        <span className="inline-flex items-center gap-1.5">
          <span className="size-2 rounded-sm bg-brand-500" /> Revenue
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span className="size-2 rounded-sm bg-slate-300 dark:bg-slate-600" /> Expenses
        </span>
        <span className="sr-only">
          {MONTHLY_CASH_FLOW.map(
            (m) => `${m.month}: revenue ${formatMoney(m.revenue)}, expenses ${formatMoney(m.expenses)}`,
          ).join('; ')}
        </span>
      </figcaption>
    </figure>
  );
};

const KPI_STATS = changeStats(
  DASHBOARD_KPIS,
  (k) => formatMoneyCompact(k.value),
  (k) => k.label.startsWith('Expenses'),
);

export const OverviewPanel = () => (
  <div className="space-y-4">
    <StatGrid stats={KPI_STATS} />
    <Card title="Revenue vs expenses · H1">
      <CashFlowChart />
    </Card>
  </div>
);

const HR_STATS = [
  { label: 'Employees', value: HR_METRICS.employees },
  { label: 'Satisfaction', value: `${HR_METRICS.satisfaction}%` },
  { label: 'Turnover', value: `${HR_METRICS.turnover}%` },
  { label: 'Open roles', value: HR_METRICS.openRoles },
];

export const HrPanel = () => (
  <Screen lead={<StatGrid stats={HR_STATS} />} columns="lg:grid-cols-2">
    <ListCard title="Employee Portal" items={EMPLOYEE_PORTAL} itemKey={(tile) => tile.label} layout="tiles">
      {(tile) => (
        <>
          <p className="text-xs text-slate-600 dark:text-slate-400">{tile.label}</p>
          <p className="mt-1 text-lg font-semibold text-slate-900 dark:text-white">{tile.count}</p>
          <p className="text-xs text-amber-800 dark:text-amber-300">{tile.pending} pending</p>
        </>
      )}
    </ListCard>
    <ListCard
      title="Recent HR activities"
      items={HR_ACTIVITIES}
      itemKey={(a) => `${a.employee}-${a.activity}`}
      layout="feed"
    >
      {(a) => (
        <TwoLine
          title={a.activity}
          detail={`${a.employee} · ${a.department}`}
          aside={<span className="shrink-0 text-xs text-slate-600 dark:text-slate-400">{a.time}</span>}
        />
      )}
    </ListCard>
  </Screen>
);

const SUPPLY_STATS = [
  { label: 'Active orders', value: SUPPLY_METRICS.activeOrders },
  { label: 'Vendors', value: SUPPLY_METRICS.vendors },
  { label: 'On time', value: `${SUPPLY_METRICS.onTime}%` },
  { label: 'Spend (MTD)', value: formatMoneyCompact(SUPPLY_METRICS.spendMtd) },
];

export const SupplyPanel = () => (
  <Screen lead={<StatGrid stats={SUPPLY_STATS} />} columns="lg:grid-cols-2">
    <ListCard
      title="Vendor purchase orders"
      items={PURCHASE_ORDERS}
      itemKey={(po) => po.orderNumber}
      layout="rows"
    >
      {(po) => (
        <TwoLine
          title={po.vendor}
          titleClassName="truncate font-medium text-slate-900 dark:text-white"
          detail={`${po.orderNumber} · ETA ${po.eta} · risk ${po.risk}`}
          aside={
            <AmountStatus
              stacked
              amount={formatMoneyCompact(po.value)}
              tone={ORDER_TONE[po.status]}
              status={po.status}
            />
          }
        />
      )}
    </ListCard>
    <div className="space-y-4">
      <ListCard title="Logistics shipments" items={SHIPMENTS} itemKey={(s) => s.id} layout="stack">
        {(s) => (
          <>
            <div className="mb-1 flex justify-between gap-2">
              <span className="truncate font-medium text-slate-900 dark:text-white">{s.route}</span>
              <span className="shrink-0 text-xs text-slate-600 dark:text-slate-400">
                {s.carrier} · {s.status}
              </span>
            </div>
            <ProgressBar value={s.progress} label={`${s.id} ${s.route}`} />
          </>
        )}
      </ListCard>
      <ListCard
        title="Vendor performance"
        items={VENDOR_PERFORMANCE}
        itemKey={(v) => v.vendor}
        layout="pairs"
      >
        {(v) => (
          <>
            <span className="truncate">{v.vendor}</span>
            <span className="shrink-0 text-xs text-slate-600 tabular-nums dark:text-slate-400">
              ★ {v.rating} · {v.orders} orders · {v.onTime}% on time · {v.quality}% quality
            </span>
          </>
        )}
      </ListCard>
    </div>
  </Screen>
);

const EXECUTIVE_STATS = changeStats(
  EXECUTIVE_METRICS,
  (m) => m.value,
  (m) => m.label === 'Burn multiple',
);

export const AnalyticsPanel = () => (
  <Screen lead={<StatGrid stats={EXECUTIVE_STATS} />} columns="lg:grid-cols-3">
    <ListCard title="AI insights" items={AI_INSIGHTS} itemKey={(i) => i.insight} layout="notes">
      {(i) => (
        <>
          <Sparkles
            aria-hidden="true"
            className="mt-0.5 size-4 shrink-0 text-violet-600 dark:text-violet-400"
          />
          <div>
            <p className="text-slate-800 dark:text-slate-200">{i.insight}</p>
            <p className="text-xs text-slate-600 dark:text-slate-400">{i.confidence}% confidence</p>
          </div>
        </>
      )}
    </ListCard>
    <ListCard title="Predictive analytics" items={PREDICTIONS} itemKey={(p) => p.label} layout="spread">
      {(p) => (
        <TwoLine
          title={p.label}
          detail={`${p.confidence}% confidence · ${p.variance}`}
          aside={<span className="font-semibold tabular-nums">{p.value}</span>}
        />
      )}
    </ListCard>
    <ListCard
      title="Market intelligence"
      items={MARKET_INTELLIGENCE}
      itemKey={(m) => m.market}
      layout="spread"
    >
      {(m) => (
        <TwoLine
          title={m.market}
          detail={`Trend ${m.trend} · ${m.sentiment}`}
          aside={<Badge tone={RISK_TONE[m.risk]}>{m.risk} risk</Badge>}
        />
      )}
    </ListCard>
  </Screen>
);

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
import { Badge, Card, Change, ListCard, ProgressBar, Stat, type Tone } from './ui.tsx';

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

export const OverviewPanel = () => (
  <div className="space-y-4">
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {DASHBOARD_KPIS.map((k) => (
        <Stat
          key={k.label}
          label={k.label}
          value={formatMoneyCompact(k.value)}
          hint={<Change value={k.change} invert={k.label.startsWith('Expenses')} />}
        />
      ))}
    </div>
    <Card title="Revenue vs expenses · H1">
      <CashFlowChart />
    </Card>
  </div>
);

export const HrPanel = () => (
  <div className="space-y-4">
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Stat label="Employees" value={HR_METRICS.employees} />
      <Stat label="Satisfaction" value={`${HR_METRICS.satisfaction}%`} />
      <Stat label="Turnover" value={`${HR_METRICS.turnover}%`} />
      <Stat label="Open roles" value={HR_METRICS.openRoles} />
    </div>
    <div className="grid gap-4 lg:grid-cols-2">
      <ListCard
        title="Employee Portal"
        items={EMPLOYEE_PORTAL}
        itemKey={(tile) => tile.label}
        listClassName="grid grid-cols-2 gap-2"
        itemClassName="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60"
      >
        {(tile) => (
          <>
            <p className="text-xs text-slate-600 dark:text-slate-400">{tile.label}</p>
            <p className="mt-1 text-lg font-semibold text-slate-900 dark:text-white">{tile.count}</p>
            <p className="text-xs text-amber-800 dark:text-amber-300">{tile.pending} pending</p>
          </>
        )}
      </ListCard>
      <Card title="Recent HR activities">
        <ul className="space-y-2.5">
          {HR_ACTIVITIES.map((a) => (
            <li
              key={`${a.employee}-${a.activity}`}
              className="flex items-start justify-between gap-3 text-sm"
            >
              <div>
                <p className="font-medium text-slate-900 dark:text-white">{a.activity}</p>
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  {a.employee} · {a.department}
                </p>
              </div>
              <span className="shrink-0 text-xs text-slate-600 dark:text-slate-400">{a.time}</span>
            </li>
          ))}
        </ul>
      </Card>
    </div>
  </div>
);

export const SupplyPanel = () => (
  <div className="space-y-4">
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Stat label="Active orders" value={SUPPLY_METRICS.activeOrders} />
      <Stat label="Vendors" value={SUPPLY_METRICS.vendors} />
      <Stat label="On time" value={`${SUPPLY_METRICS.onTime}%`} />
      <Stat label="Spend (MTD)" value={formatMoneyCompact(SUPPLY_METRICS.spendMtd)} />
    </div>
    <div className="grid gap-4 lg:grid-cols-2">
      <ListCard
        title="Vendor purchase orders"
        items={PURCHASE_ORDERS}
        itemKey={(po) => po.orderNumber}
        listClassName="divide-y divide-slate-100 dark:divide-slate-800"
        itemClassName="flex items-center justify-between gap-3 py-2 text-sm"
      >
        {(po) => (
          <>
            <div className="min-w-0">
              <p className="truncate font-medium text-slate-900 dark:text-white">{po.vendor}</p>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                {po.orderNumber} · ETA {po.eta} · risk {po.risk}
              </p>
            </div>
            <div className="flex shrink-0 flex-col items-end gap-1">
              <span className="font-medium tabular-nums">{formatMoneyCompact(po.value)}</span>
              <Badge tone={ORDER_TONE[po.status]}>{po.status}</Badge>
            </div>
          </>
        )}
      </ListCard>
      <div className="space-y-4">
        <ListCard
          title="Logistics shipments"
          items={SHIPMENTS}
          itemKey={(s) => s.id}
          listClassName="space-y-3"
          itemClassName="text-sm"
        >
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
          listClassName="space-y-1.5 text-sm"
          itemClassName="flex justify-between gap-2"
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
    </div>
  </div>
);

export const AnalyticsPanel = () => (
  <div className="space-y-4">
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      {EXECUTIVE_METRICS.map((m) => (
        <Stat
          key={m.label}
          label={m.label}
          value={m.value}
          hint={<Change value={m.change} invert={m.label === 'Burn multiple'} />}
        />
      ))}
    </div>
    <div className="grid gap-4 lg:grid-cols-3">
      <ListCard
        title="AI insights"
        className="lg:col-span-1"
        items={AI_INSIGHTS}
        itemKey={(i) => i.insight}
        listClassName="space-y-3"
        itemClassName="flex gap-2 text-sm"
      >
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
      <ListCard
        title="Predictive analytics"
        items={PREDICTIONS}
        itemKey={(p) => p.label}
        listClassName="space-y-2.5 text-sm"
        itemClassName="flex items-center justify-between gap-2"
      >
        {(p) => (
          <>
            <div>
              <p className="font-medium text-slate-900 dark:text-white">{p.label}</p>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                {p.confidence}% confidence · {p.variance}
              </p>
            </div>
            <span className="font-semibold tabular-nums">{p.value}</span>
          </>
        )}
      </ListCard>
      <ListCard
        title="Market intelligence"
        items={MARKET_INTELLIGENCE}
        itemKey={(m) => m.market}
        listClassName="space-y-2.5 text-sm"
        itemClassName="flex items-center justify-between gap-2"
      >
        {(m) => (
          <>
            <div>
              <p className="font-medium text-slate-900 dark:text-white">{m.market}</p>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                Trend {m.trend} · {m.sentiment}
              </p>
            </div>
            <Badge tone={RISK_TONE[m.risk]}>{m.risk} risk</Badge>
          </>
        )}
      </ListCard>
    </div>
  </div>
);

import { Pause, Play } from 'lucide-react';
import { useState } from 'react';
import { useAutoToggle } from './autoToggle.ts';
import { AnalyticsPanel, HrPanel, OverviewPanel, SupplyPanel } from './panels.tsx';
import { DEMO_COMPANY, DEMO_FISCAL_YEAR } from './sampleData.ts';
import { Tabs } from './Tabs.tsx';

// The dashboard preview embedded in the landing hero (SPEC section 2, Demo): tabs Overview,
// HR, Supply and Analytics over the sample data, moving on every 3 s until the visitor picks
// a tab or presses pause.

const TABS = [
  { id: 'overview', label: 'Overview', Panel: OverviewPanel },
  { id: 'hr', label: 'HR', Panel: HrPanel },
  { id: 'supply', label: 'Supply', Panel: SupplyPanel },
  { id: 'analytics', label: 'Analytics', Panel: AnalyticsPanel },
] as const;

const DashboardPreview = () => {
  const [auto, setAuto] = useState(true);
  const [index, setIndex] = useAutoToggle(TABS.length, auto);
  const active = TABS[index] ?? TABS[0];
  const { Panel } = active;
  const pick = (id: (typeof TABS)[number]['id']) => {
    setAuto(false);
    setIndex(TABS.findIndex((t) => t.id === id));
  };
  return (
    <div
      data-testid="dashboard-preview"
      data-auto={auto ? 'on' : 'off'}
      className="overflow-hidden rounded-2xl border border-slate-200 bg-slate-50 text-left shadow-2xl shadow-slate-900/10 dark:border-slate-800 dark:bg-slate-950 dark:shadow-black/40"
    >
      <div className="flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-2.5 dark:border-slate-800 dark:bg-slate-900">
        <div className="flex gap-1.5" aria-hidden="true">
          <span className="size-2.5 rounded-full bg-red-400" />
          <span className="size-2.5 rounded-full bg-amber-400" />
          <span className="size-2.5 rounded-full bg-emerald-400" />
        </div>
        <p className="truncate text-xs font-medium text-slate-600 dark:text-slate-400">
          {DEMO_COMPANY} · Dashboard · {DEMO_FISCAL_YEAR}
        </p>
        <span className="ml-auto shrink-0 rounded-full bg-amber-100 px-2 py-0.5 text-[11px] font-semibold whitespace-nowrap text-amber-900 dark:bg-amber-500/15 dark:text-amber-200">
          Sample data
        </span>
      </div>
      {/* Keeps the heading outline in order: the hero's h1, then this preview, then its cards. */}
      <h2 className="sr-only">Dashboard preview with sample data</h2>
      <div className="space-y-4 p-3 sm:p-5">
        <div className="flex items-center gap-2">
          <div className="min-w-0 flex-1">
            <Tabs label="Dashboard preview" tabs={TABS} active={active.id} size="sm" onSelect={pick} />
          </div>
          <button
            type="button"
            onClick={() => setAuto((a) => !a)}
            aria-label={auto ? 'Pause the preview' : 'Play the preview'}
            aria-pressed={!auto}
            className="inline-flex size-11 shrink-0 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-800"
          >
            {auto ? (
              <Pause aria-hidden="true" className="size-4" />
            ) : (
              <Play aria-hidden="true" className="size-4" />
            )}
          </button>
        </div>
        <div role="tabpanel" aria-label={`${active.label} preview`} className="min-h-[22rem]">
          <h3 className="sr-only">{active.label}</h3>
          <Panel />
        </div>
      </div>
    </div>
  );
};

export default DashboardPreview;

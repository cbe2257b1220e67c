import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { GeneralLedgerView } from './GeneralLedgerTab.tsx';
import { JournalReportView } from './JournalReport.tsx';
import { BalanceSheetReport, CashFlowReport, IncomeStatementReport } from './Statements.tsx';
import { TrialBalanceTab } from './TrialBalanceTab.tsx';
import { YearEndPanel } from './YearEnd.tsx';

// Reports: every ledger report with its own date pickers and CSV/PDF export links.

const REPORTS = [
  { id: 'income-statement', label: 'Income statement', hint: 'Profit and loss, against earlier periods' },
  { id: 'balance-sheet', label: 'Balance sheet', hint: 'Assets, liabilities and equity' },
  { id: 'cash-flow', label: 'Cash flow', hint: 'Where cash came from and went (indirect)' },
  { id: 'trial-balance', label: 'Trial balance', hint: 'Every balance, debits equal credits' },
  { id: 'general-ledger', label: 'General ledger', hint: 'One account with running balance' },
  { id: 'journal', label: 'Journal', hint: 'Posted entries with their lines' },
  { id: 'year-end', label: 'Year end', hint: 'Opening balances, close and reopen years' },
] as const;
type ReportId = (typeof REPORTS)[number]['id'];

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * What a link asks for (the dashboard's figures link here): `report`, and its period as `from`
 * and `to` (ISO days). Anything else falls back to the income statement over the fiscal year.
 */
export const reportFromLink = (
  params: URLSearchParams,
  fallback: { from: string; to: string },
): { report: ReportId; from: string; to: string } => {
  const asked = params.get('report');
  const report = REPORTS.find((r) => r.id === asked)?.id ?? 'income-statement';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const valid = ISO_DAY.test(from) && ISO_DAY.test(to) && from <= to;
  return { report, from: valid ? from : fallback.from, to: valid ? to : fallback.to };
};

export const ReportsTab = ({
  today,
  fy,
  onOpenEntry,
}: {
  today: string;
  fy: { start: string; end: string };
  onOpenEntry: (id: string) => void;
}) => {
  const [params] = useSearchParams();
  // Read once, when the tab opens: the pickers are the user's from then on.
  const [linked] = useState(() => reportFromLink(params, { from: fy.start, to: today }));
  const [report, setReport] = useState<ReportId>(linked.report);
  const [glAccount, setGlAccount] = useState<string | null>(null);
  return (
    <div className="grid gap-6 lg:grid-cols-[15rem_1fr]">
      <nav aria-label="Reports">
        <ul className="space-y-1">
          {REPORTS.map((r) => (
            <li key={r.id}>
              <button
                type="button"
                aria-current={report === r.id ? 'page' : undefined}
                onClick={() => setReport(r.id)}
                className={`w-full rounded-lg px-3 py-2 text-left transition-colors ${report === r.id ? 'bg-brand-50 text-brand-800 dark:bg-brand-900/40 dark:text-brand-100' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'}`}
              >
                <span className="block text-sm font-medium">{r.label}</span>
                <span
                  className={`block text-xs ${report === r.id ? 'text-brand-800 dark:text-brand-200' : 'text-slate-600 dark:text-slate-400'}`}
                >
                  {r.hint}
                </span>
              </button>
            </li>
          ))}
        </ul>
      </nav>
      <div className="min-w-0">
        {report === 'income-statement' ? (
          <IncomeStatementReport defaultFrom={linked.from} today={linked.to} />
        ) : null}
        {report === 'balance-sheet' ? <BalanceSheetReport today={linked.to} /> : null}
        {report === 'cash-flow' ? <CashFlowReport defaultFrom={linked.from} today={linked.to} /> : null}
        {report === 'trial-balance' ? (
          <TrialBalanceTab
            today={today}
            onOpenAccount={(id) => {
              setGlAccount(id);
              setReport('general-ledger');
            }}
          />
        ) : null}
        {report === 'general-ledger' ? (
          <GeneralLedgerView
            today={today}
            fyStart={fy.start}
            accountId={glAccount}
            onAccountChange={setGlAccount}
            onOpenEntry={onOpenEntry}
          />
        ) : null}
        {report === 'year-end' ? <YearEndPanel today={today} onOpenEntry={onOpenEntry} /> : null}
        {report === 'journal' ? (
          <JournalReportView defaultFrom={fy.start} today={today} onOpenEntry={onOpenEntry} />
        ) : null}
      </div>
    </div>
  );
};

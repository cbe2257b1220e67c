import { Lock, Plus, Settings2, ShieldCheck } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { JournalEntry } from '../../../shared/ledger.ts';
import { Button } from '../../components/ui/Button.tsx';
import { useCompany } from '../../lib/company.tsx';
import { ChartOfAccountsTab } from './ChartOfAccountsTab.tsx';
import { formatDate } from '../../lib/format.ts';
import { fiscalYearLabel, fiscalYearOf, todayIso } from './dates.ts';
import { EntryDetail } from './EntryDetail.tsx';
import { EntryEditor } from './EntryEditor.tsx';
import { GeneralLedgerTab } from './GeneralLedgerTab.tsx';
import { JournalEntriesTab } from './JournalEntriesTab.tsx';
import { useLedgerSettings } from './ledgerApi.ts';
import { LedgerSettingsDialog } from './LedgerSettingsDialog.tsx';
import { ReportsTab } from './ReportsTab.tsx';
import { SummaryCards } from './SummaryCards.tsx';
import { TrialBalanceTab } from './TrialBalanceTab.tsx';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { PageTabs, tabFrom } from '../../components/ui/Tabs.tsx';

// /accounting: the books of the current company. Statement summaries for the fiscal year at
// the top; below, the ledger views as tabs (General Ledger, Trial Balance, Journal Entries as
// the demo has them, plus Chart of Accounts and Reports). The tab lives in the query string
// so a view can be bookmarked and the back button works.

export type EditorState = { mode: 'new' } | { mode: 'edit'; entry: JournalEntry } | null;

const AccountingPage = () => {
  const { company, can } = useCompany();
  const [params, setParams] = useSearchParams();
  const today = useMemo(() => todayIso(), []);
  const fy = fiscalYearOf(today, company.fiscalYearStartMonth);
  const settings = useLedgerSettings();
  // /accounting?new=entry (the dashboard's guide links here) opens the editor straight away.
  const [editor, setEditor] = useState<EditorState>(() =>
    params.get('new') === 'entry' && can('record') ? { mode: 'new' } : null,
  );
  // /accounting?entry=<id> (a bill's or an invoice's "Journal entry" link) opens that entry.
  const [detailId, setDetailId] = useState<string | null>(() => params.get('entry'));
  const [settingsOpen, setSettingsOpen] = useState(false);

  const setTab = (next: string, extra: Record<string, string> = {}) =>
    setParams({ tab: next, ...extra }, { replace: false });
  const openLedger = (accountId: string) => setTab('general-ledger', { account: accountId });

  const lockDate = settings.data?.lockDate ?? null;
  const tabs = [
    {
      id: 'general-ledger',
      label: 'General Ledger',
      panel: (
        <GeneralLedgerTab
          today={today}
          fyStart={fy.start}
          accountId={params.get('account')}
          onAccountChange={(id) => setTab('general-ledger', id ? { account: id } : {})}
          onOpenEntry={setDetailId}
        />
      ),
    },
    {
      id: 'trial-balance',
      label: 'Trial Balance',
      panel: <TrialBalanceTab today={today} onOpenAccount={openLedger} />,
    },
    {
      id: 'journal',
      label: 'Journal Entries',
      panel: (
        <JournalEntriesTab
          onNew={() => setEditor({ mode: 'new' })}
          onOpen={setDetailId}
          approvalRequired={settings.data?.approvalRequired ?? false}
        />
      ),
    },
    { id: 'accounts', label: 'Chart of Accounts', panel: <ChartOfAccountsTab onOpenAccount={openLedger} /> },
    {
      id: 'reports',
      label: 'Reports',
      panel: <ReportsTab today={today} fy={fy} onOpenEntry={setDetailId} />,
    },
  ];

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Accounting"
        description={
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span>
              {company.name} · {fiscalYearLabel(fy)} ({formatDate(fy.start)} – {formatDate(fy.end)}) ·{' '}
              {company.baseCurrency}
            </span>
            {lockDate ? (
              <span className="inline-flex items-center gap-1 rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-700 dark:bg-slate-800 dark:text-slate-200">
                <Lock className="h-3 w-3" aria-hidden="true" /> Books locked through {formatDate(lockDate)}
              </span>
            ) : null}
            {settings.data?.approvalRequired ? (
              <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900/60 dark:text-amber-100">
                <ShieldCheck className="h-3 w-3" aria-hidden="true" /> Entries need approval
              </span>
            ) : null}
          </span>
        }
        actions={
          <>
            {can('manage_settings') ? (
              <Button variant="secondary" onClick={() => setSettingsOpen(true)}>
                <Settings2 className="h-4 w-4" aria-hidden="true" /> Ledger settings
              </Button>
            ) : null}
            {can('record') ? (
              <Button onClick={() => setEditor({ mode: 'new' })}>
                <Plus className="h-4 w-4" aria-hidden="true" /> New journal entry
              </Button>
            ) : null}
          </>
        }
      />

      <SummaryCards fy={fy} today={today} />

      <PageTabs
        label="Accounting views"
        tabs={tabs}
        value={tabFrom(tabs, params.get('tab'), 'journal')}
        onValueChange={(v) => setTab(v)}
      />

      {editor ? (
        <EntryEditor
          key={editor.mode === 'edit' ? editor.entry.id : 'new'}
          entry={editor.mode === 'edit' ? editor.entry : null}
          today={today}
          lockDate={lockDate}
          approvalRequired={settings.data?.approvalRequired ?? false}
          onClose={() => setEditor(null)}
          onSaved={(entry) => {
            setEditor(null);
            setDetailId(entry.id);
          }}
        />
      ) : null}
      <EntryDetail
        entryId={detailId}
        today={today}
        onClose={() => setDetailId(null)}
        onOpen={setDetailId}
        onEdit={(entry) => {
          setDetailId(null);
          setEditor({ mode: 'edit', entry });
        }}
      />
      {settingsOpen && settings.data ? (
        <LedgerSettingsDialog settings={settings.data} onClose={() => setSettingsOpen(false)} />
      ) : null}
    </div>
  );
};

export default AccountingPage;

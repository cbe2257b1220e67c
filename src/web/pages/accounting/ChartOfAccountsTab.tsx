import { Archive, ArchiveRestore, Pencil, Upload } from 'lucide-react';
import { useState } from 'react';
import { type Account, SUBTYPE_LABELS } from '../../../shared/ledger.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Badge } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { CheckboxField } from '../../components/ui/Form.tsx';
import { ActionsTh, ListCard, NewButton, SearchField } from '../../components/ui/ListCard.tsx';
import { Table, Td, Th } from '../../components/ui/Table.tsx';
import { useCompany } from '../../lib/company.tsx';
import { AccountDialog, ImportDialog } from './ChartDialogs.tsx';
import { JournalImportForm, JournalImportIcon } from './JournalImport.tsx';
import { useAccounts, useUpdateAccount } from './ledgerApi.ts';
import { AccountCells, AccountTypeGroups, errorText } from './parts.tsx';

// Chart of Accounts: the company's accounts by type. Those who manage settings add, rename
// and archive accounts and import a chart from CSV; everyone else reads it.

export const ChartOfAccountsTab = ({ onOpenAccount }: { onOpenAccount: (accountId: string) => void }) => {
  const { can } = useCompany();
  const accounts = useAccounts();
  const update = useUpdateAccount();
  const [showArchived, setShowArchived] = useState(false);
  const [filter, setFilter] = useState('');
  const [editing, setEditing] = useState<Account | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const [importingJournal, setImportingJournal] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const manage = can('manage_settings');

  const all = accounts.data ?? [];
  const q = filter.trim().toLowerCase();
  const visible = all.filter(
    (a) => (showArchived || !a.archived) && (!q || `${a.code} ${a.name}`.toLowerCase().includes(q)),
  );
  const archivedCount = all.filter((a) => a.archived).length;

  const toggleArchive = async (a: Account) => {
    setError(null);
    setNotice(null);
    try {
      await update.mutateAsync({ id: a.id, archived: !a.archived });
      setNotice(
        a.archived
          ? `${a.code} ${a.name} is active again.`
          : `${a.code} ${a.name} is archived. Its history stays in every report.`,
      );
    } catch (err) {
      setError(errorText(err));
    }
  };

  const done = (message: string) => {
    setEditing(null);
    setImporting(false);
    setNotice(message);
  };

  return (
    <ListCard
      title="Chart of accounts"
      description={`${all.length - archivedCount} active account${all.length - archivedCount === 1 ? '' : 's'}${archivedCount ? `, ${archivedCount} archived` : ''}`}
      actions={
        manage ? (
          <>
            <Button variant="secondary" onClick={() => setImporting(true)}>
              <Upload className="h-4 w-4" aria-hidden="true" /> Import CSV
            </Button>
            {can('post') ? (
              <Button variant="secondary" onClick={() => setImportingJournal(true)}>
                <JournalImportIcon className="h-4 w-4" aria-hidden="true" /> Import journal
              </Button>
            ) : null}
            <NewButton onClick={() => setEditing('new')}>Add account</NewButton>
          </>
        ) : null
      }
      toolbar={
        <>
          <SearchField
            label="Filter accounts"
            value={filter}
            onChange={setFilter}
            placeholder="Filter by code or name"
            className="w-64"
          />
          <CheckboxField label="Show archived accounts" checked={showArchived} onChange={setShowArchived} />
        </>
      }
      notices={[{ tone: 'success', message: notice }, { message: error }]}
      state={{
        loading: accounts.isLoading,
        loadingLabel: 'Loading the chart of accounts...',
        error: accounts.isError
          ? `Could not load the chart of accounts. ${errorText(accounts.error, 'reload')}`
          : null,
        onRetry: () => void accounts.refetch(),
        empty: visible.length === 0,
        emptyTitle: all.length === 0 ? 'No accounts yet' : 'No accounts match',
        emptyDescription:
          all.length === 0
            ? 'Add your accounts one by one, or import your existing chart from a CSV file.'
            : 'Clear the filter to see every account.',
      }}
      footer={
        <>
          {editing !== null ? (
            <AccountDialog
              account={editing === 'new' ? null : editing}
              onClose={() => setEditing(null)}
              onDone={done}
            />
          ) : null}
          {importing ? <ImportDialog onClose={() => setImporting(false)} onDone={done} /> : null}
          <Dialog
            open={importingJournal}
            onOpenChange={setImportingJournal}
            title="Import hledger or ledger journal"
            description="Post every transaction of a plain-text accounting file."
          >
            {importingJournal ? <JournalImportForm onClose={() => setImportingJournal(false)} /> : null}
          </Dialog>
        </>
      }
    >
      <AccountsTable
        accounts={visible}
        manage={manage}
        onOpen={onOpenAccount}
        onEdit={setEditing}
        onToggleArchive={(a) => void toggleArchive(a)}
      />
    </ListCard>
  );
};

const rowButton =
  'inline-flex min-h-11 items-center gap-1.5 rounded-lg px-2.5 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800';

/** The accounts grouped by type, each group under its heading. */
const AccountsTable = ({
  accounts,
  manage,
  onOpen,
  onEdit,
  onToggleArchive,
}: {
  accounts: Account[];
  manage: boolean;
  onOpen: (id: string) => void;
  onEdit: (a: Account) => void;
  onToggleArchive: (a: Account) => void;
}) => (
  <Table caption="Chart of accounts by type" captionHidden>
    <thead>
      <tr>
        <Th className="w-24">Code</Th>
        <Th>Name</Th>
        <Th className="w-48">Detail type</Th>
        <Th className="w-32">Status</Th>
        {manage ? <ActionsTh className="w-48" /> : null}
      </tr>
    </thead>
    <AccountTypeGroups
      rows={accounts}
      columns={manage ? 5 : 4}
      row={(a) => (
        <tr key={a.id} className={a.archived ? 'opacity-60' : 'hover:bg-slate-50 dark:hover:bg-slate-800/50'}>
          <AccountCells
            code={a.code}
            name={a.name}
            onOpen={() => onOpen(a.id)}
            title="Open in the general ledger"
            strong
          >
            {a.description ? (
              <span className="block text-xs font-normal text-slate-500 dark:text-slate-400">
                {a.description}
              </span>
            ) : null}
          </AccountCells>
          <Td className="text-slate-600 dark:text-slate-300">{SUBTYPE_LABELS[a.subtype] ?? a.subtype}</Td>
          <Td>{a.archived ? <Badge tone="slate">Archived</Badge> : <Badge tone="green">Active</Badge>}</Td>
          {manage ? (
            <Td className="py-1">
              <div className="flex justify-end gap-1">
                <button
                  type="button"
                  onClick={() => onEdit(a)}
                  aria-label={`Rename ${a.code} ${a.name}`}
                  className={rowButton}
                >
                  <Pencil className="h-4 w-4" aria-hidden="true" /> Edit
                </button>
                <button
                  type="button"
                  onClick={() => onToggleArchive(a)}
                  aria-label={`${a.archived ? 'Restore' : 'Archive'} ${a.code} ${a.name}`}
                  className={rowButton}
                >
                  {a.archived ? (
                    <ArchiveRestore className="h-4 w-4" aria-hidden="true" />
                  ) : (
                    <Archive className="h-4 w-4" aria-hidden="true" />
                  )}
                  {a.archived ? 'Restore' : 'Archive'}
                </button>
              </div>
            </Td>
          ) : null}
        </tr>
      )}
    />
  </Table>
);

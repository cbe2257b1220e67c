import { Archive, ArchiveRestore, Pencil, Plus, Upload } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import {
  ACCOUNT_SUBTYPES,
  ACCOUNT_TYPES,
  type Account,
  type AccountTypeName,
  accountCreateSchema,
  SUBTYPE_LABELS,
  ACCOUNT_TYPE_LABELS,
} from '../../../shared/ledger.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge, Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { RowTh, Table, Td, Th } from '../../components/ui/Table.tsx';
import { ApiError } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { JournalImportForm, JournalImportIcon } from './JournalImport.tsx';
import { useAccounts, useCreateAccount, useImportAccounts, useUpdateAccount } from './ledgerApi.ts';
import { errorText, Loading, LoadError } from './parts.tsx';

// Chart of Accounts: the company's accounts by type. Those who manage settings add, rename
// and archive accounts and import a chart from CSV; everyone else reads it.

const TYPE_HEADING: Record<AccountTypeName, string> = {
  asset: 'Assets',
  liability: 'Liabilities',
  equity: 'Equity',
  income: 'Income',
  expense: 'Expenses',
};

const AccountForm = ({ account, onDone }: { account: Account | null; onDone: (message: string) => void }) => {
  const create = useCreateAccount();
  const update = useUpdateAccount();
  const [code, setCode] = useState(account?.code ?? '');
  const [name, setName] = useState(account?.name ?? '');
  const [type, setType] = useState<AccountTypeName>(account?.type ?? 'expense');
  const [subtype, setSubtype] = useState(account?.subtype ?? 'operating_expense');
  const [description, setDescription] = useState(account?.description ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const parsed = accountCreateSchema.safeParse({ code, name, type, subtype, description });
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    try {
      if (account) {
        await update.mutateAsync({
          id: account.id,
          code: parsed.data.code,
          name: parsed.data.name,
          subtype,
          description,
        });
        onDone(`Saved ${parsed.data.code} ${parsed.data.name}.`);
      } else {
        await create.mutateAsync(parsed.data);
        onDone(`Added ${parsed.data.code} ${parsed.data.name}.`);
      }
    } catch (err) {
      setError(errorText(err));
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-[8rem_1fr]">
        <TextField
          label="Code"
          value={code}
          onChange={(e) => setCode(e.target.value)}
          error={errors.code}
          maxLength={20}
          required
        />
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={errors.name}
          maxLength={120}
          required
        />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Type"
          value={type}
          disabled={account !== null}
          hint={account ? 'The type of an existing account does not change.' : undefined}
          onChange={(e) => {
            const next = e.target.value as AccountTypeName;
            setType(next);
            setSubtype(ACCOUNT_SUBTYPES[next][0]!);
          }}
          options={ACCOUNT_TYPES.map((t) => ({ value: t, label: ACCOUNT_TYPE_LABELS[t] }))}
        />
        <SelectField
          label="Detail type"
          value={subtype}
          onChange={(e) => setSubtype(e.target.value)}
          options={ACCOUNT_SUBTYPES[type].map((s) => ({ value: s, label: SUBTYPE_LABELS[s] ?? s }))}
        />
      </div>
      <TextField
        label="Description"
        value={description}
        maxLength={500}
        placeholder="Optional"
        onChange={(e) => setDescription(e.target.value)}
      />
      {error ? <Alert>{error}</Alert> : null}
      <div className="flex justify-end gap-2">
        <Button type="submit" busy={create.isPending || update.isPending}>
          {account ? 'Save account' : 'Add account'}
        </Button>
      </div>
    </form>
  );
};

const ImportForm = ({ onDone }: { onDone: (message: string) => void }) => {
  const importCsv = useImportAccounts();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [problems, setProblems] = useState<string[]>([]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setProblems([]);
    if (!file) {
      setError('Choose a CSV file to import.');
      return;
    }
    if (file.size > 2_000_000) {
      setError('The file is larger than 2 MB. Split it, or remove columns other than the ones listed.');
      return;
    }
    try {
      const result = await importCsv.mutateAsync(await file.text());
      onDone(`Imported the chart: ${result.created ?? 0} added, ${result.updated ?? 0} updated.`);
    } catch (err) {
      setError(errorText(err));
      const details =
        err instanceof ApiError ? (err.details as { errors?: string[] } | undefined) : undefined;
      if (Array.isArray(details?.errors)) setProblems(details.errors);
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="rounded-lg bg-slate-50 p-4 text-sm text-slate-600 dark:bg-slate-800/60 dark:text-slate-300">
        <p>
          The first row names the columns: <code className="font-mono">code</code>,{' '}
          <code className="font-mono">name</code>, <code className="font-mono">type</code> (asset, liability,
          equity, income or expense), and optionally <code className="font-mono">subtype</code>,{' '}
          <code className="font-mono">parent_code</code>, <code className="font-mono">description</code>.
        </p>
        <p className="mt-2">
          Existing codes are renamed; new codes are added. Nothing is imported if any row has a problem.
        </p>
      </div>
      <div className="space-y-1.5">
        <label htmlFor="chart-csv" className="block text-sm font-medium text-slate-700 dark:text-slate-200">
          CSV file
        </label>
        <input
          id="chart-csv"
          type="file"
          accept=".csv,text/csv"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          className="block min-h-11 w-full text-sm text-slate-700 file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-brand-50 file:px-4 file:font-semibold file:text-brand-700 dark:text-slate-200 dark:file:bg-brand-900/50 dark:file:text-brand-200"
        />
      </div>
      {error ? <Alert>{error}</Alert> : null}
      {problems.length > 0 ? (
        <ul className="max-h-48 list-disc space-y-1 overflow-y-auto pl-5 text-sm text-red-700 dark:text-red-300">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      <div className="flex justify-end">
        <Button type="submit" busy={importCsv.isPending}>
          <Upload className="h-4 w-4" aria-hidden="true" /> Import accounts
        </Button>
      </div>
    </form>
  );
};

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

  return (
    <Card>
      <CardHeader
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
              <Button onClick={() => setEditing('new')}>
                <Plus className="h-4 w-4" aria-hidden="true" /> Add account
              </Button>
            </>
          ) : null
        }
      />
      <div className="flex flex-wrap items-center gap-4 border-b border-slate-200 px-5 py-3 dark:border-slate-800">
        <label className="flex items-center gap-2">
          <span className="sr-only">Filter accounts</span>
          <input
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder="Filter by code or name"
            className="min-h-11 w-64 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
          />
        </label>
        <label className="flex min-h-11 items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
          <input
            type="checkbox"
            checked={showArchived}
            onChange={(e) => setShowArchived(e.target.checked)}
            className="h-5 w-5 rounded border-slate-300 text-brand-600"
          />
          Show archived accounts
        </label>
      </div>
      {notice ? (
        <div className="px-5 pt-4">
          <Alert tone="success">{notice}</Alert>
        </div>
      ) : null}
      {error ? (
        <div className="px-5 pt-4">
          <Alert>{error}</Alert>
        </div>
      ) : null}
      {accounts.isLoading ? (
        <Loading label="Loading the chart of accounts..." />
      ) : accounts.isError ? (
        <LoadError
          error={accounts.error}
          what="the chart of accounts"
          onRetry={() => void accounts.refetch()}
        />
      ) : visible.length === 0 ? (
        <EmptyState
          title={all.length === 0 ? 'No accounts yet' : 'No accounts match'}
          description={
            all.length === 0
              ? 'Add your accounts one by one, or import your existing chart from a CSV file.'
              : 'Clear the filter to see every account.'
          }
        />
      ) : (
        <Table caption="Chart of accounts by type" captionHidden>
          <thead>
            <tr>
              <Th className="w-24">Code</Th>
              <Th>Name</Th>
              <Th className="w-48">Detail type</Th>
              <Th className="w-32">Status</Th>
              {manage ? (
                <Th className="w-48">
                  <span className="sr-only">Actions</span>
                </Th>
              ) : null}
            </tr>
          </thead>
          {ACCOUNT_TYPES.map((type) => {
            const group = visible.filter((a) => a.type === type);
            if (group.length === 0) return null;
            return (
              <tbody key={type}>
                <tr>
                  <th
                    scope="colgroup"
                    colSpan={manage ? 5 : 4}
                    className="bg-slate-50/70 px-4 pt-4 pb-1.5 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase dark:bg-slate-900/40 dark:text-slate-400"
                  >
                    {TYPE_HEADING[type]}
                  </th>
                </tr>
                {group.map((a) => (
                  <tr
                    key={a.id}
                    className={a.archived ? 'opacity-60' : 'hover:bg-slate-50 dark:hover:bg-slate-800/50'}
                  >
                    <Td className="tabular-nums text-slate-500 dark:text-slate-400">{a.code}</Td>
                    <RowTh>
                      <button
                        type="button"
                        onClick={() => onOpenAccount(a.id)}
                        className="text-left font-medium text-slate-900 underline-offset-2 hover:underline dark:text-white"
                        title="Open in the general ledger"
                      >
                        {a.name}
                      </button>
                      {a.description ? (
                        <span className="block text-xs font-normal text-slate-500 dark:text-slate-400">
                          {a.description}
                        </span>
                      ) : null}
                    </RowTh>
                    <Td className="text-slate-600 dark:text-slate-300">
                      {SUBTYPE_LABELS[a.subtype] ?? a.subtype}
                    </Td>
                    <Td>
                      {a.archived ? <Badge tone="slate">Archived</Badge> : <Badge tone="green">Active</Badge>}
                    </Td>
                    {manage ? (
                      <Td className="py-1">
                        <div className="flex justify-end gap-1">
                          <button
                            type="button"
                            onClick={() => setEditing(a)}
                            aria-label={`Rename ${a.code} ${a.name}`}
                            className="inline-flex min-h-11 items-center gap-1.5 rounded-lg px-2.5 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
                          >
                            <Pencil className="h-4 w-4" aria-hidden="true" /> Edit
                          </button>
                          <button
                            type="button"
                            onClick={() => void toggleArchive(a)}
                            aria-label={`${a.archived ? 'Restore' : 'Archive'} ${a.code} ${a.name}`}
                            className="inline-flex min-h-11 items-center gap-1.5 rounded-lg px-2.5 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800"
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
                ))}
              </tbody>
            );
          })}
        </Table>
      )}
      <Dialog
        open={editing !== null}
        onOpenChange={(o) => (!o ? setEditing(null) : undefined)}
        title={editing === 'new' ? 'Add account' : 'Edit account'}
        description={
          editing === 'new'
            ? 'New accounts are ready for entries at once.'
            : 'Renaming keeps every posting and report history.'
        }
      >
        {editing !== null ? (
          <AccountForm
            account={editing === 'new' ? null : editing}
            onDone={(message) => {
              setEditing(null);
              setNotice(message);
            }}
          />
        ) : null}
      </Dialog>
      <Dialog
        open={importing}
        onOpenChange={setImporting}
        title="Import chart of accounts"
        description="Bring your accounts over from another system."
      >
        <ImportForm
          onDone={(message) => {
            setImporting(false);
            setNotice(message);
          }}
        />
      </Dialog>
      <Dialog
        open={importingJournal}
        onOpenChange={setImportingJournal}
        title="Import hledger or ledger journal"
        description="Post every transaction of a plain-text accounting file."
      >
        {importingJournal ? <JournalImportForm onClose={() => setImportingJournal(false)} /> : null}
      </Dialog>
    </Card>
  );
};

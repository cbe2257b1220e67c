import { useState } from 'react';
import {
  ACCOUNT_SUBTYPES,
  ACCOUNT_TYPE_LABELS,
  ACCOUNT_TYPES,
  type Account,
  type AccountTypeName,
  accountCreateSchema,
  SUBTYPE_LABELS,
} from '../../../shared/ledger.ts';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { FileField } from '../../components/ui/Form.tsx';
import { type DoneDialogProps, FormDialog } from '../../components/ui/FormDialog.tsx';
import { ApiError } from '../../lib/api.ts';
import { useFormFields } from '../../lib/useFormFields.ts';
import { useCreateAccount, useImportAccounts, useUpdateAccount } from './ledgerApi.ts';
import { errorText } from './parts.tsx';

// The chart of accounts' dialogs: add or rename an account, and import a chart from CSV.

export const AccountDialog = ({
  account,
  onClose,
  onDone,
}: DoneDialogProps & { account: Account | null }) => {
  const create = useCreateAccount();
  const update = useUpdateAccount();
  const { values, set, bind } = useFormFields<{
    code: string;
    name: string;
    type: AccountTypeName;
    subtype: string;
    description: string;
  }>({
    code: account?.code ?? '',
    name: account?.name ?? '',
    type: account?.type ?? 'expense',
    subtype: account?.subtype ?? 'operating_expense',
    description: account?.description ?? '',
  });
  const { code, name, type, subtype, description } = values;
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = async () => {
    const parsed = accountCreateSchema.safeParse({ code, name, type, subtype, description });
    if (!parsed.success) {
      const next: Record<string, string> = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0])] ??= issue.message;
      setErrors(next);
      return;
    }
    setErrors({});
    const { code: savedCode, name: savedName } = parsed.data;
    try {
      if (account)
        await update.mutateAsync({ id: account.id, code: savedCode, name: savedName, subtype, description });
      else await create.mutateAsync(parsed.data);
      onDone(`${account ? 'Saved' : 'Added'} ${savedCode} ${savedName}.`);
    } catch (err) {
      return errorText(err);
    }
  };

  const text = (label: string, key: 'code' | 'name', maxLength: number) => (
    <TextField label={label} {...bind(key)} error={errors[key]} maxLength={maxLength} required />
  );
  return (
    <FormDialog
      onClose={onClose}
      title={account ? 'Edit account' : 'Add account'}
      description={
        account
          ? 'Renaming keeps every posting and report history.'
          : 'New accounts are ready for entries at once.'
      }
      onSubmit={submit}
      submitLabel={account ? 'Save account' : 'Add account'}
    >
      <div className="grid gap-4 sm:grid-cols-[8rem_1fr]">
        {text('Code', 'code', 20)}
        {text('Name', 'name', 120)}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Type"
          value={type}
          disabled={account !== null}
          hint={account ? 'The type of an existing account does not change.' : undefined}
          onChange={(e) => {
            const next = e.target.value as AccountTypeName;
            set({ type: next, subtype: ACCOUNT_SUBTYPES[next][0]! });
          }}
          options={ACCOUNT_TYPES.map((t) => ({ value: t, label: ACCOUNT_TYPE_LABELS[t] }))}
        />
        <SelectField
          label="Detail type"
          {...bind('subtype')}
          options={ACCOUNT_SUBTYPES[type].map((s) => ({ value: s, label: SUBTYPE_LABELS[s] ?? s }))}
        />
      </div>
      <TextField label="Description" {...bind('description')} maxLength={500} placeholder="Optional" />
    </FormDialog>
  );
};

export const ImportDialog = ({ onClose, onDone }: DoneDialogProps) => {
  const importCsv = useImportAccounts();
  const [file, setFile] = useState<File | null>(null);
  const [problems, setProblems] = useState<string[]>([]);

  const submit = async () => {
    setProblems([]);
    if (!file) return 'Choose a CSV file to import.';
    if (file.size > 2_000_000)
      return 'The file is larger than 2 MB. Split it, or remove columns other than the ones listed.';
    try {
      const result = await importCsv.mutateAsync(await file.text());
      onDone(`Imported the chart: ${result.created ?? 0} added, ${result.updated ?? 0} updated.`);
    } catch (err) {
      const details =
        err instanceof ApiError ? (err.details as { errors?: string[] } | undefined) : undefined;
      if (Array.isArray(details?.errors)) setProblems(details.errors);
      return errorText(err);
    }
  };

  return (
    <FormDialog
      onClose={onClose}
      title="Import chart of accounts"
      description="Bring your accounts over from another system."
      onSubmit={submit}
      submitLabel="Import accounts"
    >
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
      <FileField id="chart-csv" label="CSV file" accept=".csv,text/csv" onFile={setFile} />
      {problems.length > 0 ? (
        <ul className="max-h-48 list-disc space-y-1 overflow-y-auto pl-5 text-sm text-red-700 dark:text-red-300">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
    </FormDialog>
  );
};

import { useState } from 'react';
import type { SupplierImportResult } from '../../../shared/payables.ts';
import { Alert } from '../../components/ui/Card.tsx';
import { FileField } from '../../components/ui/Form.tsx';
import { type DoneDialogProps, FormDialog } from '../../components/ui/FormDialog.tsx';
import { ApiError, errorText } from '../../lib/api.ts';
import { plural } from '../../lib/format.ts';
import { useImportSuppliers } from './SupplierApi.ts';

// Import suppliers from a CSV file: choose it, check it (a dry run that saves nothing and says
// how many would be created and which rows are skipped), then import. A refusal names the line
// and the problem; nothing is saved until the file is clean.

const MAX_BYTES = 5_000_000;

/** The problems of a refused file ("Line 3: email: …"), from the error's details. */
const refusalLines = (err: unknown): string[] => {
  if (!(err instanceof ApiError)) return [];
  const details = err.details as { problems?: { line: number; problem: string }[] } | undefined;
  return Array.isArray(details?.problems) ? details.problems.map((p) => `Line ${p.line}: ${p.problem}`) : [];
};

export const SupplierImportDialog = ({ onClose, onDone }: DoneDialogProps) => {
  const importCsv = useImportSuppliers();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<SupplierImportResult | null>(null);
  const [problems, setProblems] = useState<string[]>([]);

  const run = async (dryRun: boolean) => {
    setProblems([]);
    if (!file) return 'Choose a CSV file to import.';
    if (file.size > MAX_BYTES) return 'The file is larger than 5 MB. Split it into smaller files.';
    try {
      const result = await importCsv.mutateAsync({ csv: await file.text(), dryRun });
      if (dryRun) {
        setPreview(result);
        return;
      }
      onDone(
        `Imported ${plural(result.created, 'supplier')}${
          result.skipped.length ? `; ${result.skipped.length} skipped (already there)` : ''
        }.`,
      );
    } catch (err) {
      setPreview(null);
      const lines = refusalLines(err);
      setProblems(lines);
      // The lines are listed under the file; the message above says what to do.
      return lines.length > 0 ? 'Nothing was imported. Correct these lines and try again:' : errorText(err);
    }
  };

  return (
    <FormDialog
      onClose={onClose}
      title="Import suppliers"
      description="Bring your suppliers over from a spreadsheet or another system."
      wide
      onSubmit={() => run(!preview)}
      submitLabel={preview ? `Import ${plural(preview.created, 'supplier')}` : 'Check file'}
      submitDisabled={preview !== null && preview.created === 0}
    >
      <div className="rounded-lg bg-slate-50 p-4 text-sm text-slate-600 dark:bg-slate-800/60 dark:text-slate-300">
        <p>
          The first row names the columns: <code className="font-mono">name</code> (required), and optionally{' '}
          <code className="font-mono">company</code>, <code className="font-mono">email</code>,{' '}
          <code className="font-mono">phone</code>, <code className="font-mono">address</code>,{' '}
          <code className="font-mono">tax_number</code>, <code className="font-mono">currency</code>,{' '}
          <code className="font-mono">payment_terms_days</code>,{' '}
          <code className="font-mono">bank_account_name</code>,{' '}
          <code className="font-mono">bank_account_number</code>, <code className="font-mono">bank_code</code>
          , <code className="font-mono">notes</code>.
        </p>
        <p className="mt-2">
          A supplier whose name is already there is skipped. Nothing is imported if any row has a problem.
        </p>
      </div>
      <FileField
        id="supplier-csv"
        label="CSV file"
        accept=".csv,text/csv"
        onFile={(f) => {
          setFile(f);
          setPreview(null);
          setProblems([]);
        }}
      />
      {problems.length > 0 ? (
        <ul
          className="max-h-48 list-disc space-y-1 overflow-y-auto pl-5 text-sm text-red-700 dark:text-red-300"
          aria-label="Problems in the file"
        >
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : null}
      {preview ? <ImportPreview result={preview} /> : null}
    </FormDialog>
  );
};

const ImportPreview = ({ result }: { result: SupplierImportResult }) => (
  <div className="space-y-2" data-testid="supplier-import-preview">
    <Alert tone={result.created > 0 ? 'info' : 'warning'}>
      {result.created > 0
        ? `The file is fine: ${plural(result.created, 'supplier')} would be created`
        : 'No new suppliers in this file'}
      {result.skipped.length > 0 ? `, ${result.skipped.length} skipped.` : '.'}
      {result.created > 0 ? ' Nothing is saved until you import.' : ''}
    </Alert>
    {result.skipped.length > 0 ? (
      <ul className="max-h-40 space-y-1 overflow-y-auto text-sm text-slate-600 dark:text-slate-300">
        {result.skipped.map((s) => (
          <li key={`${s.line}-${s.name}`}>
            Line {s.line}: {s.name} — {s.reason}
          </li>
        ))}
      </ul>
    ) : null}
  </div>
);

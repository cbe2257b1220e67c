import type { StatementImportProgress, StatementImportResult } from '../../../shared/transactions.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { formatSeconds } from '../../lib/format.ts';
import { ProgressBar, StepButtons } from './Controls.tsx';
import { MoneyAccountField } from './fields.tsx';
import { type LineError, type Step, importingView } from './importSteps.ts';
import type { ImportWizardState } from './useImportWizard.ts';

// The statement import wizard's pieces: the list of steps, the refusal with its lines, the
// file step, the progress while importing and the summary when done.

export const ImportSteps = ({ step }: { step: Step }) => (
  <ol className="mb-4 flex flex-wrap gap-2 text-xs font-medium" aria-label="Import steps">
    {(['file', 'mapping', 'preview', 'done'] as const).map((s, i) => (
      <li
        key={s}
        aria-current={step === s || (s === 'done' && step === 'importing') ? 'step' : undefined}
        className={`rounded-full px-3 py-1 ${step === s || (s === 'done' && step === 'importing') ? 'bg-brand-600 text-white dark:bg-brand-500 dark:text-slate-950' : 'bg-slate-100 text-slate-600 dark:bg-slate-800 dark:text-slate-300'}`}
      >
        {i + 1}.{' '}
        {s === 'file' ? 'File' : s === 'mapping' ? 'Columns' : s === 'preview' ? 'Preview' : 'Import'}
      </li>
    ))}
  </ol>
);

export const ImportErrors = ({ error, lineErrors }: { error: string; lineErrors: LineError[] }) => (
  <div className="mb-3 space-y-2">
    <Alert>
      {lineErrors.length > 0
        ? 'The file was not imported. Nothing was changed; fix these lines and try again.'
        : error}
    </Alert>
    {lineErrors.length > 0 ? (
      <ul
        className="max-h-40 overflow-y-auto rounded-lg border border-red-200 text-sm dark:border-red-900"
        aria-label="Problems in the file"
      >
        {lineErrors.map((e) => (
          <li
            key={`${e.line}-${e.reason}`}
            className="border-b border-red-100 px-3 py-1.5 last:border-0 dark:border-red-950"
          >
            <span className="font-semibold">Line {e.line}:</span> {e.reason}
          </li>
        ))}
      </ul>
    ) : null}
  </div>
);

export const FileStep = ({ w, onClose }: { w: ImportWizardState; onClose: () => void }) => {
  const { accountId, setAccountId, live, file, account, busy, next } = w;
  const { setError, setLineErrors, setAssign, setFile } = w;
  return (
    <div className="space-y-4">
      <MoneyAccountField
        id="imp-account"
        label="Account"
        value={accountId}
        onChange={setAccountId}
        accounts={live}
      />
      <TextField
        id="imp-file"
        label="Statement file"
        type="file"
        accept=".csv,.txt,.ofx,.qfx,.xml,text/csv,application/xml"
        className="py-2"
        onChange={async (e) => {
          const f = e.target.files?.[0];
          setError(null);
          setLineErrors([]);
          setAssign({});
          setFile(
            f
              ? {
                  name: f.name,
                  blob: f,
                  head: new TextDecoder('windows-1252').decode(await f.slice(0, 4096).arrayBuffer()),
                }
              : null,
          );
        }}
        hint="Exports from online banking: CSV, OFX or QFX (Quicken), or CAMT.053 XML."
      />
      <StepButtons onBack={onClose} backLabel="Cancel">
        <Button onClick={next} disabled={!file || !account} busy={busy}>
          Continue
        </Button>
      </StepButtons>
    </div>
  );
};

export const ImportingStep = ({
  uploaded,
  serverProgress,
}: {
  uploaded: number;
  serverProgress: StatementImportProgress | null;
}) => (
  <div className="space-y-3 py-4">
    <ProgressBar {...importingView(uploaded, serverProgress)} />
    <p className="text-sm text-slate-500 dark:text-slate-400">
      All rows are posted in one transaction: either everything is imported or nothing is.
    </p>
  </div>
);

export const DoneStep = ({ result, onClose }: { result: StatementImportResult; onClose: () => void }) => (
  <div className="space-y-4">
    <Alert tone="success">
      Imported {result.imported} transaction{result.imported === 1 ? '' : 's'} in{' '}
      {formatSeconds(result.durationMs)}; {result.duplicates} duplicate
      {result.duplicates === 1 ? '' : 's'} skipped; {result.categorizedByRules} categorised by rules.
    </Alert>
    <div className="flex justify-end">
      <Button onClick={onClose}>Done</Button>
    </div>
  </div>
);

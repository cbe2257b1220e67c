import { useCallback, useState } from 'react';
import {
  type CsvMapping,
  csvMappingSchema,
  type CsvSniff,
  type StatementImportProgress,
  type StatementImportResult,
  type StatementPreview,
} from '../../../shared/transactions.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { formatSeconds } from '../../lib/format.ts';
import {
  apiCalls,
  commitStatementWithProgress,
  errorMessage,
  statementForm,
  statementImportProgress,
  useCategories,
  useInvalidateMoney,
  useOrgId,
  useWallet,
} from './api.ts';
import { ProgressBar, StepButtons } from './Controls.tsx';
import { CsvMappingStep } from './CsvMappingStep.tsx';
import { formMoneyAccountId } from './defaultAccount.ts';
import { type LineError, type Step, importingView, isCsv, lineErrorsOf } from './importSteps.ts';
import { ImportPreview } from './ImportPreview.tsx';
import { MoneyAccountField } from './fields.tsx';

// Statement import in four steps: file → column mapping (CSV only; remembered per account)
// → preview with duplicates marked and rules applied → import with progress. A broken file
// is refused whole, line by line, and nothing is imported.

export const ImportWizard = ({
  onClose,
  onDone,
}: {
  onClose: () => void;
  onDone: (message: string) => void;
}) => {
  const orgId = useOrgId();
  const wallet = useWallet();
  const { categories } = useCategories();
  const invalidate = useInvalidateMoney();
  const live = (wallet.data?.accounts ?? []).filter((a) => !a.archived);
  const [step, setStep] = useState<Step>('file');
  const [picked, setAccountId] = useState('');
  // The company's deposit account unless another is picked (formMoneyAccountId).
  const accountId = formMoneyAccountId(wallet.data, picked);
  // The file as the browser holds it: its bytes go to the server untouched (the server reads
  // the character set); `head` is its first bytes, only to tell CSV from OFX/CAMT here.
  const [file, setFile] = useState<{ name: string; blob: Blob; head: string } | null>(null);
  /** Files with several statements: the money account chosen for each ('' leaves it out). */
  const [assign, setAssign] = useState<Record<number, string>>({});
  const [sniff, setSniff] = useState<CsvSniff | null>(null);
  const [mapping, setMapping] = useState<CsvMapping | null>(null);
  const [preview, setPreview] = useState<StatementPreview | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [lineErrors, setLineErrors] = useState<LineError[]>([]);
  const [busy, setBusy] = useState(false);
  const [uploaded, setUploaded] = useState(0);
  const [serverProgress, setServerProgress] = useState<StatementImportProgress | null>(null);
  const [result, setResult] = useState<StatementImportResult | null>(null);
  const account = live.find((a) => a.id === accountId);
  const categoryName = (id: string | null) => categories.find((c) => c.id === id)?.name ?? null;

  const fail = (err: unknown) => {
    setLineErrors(lineErrorsOf(err));
    setError(errorMessage(err));
  };

  const statementsOf = (a: Record<number, string>) =>
    Object.entries(a).map(([index, id]) => ({ index: Number(index), moneyAccountId: id || null }));

  // The mapping step's live reading: the same preview call, nothing written.
  const tryMapping = useCallback(
    (m: CsvMapping) =>
      file
        ? apiCalls.preview(
            orgId,
            statementForm({ moneyAccountId: accountId, file: file.blob, fileName: file.name, mapping: m }),
          )
        : Promise.reject(new Error('Choose the statement file.')),
    [file, orgId, accountId],
  );

  const runPreview = async (m: CsvMapping | null, chosen: Record<number, string> = assign) => {
    if (!file) return;
    setBusy(true);
    setError(null);
    setLineErrors([]);
    try {
      // The same file and mapping with the statements of a multi-statement file assigned.
      const previewWith = (statements: Record<number, string>) =>
        apiCalls.preview(
          orgId,
          statementForm({
            moneyAccountId: accountId,
            file: file.blob,
            fileName: file.name,
            mapping: m ?? undefined,
            statements: statementsOf(statements),
          }),
        );
      let p = await previewWith(chosen);
      if (p.statements.length > 1 && Object.keys(chosen).length === 0) {
        // First look at a file with several statements: suggest the account whose number ends
        // like the statement's and keeps its currency; the user confirms or changes each.
        const guess: Record<number, string> = {};
        for (const st of p.statements) {
          const last4 = (st.accountNumber ?? '').replace(/[^0-9A-Za-z]/g, '').slice(-4);
          const match = live.find(
            (a) => last4 && a.maskedNumber?.endsWith(last4) && (!st.currency || st.currency === a.currency),
          );
          guess[st.index] = st.index === 0 ? (match?.id ?? accountId) : (match?.id ?? '');
        }
        setAssign(guess);
        p = await previewWith(guess);
      }
      setPreview(p);
      setStep('preview');
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  const next = async () => {
    if (!file || !account) return setError('Choose the account and the statement file.');
    setError(null);
    setLineErrors([]);
    if (isCsv(file.name, file.head)) {
      setBusy(true);
      try {
        // The whole file: the table's end (summary rows) and every date and amount decide the formats.
        const s = await apiCalls.sniff(
          orgId,
          statementForm({ moneyAccountId: accountId, file: file.blob, fileName: file.name }),
        );
        setSniff(s);
        setMapping(
          s.savedMapping ??
            s.suggestedMapping ??
            csvMappingSchema.parse({
              delimiter: s.delimiter,
              dateColumn: 0,
              descriptionColumn: Math.max(0, Math.min(1, s.header.length - 1)),
              amountColumn: Math.max(0, Math.min(2, s.header.length - 1)),
              dateFormat: 'YYYY-MM-DD',
            }),
        );
        setStep('mapping');
      } catch (err) {
        fail(err);
      } finally {
        setBusy(false);
      }
    } else {
      await runPreview(null);
    }
  };

  const commit = async () => {
    if (!file) return;
    setStep('importing');
    setUploaded(0);
    setServerProgress(null);
    setError(null);
    // Rows posted, polled every half second while the import runs (one request at a time).
    const progressId = crypto.randomUUID();
    let polling = true;
    let timer: number | undefined;
    const poll = async () => {
      try {
        const p = await statementImportProgress(orgId, progressId);
        if (polling) setServerProgress(p);
      } catch {
        // 404 until the server starts the import, or from another node: keep "Working…".
      }
      if (polling) timer = window.setTimeout(poll, 500);
    };
    timer = window.setTimeout(poll, 500);
    try {
      const r = await commitStatementWithProgress(
        orgId,
        statementForm({
          moneyAccountId: accountId,
          file: file.blob,
          fileName: file.name,
          mapping: mapping && sniff ? mapping : undefined,
          statements: statementsOf(assign),
        }),
        setUploaded,
        progressId,
      );
      setResult(r);
      setStep('done');
      await invalidate();
      onDone(
        `Imported ${r.imported} transaction${r.imported === 1 ? '' : 's'} from ${file.name}; ${r.duplicates} duplicate${r.duplicates === 1 ? '' : 's'} skipped; ${r.categorizedByRules} categorised by rules.`,
      );
    } catch (err) {
      fail(err);
      setStep('preview');
    } finally {
      polling = false;
      window.clearTimeout(timer);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && step !== 'importing' && onClose()}
      title="Import bank statement"
      description="CSV, OFX/QFX or CAMT.052/053/054. You see a preview before anything is imported."
      wide
    >
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
      {error ? (
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
      ) : null}

      {step === 'file' ? (
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
      ) : null}

      {step === 'mapping' && sniff && mapping ? (
        <CsvMappingStep
          sniff={sniff}
          mapping={mapping}
          onChange={setMapping}
          onBack={() => setStep('file')}
          onPreview={(m) => runPreview(m)}
          tryMapping={tryMapping}
          currency={account?.currency ?? 'USD'}
          busy={busy}
        />
      ) : null}

      {step === 'preview' && preview && account ? (
        <ImportPreview
          preview={preview}
          account={account}
          accounts={live}
          assign={assign}
          onAssign={(index, id) => {
            const chosen = { ...assign, [index]: id };
            setAssign(chosen);
            void runPreview(sniff ? mapping : null, chosen);
          }}
          categoryName={categoryName}
          onBack={() => setStep(sniff ? 'mapping' : 'file')}
          onImport={commit}
        />
      ) : null}

      {step === 'importing' ? (
        <div className="space-y-3 py-4">
          <ProgressBar {...importingView(uploaded, serverProgress)} />
          <p className="text-sm text-slate-500 dark:text-slate-400">
            All rows are posted in one transaction: either everything is imported or nothing is.
          </p>
        </div>
      ) : null}

      {step === 'done' && result ? (
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
      ) : null}
    </Dialog>
  );
};

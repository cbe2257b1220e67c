import { useCallback, useState } from 'react';
import {
  type CsvMapping,
  csvMappingSchema,
  type CsvSniff,
  type StatementImportProgress,
  type StatementImportResult,
  type StatementPreview,
} from '../../../shared/transactions.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { Table, TableHead, Td } from '../../components/ui/Table.tsx';
import { formatCount, formatDate, formatSeconds } from '../../lib/format.ts';
import { ApiError } from '../../lib/api.ts';
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
import { ProgressBar } from './Controls.tsx';
import { CsvMappingStep } from './CsvMappingStep.tsx';
import { formMoneyAccountId } from './defaultAccount.ts';
import { MoneyAccountField } from './fields.tsx';

// Statement import in four steps: file → column mapping (CSV only; remembered per account)
// → preview with duplicates marked and rules applied → import with progress. A broken file
// is refused whole, line by line, and nothing is imported.

type Step = 'file' | 'mapping' | 'preview' | 'importing' | 'done';
type LineError = { line: number; reason: string };

const isCsv = (name: string, content: string) => {
  const ext = name.toLowerCase().split('.').pop();
  if (ext === 'ofx' || ext === 'qfx' || ext === 'xml') return false;
  return !/OFXHEADER|<OFX|BkToCstmr|urn:iso:std:iso:20022:tech:xsd:camt/.test(content.slice(0, 4096));
};

/**
 * What the importing step shows: the upload's bytes, then the server's rows posted. Without
 * an answer from the server (the poll landed on another node, or the import has not started
 * reporting) it says "Working…" rather than guess.
 */
const importingView = (
  upload: number,
  server: StatementImportProgress | null,
): { label: string; value: number | null; detail?: string } => {
  if (upload < 1) return { label: 'Uploading…', value: upload };
  if (!server || server.phase === 'failed') return { label: 'Working…', value: null };
  if (server.phase === 'reading') return { label: 'Reading the statement…', value: null };
  if (server.phase === 'posting')
    return {
      label: 'Posting rows…',
      value: server.total > 0 ? server.done / server.total : null,
      detail: `${formatCount(server.done)} of ${formatCount(server.total)}`,
    };
  return {
    label: 'Finishing…',
    value: 1,
    detail: `${formatCount(server.total)} of ${formatCount(server.total)}`,
  };
};

const lineErrorsOf = (error: unknown): LineError[] => {
  if (error instanceof ApiError && error.code === 'statement_invalid') {
    const details = error.details as { errors?: LineError[] } | undefined;
    return details?.errors ?? [];
  }
  return [];
};

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
          <div>
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
            />
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              Exports from online banking: CSV, OFX or QFX (Quicken), or CAMT.053 XML.
            </p>
          </div>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button onClick={next} disabled={!file || !account} busy={busy}>
              Continue
            </Button>
          </div>
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
        <div className="space-y-4">
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
            <div className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
              <dt className="text-slate-500 dark:text-slate-400">New</dt>
              <dd className="text-lg font-semibold" data-testid="preview-new">
                {preview.newRows}
              </dd>
            </div>
            <div className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
              <dt className="text-slate-500 dark:text-slate-400">Duplicates skipped</dt>
              <dd className="text-lg font-semibold" data-testid="preview-duplicates">
                {preview.duplicateRows}
              </dd>
            </div>
            <div className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
              <dt className="text-slate-500 dark:text-slate-400">Categorised by rules</dt>
              <dd className="text-lg font-semibold">{preview.categorizedByRules}</dd>
            </div>
            <div className="rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60">
              <dt className="text-slate-500 dark:text-slate-400">In / out</dt>
              <dd className="font-semibold">
                <Money minor={preview.moneyIn} currency={account.currency} /> /{' '}
                <Money minor={preview.moneyOut} currency={account.currency} tintNegative={false} />
              </dd>
            </div>
          </dl>
          {preview.firstDate ? (
            <p className="text-sm text-slate-600 dark:text-slate-300">
              {preview.totalRows} rows from {formatDate(preview.firstDate)} to {formatDate(preview.lastDate!)}
              {preview.closingBalance && preview.statements.length <= 1 ? (
                <>
                  {' '}
                  · statement balance{' '}
                  <Money minor={preview.closingBalance.amount} currency={account.currency} /> on{' '}
                  {formatDate(preview.closingBalance.date)}
                </>
              ) : null}
            </p>
          ) : null}
          {preview.encoding && preview.encoding !== 'utf-8' ? (
            <p className="text-xs text-slate-500 dark:text-slate-400" data-testid="preview-encoding">
              Characters read as {preview.encoding}.
            </p>
          ) : null}
          {preview.csvLayout ? (
            <div className="text-xs text-slate-500 dark:text-slate-400" data-testid="preview-csv-layout">
              <p>
                Transactions read from lines {preview.csvLayout.firstLine} to {preview.csvLayout.lastLine}
                {preview.csvLayout.headerLine !== null
                  ? ` (header on line ${preview.csvLayout.headerLine})`
                  : ''}
                {preview.csvLayout.linesAbove.length + preview.csvLayout.linesBelow.length > 0
                  ? `; ${preview.csvLayout.linesAbove.length} line${preview.csvLayout.linesAbove.length === 1 ? '' : 's'} above and ${preview.csvLayout.linesBelow.length} below are not transactions`
                  : ''}
                .
              </p>
              {preview.csvLayout.joined && preview.csvLayout.joined.length > 0 ? (
                <p className="mt-1">
                  Added to the description above:{' '}
                  {preview.csvLayout.joined.map((r) => `line ${r.line} → line ${r.to}`).join(', ')}.
                </p>
              ) : null}
              {preview.csvLayout.leftOut.length > 0 ? (
                <ul className="mt-1 list-disc pl-4" aria-label="Rows left out of the import">
                  {preview.csvLayout.leftOut.map((r) => (
                    <li key={r.line}>
                      Line {r.line} has no date and no amount and is left out: “{r.text}”
                    </li>
                  ))}
                </ul>
              ) : null}
            </div>
          ) : null}
          {preview.statements.length > 1 ? (
            <fieldset className="space-y-2" data-testid="preview-statements">
              <legend className="mb-1 text-sm font-medium">
                This file holds {preview.statements.length} statements. Choose the account for each.
              </legend>
              {preview.statements.map((st) => {
                const target = live.find((a) => a.id === st.moneyAccountId);
                return (
                  <div
                    key={st.index}
                    className="grid gap-2 rounded-lg border border-slate-200 p-3 text-sm sm:grid-cols-2 dark:border-slate-800"
                    data-testid="preview-statement"
                  >
                    <div>
                      <div className="font-medium">
                        {st.kind}
                        {st.accountNumber ? ` · ${st.accountNumber}` : ''}
                        {st.currency ? ` · ${st.currency}` : ''}
                      </div>
                      <div className="text-xs text-slate-500 dark:text-slate-400">
                        {st.totalRows} row{st.totalRows === 1 ? '' : 's'}
                        {st.periodStart && st.periodEnd
                          ? ` · ${formatDate(st.periodStart)} – ${formatDate(st.periodEnd)}`
                          : st.firstDate
                            ? ` · ${formatDate(st.firstDate)} – ${formatDate(st.lastDate!)}`
                            : ''}
                        {st.closingBalance ? (
                          <>
                            {' '}
                            · closing balance{' '}
                            <Money
                              minor={st.closingBalance.amount}
                              currency={st.currency ?? target?.currency ?? account.currency}
                            />{' '}
                            on {formatDate(st.closingBalance.date)}
                          </>
                        ) : null}
                      </div>
                    </div>
                    <MoneyAccountField
                      id={`imp-statement-${st.index}`}
                      label="Import into"
                      value={assign[st.index] ?? st.moneyAccountId ?? ''}
                      onChange={(id) => {
                        const chosen = { ...assign, [st.index]: id };
                        setAssign(chosen);
                        void runPreview(sniff ? mapping : null, chosen);
                      }}
                      accounts={live}
                      empty="— leave this statement out —"
                    />
                    {st.notices.length > 0 ? (
                      <ul className="text-xs text-amber-700 sm:col-span-2 dark:text-amber-400">
                        {st.notices.map((n) => (
                          <li key={n}>{n}</li>
                        ))}
                      </ul>
                    ) : null}
                  </div>
                );
              })}
            </fieldset>
          ) : preview.statements[0]?.notices.length ? (
            <ul className="text-xs text-amber-700 dark:text-amber-400" data-testid="preview-notices">
              {preview.statements[0].notices.map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
          ) : null}
          <Table
            caption="Preview of the statement rows"
            captionHidden
            dense
            className="max-h-72 overflow-y-auto rounded-lg border border-slate-200 dark:border-slate-800"
          >
            <TableHead
              className="sticky top-0"
              columns={['Date', 'Description', 'Category', { label: 'Amount', numeric: true }]}
            />
            <tbody>
              {preview.rows.map((r) => (
                <tr
                  key={`${r.statement ?? 0}-${r.line}`}
                  className={
                    r.duplicate ? 'bg-slate-50 text-slate-400 dark:bg-slate-900/60 dark:text-slate-500' : ''
                  }
                  data-testid={r.duplicate ? 'preview-duplicate' : 'preview-row'}
                >
                  <Td className="whitespace-nowrap">{formatDate(r.date)}</Td>
                  <Td>
                    {r.description} {r.duplicate ? <Badge tone="slate">Duplicate — skipped</Badge> : null}
                  </Td>
                  <Td>
                    {r.categoryAccountId ? (
                      <Badge tone="violet">Rule: {categoryName(r.categoryAccountId)}</Badge>
                    ) : r.duplicate ? (
                      ''
                    ) : (
                      <span className="text-slate-500 dark:text-slate-400">Uncategorised</span>
                    )}
                  </Td>
                  <Td numeric>
                    <Money
                      minor={r.amount}
                      currency={
                        live.find((a) => a.id === preview.statements[r.statement ?? 0]?.moneyAccountId)
                          ?.currency ?? account.currency
                      }
                    />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
          {preview.totalRows > preview.rows.length ? (
            <p className="text-xs text-slate-500">
              Showing the first {preview.rows.length} of {preview.totalRows} rows.
            </p>
          ) : null}
          <div className="flex justify-between gap-2">
            <Button variant="secondary" onClick={() => setStep(sniff ? 'mapping' : 'file')}>
              Back
            </Button>
            <Button onClick={commit} disabled={preview.newRows === 0}>
              {preview.newRows === 0
                ? 'Nothing new to import'
                : `Import ${preview.newRows} transaction${preview.newRows === 1 ? '' : 's'}`}
            </Button>
          </div>
        </div>
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

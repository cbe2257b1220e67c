import { useCallback, useState } from 'react';
import {
  type CsvMapping,
  csvMappingSchema,
  type CsvSniff,
  type StatementImportProgress,
  type StatementImportResult,
  type StatementPreview,
} from '../../../shared/transactions.ts';
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
import { formMoneyAccountId } from './defaultAccount.ts';
import { type LineError, type Step, isCsv, lineErrorsOf } from './importSteps.ts';

// The statement import wizard's state: the step, the account and file, the CSV sniff and
// mapping, the preview (with a multi-statement file's accounts suggested), and the import
// with its upload and server progress.

export const useImportWizard = ({ onDone }: { onDone: (message: string) => void }) => {
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

  return {
    accountId,
    setAccountId,
    live,
    file,
    setFile,
    step,
    setStep,
    assign,
    setAssign,
    sniff,
    mapping,
    setMapping,
    preview,
    error,
    setError,
    lineErrors,
    setLineErrors,
    busy,
    uploaded,
    serverProgress,
    result,
    account,
    categoryName,
    tryMapping,
    runPreview,
    next,
    commit,
  };
};

export type ImportWizardState = ReturnType<typeof useImportWizard>;

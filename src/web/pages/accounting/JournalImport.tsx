import { FileText, Upload } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge } from '../../components/ui/Card.tsx';
import { FileField } from '../../components/ui/Form.tsx';
import type { JournalImportResult } from '../../../shared/ledger.ts';
import { useImportJournal } from './ledgerApi.ts';
import { errorText } from './parts.tsx';

// Import an hledger or ledger-cli journal file (POST /ledger/import). The server posts every
// transaction or nothing; a refusal names the line. After an import the page shows which
// Kontor account each journal account went to and every line that was ignored (periodic
// transactions, directives Kontor does not use) or read in a particular way.

const MAX_BYTES = 10_000_000;

export const JournalImportForm = ({ onClose }: { onClose: () => void }) => {
  const importJournal = useImportJournal();
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<JournalImportResult | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!file) {
      setError('Choose a journal file to import.');
      return;
    }
    if (file.size > MAX_BYTES) {
      setError('The file is larger than 10 MB. Split it by year and import each part.');
      return;
    }
    try {
      setResult(await importJournal.mutateAsync(await file.text()));
    } catch (err) {
      setError(errorText(err));
    }
  };

  if (result) {
    const more = result.noticeCount - result.notices.length;
    return (
      <div className="space-y-4" data-testid="journal-import-result">
        <p role="status" className="text-sm text-slate-700 dark:text-slate-200">
          Posted {result.entries} {result.entries === 1 ? 'entry' : 'entries'}; {result.createdAccounts} new{' '}
          {result.createdAccounts === 1 ? 'account' : 'accounts'}.
        </p>
        {result.noticeCount > 0 ? (
          <section aria-labelledby="journal-notices">
            <h3 id="journal-notices" className="text-sm font-semibold text-slate-800 dark:text-slate-100">
              Ignored or read specially ({result.noticeCount})
            </h3>
            <ul className="mt-2 max-h-48 space-y-1 overflow-y-auto text-sm text-slate-600 dark:text-slate-300">
              {result.notices.map((n) => (
                <li key={`${n.line}-${n.message}`}>
                  <span className="font-mono text-xs text-slate-500">Line {n.line}</span> {n.message}
                </li>
              ))}
              {more > 0 ? <li>…and {more} more.</li> : null}
            </ul>
          </section>
        ) : null}
        <section aria-labelledby="journal-accounts">
          <h3 id="journal-accounts" className="text-sm font-semibold text-slate-800 dark:text-slate-100">
            Accounts
          </h3>
          <ul className="mt-2 max-h-48 space-y-1 overflow-y-auto text-sm text-slate-600 dark:text-slate-300">
            {result.accounts.map((a) => (
              <li key={a.journalName} className="flex flex-wrap items-center gap-2">
                <span className="font-mono text-xs">{a.journalName}</span>
                <span aria-hidden="true">→</span>
                <span>
                  {a.code} {a.name}
                </span>
                {a.created ? <Badge>new</Badge> : null}
              </li>
            ))}
          </ul>
        </section>
        <div className="flex justify-end">
          <Button onClick={onClose}>Done</Button>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="rounded-lg bg-slate-50 p-4 text-sm text-slate-600 dark:bg-slate-800/60 dark:text-slate-300">
        <p>
          An hledger or ledger-cli journal. Every transaction is posted as a journal entry; accounts are
          matched by name (ignoring case) or created. Amounts must be in your company's currency, or carry
          their cost in it (<code className="font-mono">@</code> / <code className="font-mono">@@</code>).
        </p>
        <p className="mt-2">
          Nothing is imported if any line is refused, and the same file is never imported twice.
        </p>
      </div>
      <FileField
        id="journal-file"
        label="Journal file"
        accept=".journal,.hledger,.ledger,.dat,.j,.txt,text/plain"
        onFile={setFile}
      />
      {error ? <Alert>{error}</Alert> : null}
      <div className="flex justify-end">
        <Button type="submit" busy={importJournal.isPending}>
          <Upload className="h-4 w-4" aria-hidden="true" /> Import journal
        </Button>
      </div>
    </form>
  );
};

export const JournalImportIcon = FileText;

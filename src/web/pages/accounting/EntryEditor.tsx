import * as RadixDialog from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { JournalEntry } from '../../../shared/ledger.ts';
import { Alert } from '../../components/ui/Card.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { formatDate } from '../../lib/format.ts';
import { EntryEditorFooter, EntryLinesTable } from './EntryEditorParts.tsx';
import { errorText } from './parts.tsx';
import { useEntryEditor } from './useEntryEditor.ts';

// The journal entry editor, a side panel. Lines are typed like a spreadsheet: Tab moves
// through account, debit, credit and description; Enter adds a line (pre-filled with the
// amount that balances the entry) and puts the cursor on its account. The running
// difference (debits − credits) stays in view and Post is refused until it is zero.

export const EntryEditor = ({
  entry,
  today,
  lockDate,
  approvalRequired,
  onClose,
  onSaved,
}: {
  entry: JournalEntry | null;
  today: string;
  lockDate: string | null;
  approvalRequired: boolean;
  onClose: () => void;
  onSaved: (entry: JournalEntry) => void;
}) => {
  const ed = useEntryEditor({ entry, today, lockDate, approvalRequired, onSaved });
  const { currency, formId, date, bind } = ed;
  const { accounts, touched, locked, busy, onSubmit } = ed;

  return (
    <RadixDialog.Root open onOpenChange={(o) => (!o && !busy ? onClose() : undefined)}>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className="fixed inset-0 z-40 bg-slate-950/50 backdrop-blur-sm" />
        <RadixDialog.Content
          aria-describedby={`${formId}-desc`}
          className="fixed inset-y-0 right-0 z-50 flex w-full max-w-5xl flex-col border-l border-slate-200 bg-white shadow-2xl dark:border-slate-800 dark:bg-slate-900"
        >
          <div className="flex items-start justify-between gap-4 border-b border-slate-200 px-6 py-4 dark:border-slate-800">
            <div>
              <RadixDialog.Title className="text-lg font-semibold text-slate-900 dark:text-white">
                {entry ? 'Edit draft journal entry' : 'New journal entry'}
              </RadixDialog.Title>
              <RadixDialog.Description
                id={`${formId}-desc`}
                className="mt-1 text-sm text-slate-500 dark:text-slate-400"
              >
                Amounts in {currency}. Tab moves between fields; Enter adds a line.
              </RadixDialog.Description>
            </div>
            <RadixDialog.Close
              aria-label="Close"
              disabled={busy}
              className="-m-2 inline-flex h-11 w-11 items-center justify-center rounded-lg text-slate-500 hover:bg-slate-100 dark:hover:bg-slate-800"
            >
              <X className="h-5 w-5" aria-hidden="true" />
            </RadixDialog.Close>
          </div>

          <form
            id={formId}
            onSubmit={onSubmit}
            onKeyDown={(e) => {
              // Enter never posts by accident from a text field; the line fields use it to add lines.
              if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT') e.preventDefault();
            }}
            noValidate
            className="flex min-h-0 flex-1 flex-col"
          >
            <div className="min-h-0 flex-1 overflow-y-auto px-6 py-5">
              <div className="grid gap-4 sm:grid-cols-[12rem_12rem_1fr]">
                <TextField
                  label="Date"
                  type="date"
                  {...bind('date')}
                  required
                  error={
                    locked
                      ? `The books are locked through ${formatDate(lockDate!)}. Choose a later date, or ask someone who manages settings to move the lock date.`
                      : touched && !date
                        ? 'Enter the entry date.'
                        : null
                  }
                />
                <TextField label="Reference" {...bind('reference')} maxLength={100} placeholder="Optional" />
                <TextField
                  label="Memo"
                  {...bind('memo')}
                  maxLength={1000}
                  placeholder="What is this entry for?"
                />
              </div>

              {accounts.isError ? (
                <div className="mt-4">
                  <Alert>
                    Could not load the chart of accounts. {errorText(accounts.error, 'reopen the editor')}
                  </Alert>
                </div>
              ) : null}

              <EntryLinesTable ed={ed} />
            </div>

            <EntryEditorFooter ed={ed} onClose={onClose} />
          </form>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
};

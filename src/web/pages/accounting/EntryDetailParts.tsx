import { ArrowRight, Undo2 } from 'lucide-react';
import type { JournalEntry } from '../../../shared/ledger.ts';
import { documentOwnerOfEntry } from '../../../shared/ledger.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { RowTh, Table, TableHead, Td, TotalsFoot } from '../../components/ui/Table.tsx';
import { formatDate } from '../../lib/format.ts';
import { useJournalEntry } from './ledgerApi.ts';
import { DebitCreditCells, SOURCE_LABELS, StatusBadge } from './parts.tsx';
import type { EntryDetailState } from './useEntryDetail.ts';

// The entry detail's sections: the summary (date, status, source, reference, memo and the
// reversal links), the lines with totals, the reverse and delete confirmations, and the
// actions the role allows.

export const entryTitle = (e: Pick<JournalEntry, 'number' | 'status'>) =>
  e.number !== null
    ? `Journal entry #${e.number}`
    : e.status === 'draft'
      ? 'Draft journal entry'
      : 'Journal entry awaiting approval';

const LinkedEntry = ({ id, label, onOpen }: { id: string; label: string; onOpen: (id: string) => void }) => {
  const linked = useJournalEntry(id);
  return (
    <button
      type="button"
      onClick={() => onOpen(id)}
      className="inline-flex min-h-11 items-center gap-1.5 font-medium text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
    >
      {label} {linked.data?.number ? `#${linked.data.number}` : ''}
      <ArrowRight className="h-4 w-4" aria-hidden="true" />
    </button>
  );
};

export const EntrySummary = ({ entry, onOpen }: { entry: JournalEntry; onOpen: (id: string) => void }) => (
  <>
    <dl className="grid grid-cols-2 gap-x-6 gap-y-3 text-sm sm:grid-cols-4">
      <div>
        <dt className="text-xs text-slate-500 dark:text-slate-400">Date</dt>
        <dd className="font-medium text-slate-900 dark:text-white">{formatDate(entry.date)}</dd>
      </div>
      <div>
        <dt className="text-xs text-slate-500 dark:text-slate-400">Status</dt>
        <dd>
          <StatusBadge entry={entry} />
        </dd>
      </div>
      <div>
        <dt className="text-xs text-slate-500 dark:text-slate-400">Source</dt>
        <dd className="text-slate-900 dark:text-white">{SOURCE_LABELS[entry.source] ?? entry.source}</dd>
      </div>
      <div>
        <dt className="text-xs text-slate-500 dark:text-slate-400">Reference</dt>
        <dd className="text-slate-900 dark:text-white">{entry.reference || '—'}</dd>
      </div>
      <div className="col-span-2 sm:col-span-4">
        <dt className="text-xs text-slate-500 dark:text-slate-400">Memo</dt>
        <dd className="text-slate-900 dark:text-white">{entry.memo || '—'}</dd>
      </div>
    </dl>

    {entry.reversesEntryId || entry.reversedByEntryId ? (
      <div className="flex flex-wrap gap-x-6 rounded-lg bg-violet-50 px-4 text-sm text-violet-900 dark:bg-violet-950/40 dark:text-violet-200">
        {entry.reversesEntryId ? (
          <LinkedEntry id={entry.reversesEntryId} label="Reverses entry" onOpen={onOpen} />
        ) : null}
        {entry.reversedByEntryId ? (
          <LinkedEntry id={entry.reversedByEntryId} label="Reversed by entry" onOpen={onOpen} />
        ) : null}
      </div>
    ) : null}
  </>
);

export const EntryLines = ({ entry, currency }: { entry: JournalEntry; currency: string }) => (
  <div className="rounded-lg border border-slate-200 dark:border-slate-800">
    <Table caption={`Lines of ${entryTitle(entry).toLowerCase()}`} captionHidden>
      <TableHead
        columns={[
          'Account',
          'Description',
          { label: 'Debit', numeric: true },
          { label: 'Credit', numeric: true },
        ]}
      />
      <tbody>
        {entry.lines.map((l) => (
          <tr key={l.lineNo}>
            <RowTh>
              <span className="tabular-nums text-slate-500 dark:text-slate-400">{l.accountCode}</span>{' '}
              {l.accountName}
            </RowTh>
            <Td className="text-slate-500 dark:text-slate-400">{l.description || ''}</Td>
            <DebitCreditCells debit={l.debit} credit={l.credit} currency={currency} />
          </tr>
        ))}
      </tbody>
      <TotalsFoot label="Total" span={2}>
        <Td numeric>
          <Money minor={entry.lines.reduce((s, l) => s + l.debit, 0)} currency={currency} />
        </Td>
        <Td numeric>
          <Money minor={entry.lines.reduce((s, l) => s + l.credit, 0)} currency={currency} />
        </Td>
      </TotalsFoot>
    </Table>
  </div>
);

export const ConfirmReverse = ({
  d,
  entry,
  onOpen,
}: {
  d: EntryDetailState;
  entry: JournalEntry;
  onOpen: (id: string) => void;
}) => {
  const { reverse, reverseDate, setReverseDate, setConfirmReverse, run } = d;
  return (
    <div className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950/40">
      <p className="text-sm text-amber-900 dark:text-amber-100">
        Reversing posts a new entry with every debit and credit swapped, linked to this one. The original
        stays in the books unchanged. Leave the date empty to reverse on the original date (
        {formatDate(entry.date)}).
      </p>
      <div className="max-w-xs">
        <TextField
          label="Reversal date"
          type="date"
          value={reverseDate}
          onChange={(e) => setReverseDate(e.target.value)}
        />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="danger"
          busy={reverse.isPending}
          onClick={() =>
            void run(async () => {
              const reversal = await reverse.mutateAsync({
                id: entry.id,
                date: reverseDate || undefined,
              });
              setConfirmReverse(false);
              onOpen(reversal.id);
            }, 'Entry reversed. This is the reversing entry.')
          }
        >
          Confirm reversal
        </Button>
        <Button variant="ghost" onClick={() => setConfirmReverse(false)}>
          Keep the entry
        </Button>
      </div>
    </div>
  );
};

export const ConfirmDelete = ({ d, entry }: { d: EntryDetailState; entry: JournalEntry }) => {
  const { remove, setConfirmDelete, run, close } = d;
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 p-4 dark:border-red-900 dark:bg-red-950/40">
      <p className="text-sm text-red-900 dark:text-red-100">
        Delete this draft? It was never posted, so nothing else changes.
      </p>
      <Button
        variant="danger"
        busy={remove.isPending}
        onClick={() =>
          void run(async () => {
            await remove.mutateAsync(entry.id);
            close();
          })
        }
      >
        Delete draft
      </Button>
      <Button variant="ghost" onClick={() => setConfirmDelete(false)}>
        Cancel
      </Button>
    </div>
  );
};

export const EntryActions = ({
  d,
  entry,
  today,
  onEdit,
}: {
  d: EntryDetailState;
  entry: JournalEntry;
  today: string;
  onEdit: (entry: JournalEntry) => void;
}) => {
  const { can, hasForeignLines, post, approve, run, canReverse, confirmReverse, setConfirmDelete } = d;
  const { setReverseDate, setConfirmReverse, close } = d;
  return (
    <div className="flex flex-wrap justify-end gap-2 border-t border-slate-200 pt-4 dark:border-slate-800">
      {entry.status !== 'posted' && can('record') ? (
        <>
          {hasForeignLines ? (
            <p className="mr-auto self-center text-sm text-slate-500 dark:text-slate-400">
              Lines in other currencies are edited through the API; post or delete this draft here.
            </p>
          ) : null}
          <Button variant="ghost" onClick={() => setConfirmDelete(true)}>
            Delete
          </Button>
          {hasForeignLines ? null : (
            <Button variant="secondary" onClick={() => onEdit(entry)}>
              Edit
            </Button>
          )}
        </>
      ) : null}
      {entry.status === 'draft' && can('post') ? (
        <Button
          busy={post.isPending}
          onClick={() => void run(() => post.mutateAsync(entry.id), 'Entry posted.')}
        >
          Post entry
        </Button>
      ) : null}
      {entry.status === 'pending_approval' && can('approve') ? (
        <Button
          busy={approve.isPending}
          onClick={() => void run(() => approve.mutateAsync(entry.id), 'Entry approved and posted.')}
        >
          Approve and post
        </Button>
      ) : null}
      {entry.status === 'posted' && documentOwnerOfEntry(entry.source, entry.sourceId) ? (
        <p className="mr-auto self-center text-sm text-slate-500 dark:text-slate-400">
          To undo this entry, use {documentOwnerOfEntry(entry.source, entry.sourceId)}.
        </p>
      ) : null}
      {canReverse && !confirmReverse ? (
        <Button
          variant="secondary"
          onClick={() => {
            setReverseDate(entry.date <= today ? entry.date : today);
            setConfirmReverse(true);
          }}
        >
          <Undo2 className="h-4 w-4" aria-hidden="true" /> Reverse entry
        </Button>
      ) : null}
      <Button variant="ghost" onClick={close}>
        Close
      </Button>
    </div>
  );
};

import type { JournalEntry } from '../../../shared/ledger.ts';
import { Alert } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { EntryAttachments } from './EntryAttachments.tsx';
import {
  ConfirmDelete,
  ConfirmReverse,
  EntryActions,
  EntryLines,
  EntrySummary,
  entryTitle,
} from './EntryDetailParts.tsx';
import { LoadError, Loading } from './parts.tsx';
import { useEntryDetail } from './useEntryDetail.ts';

// One journal entry: its lines, status and links to its reversal (or the entry it reverses),
// with the actions the role allows — edit, post or delete a draft, approve, reverse.

export const EntryDetail = ({
  entryId,
  today,
  onClose,
  onOpen,
  onEdit,
}: {
  entryId: string | null;
  today: string;
  onClose: () => void;
  onOpen: (id: string) => void;
  onEdit: (entry: JournalEntry) => void;
}) => {
  const d = useEntryDetail({ entryId, onClose });
  const { query, entry, close } = d;

  return (
    <Dialog
      open={entryId !== null}
      onOpenChange={(o) => (!o ? close() : undefined)}
      title={entry ? entryTitle(entry) : 'Journal entry'}
      wide
    >
      {query.isLoading ? (
        <Loading label="Loading the entry..." />
      ) : query.isError ? (
        <LoadError error={query.error} what="this entry" onRetry={() => void query.refetch()} />
      ) : entry ? (
        <div className="space-y-5">
          <EntrySummary entry={entry} onOpen={onOpen} />

          <EntryLines entry={entry} currency={d.currency} />

          <EntryAttachments entry={entry} />

          {d.notice ? <Alert tone="success">{d.notice}</Alert> : null}
          {d.error ? <Alert>{d.error}</Alert> : null}

          {d.confirmReverse ? <ConfirmReverse d={d} entry={entry} onOpen={onOpen} /> : null}

          {d.confirmDelete ? <ConfirmDelete d={d} entry={entry} /> : null}

          <EntryActions d={d} entry={entry} today={today} onEdit={onEdit} />
        </div>
      ) : null}
    </Dialog>
  );
};

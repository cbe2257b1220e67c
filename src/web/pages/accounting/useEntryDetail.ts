import { useState } from 'react';
import { documentOwnerOfEntry } from '../../../shared/ledger.ts';
import { useCompany } from '../../lib/company.tsx';
import {
  useApproveEntry,
  useDeleteDraft,
  useJournalEntry,
  usePostDraft,
  useReverseEntry,
} from './ledgerApi.ts';
import { errorText } from './parts.tsx';

// The entry detail's state: the entry, the actions' mutations, the confirmations and the
// notice or error of the last action, and what the role and the entry allow.

export const useEntryDetail = ({ entryId, onClose }: { entryId: string | null; onClose: () => void }) => {
  const { company, can } = useCompany();
  const currency = company.baseCurrency;
  const query = useJournalEntry(entryId);
  const reverse = useReverseEntry();
  const post = usePostDraft();
  const approve = useApproveEntry();
  const remove = useDeleteDraft();
  const [confirmReverse, setConfirmReverse] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [reverseDate, setReverseDate] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const entry = query.data;

  const close = () => {
    setConfirmReverse(false);
    setConfirmDelete(false);
    setError(null);
    setNotice(null);
    onClose();
  };

  const run = async (fn: () => Promise<unknown>, done?: string) => {
    setError(null);
    try {
      await fn();
      if (done) setNotice(done);
    } catch (e) {
      setError(errorText(e));
    }
  };

  // The editor works in the base currency; editing a foreign-currency line there would drop
  // its amount and rate, so such drafts are not opened in it.
  const hasForeignLines = entry?.lines.some((l) => l.currency !== null && l.currency !== currency) ?? false;
  const canReverse =
    entry?.status === 'posted' &&
    !entry.reversedByEntryId &&
    !entry.isClosing &&
    documentOwnerOfEntry(entry.source, entry.sourceId) === null &&
    can('post');

  return {
    can,
    currency,
    query,
    entry,
    reverse,
    post,
    approve,
    remove,
    confirmReverse,
    setConfirmReverse,
    confirmDelete,
    setConfirmDelete,
    reverseDate,
    setReverseDate,
    error,
    notice,
    close,
    run,
    hasForeignLines,
    canReverse,
  };
};

export type EntryDetailState = ReturnType<typeof useEntryDetail>;

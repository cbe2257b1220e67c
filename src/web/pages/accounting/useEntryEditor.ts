import { type FormEvent, useId, useMemo, useRef, useState } from 'react';
import type { JournalEntry } from '../../../shared/ledger.ts';
import { useCompany } from '../../lib/company.tsx';
import { useFormFields } from '../../lib/useFormFields.ts';
import {
  balancingAmount,
  checkEntry,
  type EditorLine,
  fromEntry,
  newLine,
  toApiLines,
} from './entryDraft.ts';
import { newIdempotencyKey, useAccounts, useCreateEntry, usePostDraft, useUpdateDraft } from './ledgerApi.ts';
import { errorText } from './parts.tsx';

// The journal entry editor's state: the fields and lines, the running check, adding and
// removing lines (focus goes to a new line's account), and saving as a draft or posting
// (a retry of the same attempt reuses its idempotency key).

export const useEntryEditor = ({
  entry,
  today,
  lockDate,
  approvalRequired,
  onSaved,
}: {
  entry: JournalEntry | null;
  today: string;
  lockDate: string | null;
  approvalRequired: boolean;
  onSaved: (entry: JournalEntry) => void;
}) => {
  const { company, can } = useCompany();
  const currency = company.baseCurrency;
  const accounts = useAccounts();
  const create = useCreateEntry();
  const update = useUpdateDraft();
  const postDraft = usePostDraft();
  const formId = useId();
  const { values, bind } = useFormFields({
    date: entry?.date ?? today,
    reference: entry?.reference ?? '',
    memo: entry?.memo ?? '',
  });
  const { date, reference, memo } = values;
  const [lines, setLines] = useState<EditorLine[]>(() =>
    entry ? [...fromEntry(entry, currency), newLine()] : [newLine(), newLine()],
  );
  const [touched, setTouched] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const accountInputs = useRef(new Map<string, HTMLInputElement>());
  const focusOnAdd = useRef<string | null>(null);
  // A retry of the same attempt reuses its key, so a lost response never posts twice.
  const attempt = useRef<{ signature: string; key: string } | null>(null);

  const check = useMemo(() => checkEntry({ date, lines }, currency), [date, lines, currency]);
  const locked = lockDate !== null && date !== '' && date <= lockDate;
  const busy = create.isPending || update.isPending || postDraft.isPending;
  const willSubmit = approvalRequired && !can('approve');
  const postLabel = willSubmit ? 'Submit for approval' : 'Post entry';

  const setLine = (key: string, patch: Partial<EditorLine>) =>
    setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)));

  const addLineAfter = (key: string | null) => {
    const fill = balancingAmount(check, currency);
    const line = newLine(fill);
    focusOnAdd.current = line.key;
    setLines((ls) => {
      const at = key ? ls.findIndex((l) => l.key === key) + 1 : ls.length;
      return [...ls.slice(0, at), line, ...ls.slice(at)];
    });
  };

  const removeLine = (key: string) =>
    setLines((ls) =>
      ls.length <= 2 ? ls.map((l) => (l.key === key ? newLine() : l)) : ls.filter((l) => l.key !== key),
    );

  const registerAccountInput = (key: string) => (el: HTMLInputElement | null) => {
    if (el) {
      accountInputs.current.set(key, el);
      if (focusOnAdd.current === key) {
        focusOnAdd.current = null;
        el.focus();
      }
    } else accountInputs.current.delete(key);
  };

  const save = async (mode: 'draft' | 'post') => {
    setTouched(true);
    setError(null);
    const blockers = mode === 'post' ? check.blockers : check.draftBlockers;
    if (blockers.length > 0 || (mode === 'post' && locked)) return;
    const payload = {
      date,
      memo: memo.trim(),
      reference: reference.trim() || null,
      lines: toApiLines(lines, currency),
    };
    try {
      let saved: JournalEntry;
      if (entry) {
        saved = await update.mutateAsync({ id: entry.id, ...payload });
        if (mode === 'post') saved = await postDraft.mutateAsync(entry.id);
      } else {
        const body = { ...payload, status: mode === 'post' ? ('posted' as const) : ('draft' as const) };
        const signature = JSON.stringify(body);
        if (attempt.current?.signature !== signature)
          attempt.current = { signature, key: newIdempotencyKey() };
        saved = await create.mutateAsync({ ...body, idempotencyKey: attempt.current.key });
      }
      onSaved(saved);
    } catch (e) {
      setError(errorText(e));
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void save('post');
  };

  return {
    can,
    currency,
    accounts,
    create,
    postDraft,
    formId,
    date,
    bind,
    lines,
    touched,
    error,
    check,
    locked,
    busy,
    postLabel,
    setLine,
    addLineAfter,
    removeLine,
    registerAccountInput,
    save,
    onSubmit,
  };
};

export type EntryEditorState = ReturnType<typeof useEntryEditor>;

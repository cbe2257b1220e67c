import { LineInput, LinesHead, RemoveLineButton } from '../../components/ui/LineItems.tsx';
import * as RadixDialog from '@radix-ui/react-dialog';
import { Plus, X } from 'lucide-react';
import { type FormEvent, useId, useMemo, useRef, useState } from 'react';
import type { JournalEntry } from '../../../shared/ledger.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { useCompany } from '../../lib/company.tsx';
import { AccountPicker } from './AccountPicker.tsx';
import { formatDate } from '../../lib/format.ts';
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
  const { company, can } = useCompany();
  const currency = company.baseCurrency;
  const accounts = useAccounts();
  const create = useCreateEntry();
  const update = useUpdateDraft();
  const postDraft = usePostDraft();
  const formId = useId();
  const [date, setDate] = useState(entry?.date ?? today);
  const [reference, setReference] = useState(entry?.reference ?? '');
  const [memo, setMemo] = useState(entry?.memo ?? '');
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

  const diffTone =
    check.difference === 0 ? 'text-emerald-700 dark:text-emerald-400' : 'text-amber-700 dark:text-amber-400';

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
                  value={date}
                  required
                  onChange={(e) => setDate(e.target.value)}
                  error={
                    locked
                      ? `The books are locked through ${formatDate(lockDate!)}. Choose a later date, or ask someone who manages settings to move the lock date.`
                      : touched && !date
                        ? 'Enter the entry date.'
                        : null
                  }
                />
                <TextField
                  label="Reference"
                  value={reference}
                  maxLength={100}
                  placeholder="Optional"
                  onChange={(e) => setReference(e.target.value)}
                />
                <TextField
                  label="Memo"
                  value={memo}
                  maxLength={1000}
                  placeholder="What is this entry for?"
                  onChange={(e) => setMemo(e.target.value)}
                />
              </div>

              {accounts.isError ? (
                <div className="mt-4">
                  <Alert>
                    Could not load the chart of accounts. {errorText(accounts.error, 'reopen the editor')}
                  </Alert>
                </div>
              ) : null}

              {/* Narrow screens scroll the lines sideways rather than squeeze the inputs. */}
              <div className="-mx-2 mt-6 overflow-x-auto px-2">
                <table
                  className="w-full min-w-[46rem] border-collapse text-sm"
                  aria-label="Journal entry lines"
                >
                  <LinesHead
                    columns={[
                      { label: 'Line', shown: '#', className: 'w-8' },
                      { label: 'Account' },
                      { label: 'Debit', numeric: true, className: 'w-36' },
                      { label: 'Credit', numeric: true, className: 'w-36' },
                      { label: 'Description' },
                      { label: 'Remove', shown: '', className: 'w-12' },
                    ]}
                  />
                  <tbody>
                    {lines.map((line, i) => {
                      const c = check.lines[i]!;
                      const show = touched || line.debit !== '' || line.credit !== '';
                      const errs = show ? c.errors : [];
                      const bad = (f: 'account' | 'debit' | 'credit') => errs.some((e) => e.field === f);
                      const errId = `${formId}-line-${line.key}-err`;
                      const onEnter = () => addLineAfter(line.key);
                      const enterAdds = (e: React.KeyboardEvent) => {
                        if (e.key === 'Enter') {
                          e.preventDefault();
                          onEnter();
                        }
                      };
                      return (
                        <tr key={line.key} className="align-top">
                          <td className="py-1.5 pr-2 pt-4 text-xs text-slate-400 tabular-nums">{i + 1}</td>
                          <td className="py-1.5 pr-2">
                            <AccountPicker
                              accounts={accounts.data ?? []}
                              value={line.accountId}
                              onChange={(id) => setLine(line.key, { accountId: id })}
                              label={`Account, line ${i + 1}`}
                              inputRef={registerAccountInput(line.key)}
                              invalid={bad('account')}
                              describedBy={errs.length ? errId : undefined}
                              onEnter={onEnter}
                            />
                            {errs.length ? (
                              <p
                                id={errId}
                                className="mt-1 text-xs font-medium text-red-600 dark:text-red-400"
                              >
                                {errs.map((e) => e.message).join(' ')}
                              </p>
                            ) : null}
                          </td>
                          {(['debit', 'credit'] as const).map((side) => (
                            <td key={side} className="py-1.5 pr-2">
                              <LineInput
                                label={`${side === 'debit' ? 'Debit' : 'Credit'}, line ${i + 1}`}
                                numeric
                                placeholder="0.00"
                                value={line[side]}
                                invalid={bad(side)}
                                aria-describedby={errs.length ? errId : undefined}
                                onChange={(e) => setLine(line.key, { [side]: e.target.value })}
                                onKeyDown={enterAdds}
                              />
                            </td>
                          ))}
                          <td className="py-1.5 pr-2">
                            <LineInput
                              label={`Description, line ${i + 1}`}
                              maxLength={500}
                              value={line.description}
                              onChange={(e) => setLine(line.key, { description: e.target.value })}
                              onKeyDown={enterAdds}
                            />
                          </td>
                          <td className="py-1.5">
                            <RemoveLineButton line={i + 1} onRemove={() => removeLine(line.key)} />
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                  <tfoot>
                    <tr className="border-t border-slate-200 font-semibold text-slate-900 dark:border-slate-700 dark:text-white">
                      <td />
                      <th scope="row" className="pt-3 pl-3 text-left text-sm">
                        Totals
                      </th>
                      <td className="pt-3 pr-5 text-right">
                        <Money minor={check.totalDebit} currency={currency} />
                      </td>
                      <td className="pt-3 pr-5 text-right">
                        <Money minor={check.totalCredit} currency={currency} />
                      </td>
                      <td colSpan={2} />
                    </tr>
                  </tfoot>
                </table>
              </div>
              <div className="mt-3">
                <Button variant="ghost" size="sm" onClick={() => addLineAfter(null)}>
                  <Plus className="h-4 w-4" aria-hidden="true" /> Add line
                </Button>
              </div>
            </div>

            <div className="border-t border-slate-200 bg-slate-50 px-6 py-4 dark:border-slate-800 dark:bg-slate-950/60">
              {error ? (
                <div className="mb-3">
                  <Alert>{error}</Alert>
                </div>
              ) : null}
              {touched && check.blockers.length > 0 ? (
                <p className="mb-3 text-sm text-red-700 dark:text-red-400" role="alert">
                  {check.blockers.join(' ')}
                </p>
              ) : null}
              <div className="flex flex-wrap items-center justify-between gap-4">
                <p
                  className={`text-sm font-medium ${diffTone}`}
                  aria-live="polite"
                  id={`${formId}-diff`}
                  data-testid="entry-difference"
                >
                  Difference (debits − credits):{' '}
                  <Money
                    minor={check.difference}
                    currency={currency}
                    tintNegative={false}
                    className="font-semibold"
                  />
                  {check.difference === 0 ? ' · Balanced' : ' · Not balanced'}
                </p>
                <div className="flex flex-wrap items-center gap-2">
                  <Button variant="ghost" onClick={onClose} disabled={busy}>
                    Cancel
                  </Button>
                  <Button
                    variant="secondary"
                    onClick={() => void save('draft')}
                    busy={create.isPending && !postDraft.isPending}
                    disabled={busy}
                  >
                    Save draft
                  </Button>
                  {can('post') ? (
                    <Button type="submit" busy={busy} aria-describedby={`${formId}-diff`}>
                      {postLabel}
                    </Button>
                  ) : null}
                </div>
              </div>
            </div>
          </form>
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
};

import { Plus } from 'lucide-react';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { LineInput, LinesHead, RemoveLineButton } from '../../components/ui/LineItems.tsx';
import { ScrollFrame } from '../../components/ui/Table.tsx';
import { AccountPicker } from './AccountPicker.tsx';
import type { EntryEditorState } from './useEntryEditor.ts';

// The journal entry editor's lines table (typed like a spreadsheet; Enter adds a line) and
// its footer: errors, the running difference (debits − credits) and the save/post buttons.

export const EntryLinesTable = ({ ed }: { ed: EntryEditorState }) => {
  const { lines, check, touched, formId, accounts, currency, setLine, addLineAfter, removeLine } = ed;
  const { registerAccountInput } = ed;
  return (
    <>
      {/* Narrow screens scroll the lines sideways rather than squeeze the inputs. */}
      <ScrollFrame label="Journal entry lines" className="mt-6">
        <table className="w-full min-w-[46rem] border-collapse text-sm" aria-label="Journal entry lines">
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
                      <p id={errId} className="mt-1 text-xs font-medium text-red-600 dark:text-red-400">
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
      </ScrollFrame>
      <div className="mt-3">
        <Button variant="ghost" size="sm" onClick={() => addLineAfter(null)}>
          <Plus className="h-4 w-4" aria-hidden="true" /> Add line
        </Button>
      </div>
    </>
  );
};

export const EntryEditorFooter = ({ ed, onClose }: { ed: EntryEditorState; onClose: () => void }) => {
  const { check, currency, error, touched, formId, busy, create, postDraft, can, postLabel, save } = ed;
  const diffTone =
    check.difference === 0 ? 'text-emerald-700 dark:text-emerald-400' : 'text-amber-700 dark:text-amber-400';
  return (
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
  );
};

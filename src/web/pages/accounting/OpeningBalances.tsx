import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { JournalEntry } from '../../../shared/ledger.ts';
import { MoneyParseError, parseMoney } from '../../../shared/money.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { api } from '../../lib/api.ts';
import { useAction } from '../../lib/useAction.ts';
import { useCompany } from '../../lib/company.tsx';
import { AccountPicker } from './AccountPicker.tsx';
import { newIdempotencyKey, useAccounts, useLedgerAction } from './ledgerApi.ts';
import { errorText, Loading, LoadError } from './parts.tsx';

// Opening balances: what a company brings over from its previous system, posted as one entry
// whose difference goes to Opening balance equity.

type OpeningLine = { key: number; accountId: string; debit: string; credit: string };
let nextKey = 1;
const blankLine = (): OpeningLine => ({ key: nextKey++, accountId: '', debit: '', credit: '' });

/** Parses one amount cell; empty is zero. Returns an error message instead of throwing. */
const parseCell = (text: string, currency: string): { minor: number } | { error: string } => {
  if (text.trim() === '') return { minor: 0 };
  try {
    return { minor: parseMoney(text.replace(/[,\s]/g, ''), currency) };
  } catch (e) {
    return { error: e instanceof MoneyParseError ? e.message : 'Enter an amount.' };
  }
};

export const OpeningBalancesDialog = ({
  open,
  today,
  onClose,
  onPosted,
}: {
  open: boolean;
  today: string;
  onClose: () => void;
  onPosted: (entry: JournalEntry) => void;
}) => {
  const { company } = useCompany();
  const currency = company.baseCurrency;
  const accounts = useAccounts();
  const mutate = useLedgerAction();
  const [date, setDate] = useState(today);
  const [lines, setLines] = useState<OpeningLine[]>(() => [blankLine(), blankLine()]);
  const { busy, error, setError, run } = useAction();
  // One key per attempt at this form, so a repeated request (double click, retry) posts once.
  const [attemptKey, setAttemptKey] = useState(newIdempotencyKey);

  const parsed = lines.map((l) => ({
    line: l,
    debit: parseCell(l.debit, currency),
    credit: parseCell(l.credit, currency),
  }));
  const minorOf = (r: { minor: number } | { error: string }) => ('minor' in r ? r.minor : 0);
  const totalDebit = parsed.reduce((s, p) => s + minorOf(p.debit), 0);
  const totalCredit = parsed.reduce((s, p) => s + minorOf(p.credit), 0);
  const difference = totalDebit - totalCredit;

  const update = (key: number, patch: Partial<OpeningLine>) =>
    setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)));

  const reset = () => {
    setLines([blankLine(), blankLine()]);
    setError(null);
    setDate(today);
    setAttemptKey(newIdempotencyKey());
  };

  const submit = async () => {
    setError(null);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return setError('Enter the date of the opening balances.');
    const filled = parsed.filter((p) => p.line.accountId || p.line.debit.trim() || p.line.credit.trim());
    for (const [i, p] of filled.entries()) {
      if (!p.line.accountId) return setError(`Line ${i + 1}: choose an account.`);
      if ('error' in p.debit) return setError(`Line ${i + 1}: ${p.debit.error}`);
      if ('error' in p.credit) return setError(`Line ${i + 1}: ${p.credit.error}`);
      if (p.debit.minor > 0 && p.credit.minor > 0)
        return setError(`Line ${i + 1}: enter a debit or a credit, not both.`);
      if (p.debit.minor === 0 && p.credit.minor === 0) return setError(`Line ${i + 1}: enter an amount.`);
    }
    if (filled.length === 0) return setError('Enter at least one opening balance.');
    await run(
      async () => {
        const entry = await mutate((orgId) =>
          api.post<JournalEntry>(
            `/orgs/${orgId}/opening-balances`,
            {
              date,
              lines: filled.map((p) => ({
                accountId: p.line.accountId,
                ...('minor' in p.debit && p.debit.minor > 0 ? { debit: p.debit.minor } : {}),
                ...('minor' in p.credit && p.credit.minor > 0 ? { credit: p.credit.minor } : {}),
              })),
            },
            { 'Idempotency-Key': attemptKey },
          ),
        );
        reset();
        onPosted(entry);
      },
      { message: errorText },
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (!o ? onClose() : undefined)}
      title="Opening balances"
      description="Balances carried over from your previous system. Debits and credits need not match: the difference is posted to Opening balance equity."
      wide
    >
      {accounts.isLoading ? (
        <Loading label="Loading accounts..." />
      ) : accounts.isError ? (
        <LoadError error={accounts.error} what="the accounts" onRetry={() => void accounts.refetch()} />
      ) : (
        <form
          className="space-y-4"
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <div className="max-w-xs">
            <TextField
              label="Opening balance date"
              type="date"
              required
              value={date}
              onChange={(e) => setDate(e.target.value)}
              hint="Usually the last day before you start recording here."
            />
          </div>
          <div className="space-y-2">
            {lines.map((l, i) => (
              <div key={l.key} className="grid grid-cols-[1fr_8rem_8rem_auto] items-end gap-2">
                <AccountPicker
                  accounts={(accounts.data ?? []).filter((a) => !a.archived)}
                  value={l.accountId}
                  onChange={(id) => update(l.key, { accountId: id })}
                  label={`Account, line ${i + 1}`}
                />
                <TextField
                  label={`Debit, line ${i + 1}`}
                  inputMode="decimal"
                  value={l.debit}
                  onChange={(e) => update(l.key, { debit: e.target.value })}
                />
                <TextField
                  label={`Credit, line ${i + 1}`}
                  inputMode="decimal"
                  value={l.credit}
                  onChange={(e) => update(l.key, { credit: e.target.value })}
                />
                <Button
                  variant="ghost"
                  aria-label={`Remove line ${i + 1}`}
                  disabled={lines.length <= 1}
                  onClick={() => setLines((ls) => ls.filter((x) => x.key !== l.key))}
                >
                  <Trash2 className="h-4 w-4" aria-hidden="true" />
                </Button>
              </div>
            ))}
          </div>
          <Button variant="ghost" onClick={() => setLines((ls) => [...ls, blankLine()])}>
            <Plus className="h-4 w-4" aria-hidden="true" /> Add line
          </Button>
          <dl className="grid grid-cols-3 gap-3 rounded-lg bg-slate-50 p-3 text-sm dark:bg-slate-800/60">
            {(
              [
                ['Total debits', totalDebit, ''],
                ['Total credits', totalCredit, ''],
                [
                  'To Opening balance equity',
                  Math.abs(difference),
                  difference > 0 ? '(credit)' : difference < 0 ? '(debit)' : '',
                ],
              ] as const
            ).map(([label, amount, side]) => (
              <div key={label}>
                <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
                <dd
                  className="font-medium text-slate-900 dark:text-white"
                  data-testid={label === 'To Opening balance equity' ? 'ob-difference' : undefined}
                >
                  <Money minor={amount} currency={currency} />
                  {side ? ` ${side}` : ''}
                </dd>
              </div>
            ))}
          </dl>
          {error ? <Alert>{error}</Alert> : null}
          <div className="flex justify-end gap-2 border-t border-slate-200 pt-4 dark:border-slate-800">
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" busy={busy}>
              Post opening balances
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
};

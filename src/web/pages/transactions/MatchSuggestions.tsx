import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Match, MatchReason, MatchSuggestion, MatchSuggestions } from '../../../shared/matching.ts';
import type { Transaction } from '../../../shared/transactions.ts';
import { Money, formatAmount } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge, EmptyState } from '../../components/ui/Card.tsx';
import { formatDate } from '../../lib/format.ts';
import { api } from '../../lib/api.ts';
import { keys } from '../../lib/queryKeys.ts';
import { errorMessage, useMoneyMutation, useOrgId } from './api.ts';
import { CheckboxField } from '../../components/ui/Form.tsx';

// The invoices and payments a bank line could settle, ticked and matched (keeping any excess
// as the customer's credit).

export const REASONS: Record<MatchReason, string> = {
  exact_amount: 'Exact amount',
  partial_amount: 'Part of what is due',
  number_in_text: 'Invoice number in the description',
  reference_in_text: 'Reference in the description',
  customer_in_text: 'Customer named',
  date_window: 'Date fits',
  recorded_payment: 'Payment already recorded',
  supplier_in_text: 'Supplier named',
};

export const useSuggestions = (transactionId: string, enabled: boolean) => {
  const orgId = useOrgId();
  return useQuery({
    queryKey: keys.transactions(orgId, 'match-suggestions', transactionId),
    queryFn: () =>
      api.get<MatchSuggestions>(`/orgs/${orgId}/transactions/${transactionId}/match-suggestions`),
    enabled,
  });
};

export const keyOf = (s: MatchSuggestion) => s.paymentId ?? s.invoiceId;

/** What each chosen invoice settles: in the order chosen, each up to what is due, until the line is used up. */
export const allocate = (lineAmount: number, chosen: MatchSuggestion[]) => {
  let left = lineAmount;
  return chosen.map((s) => {
    const amount = s.kind === 'payment' ? s.amount : Math.min(left, s.amountDue);
    left -= amount;
    return { suggestion: s, amount };
  });
};

export const SuggestionList = ({ tx, onMatched }: { tx: Transaction; onMatched: (text: string) => void }) => {
  const suggestions = useSuggestions(tx.id, true);
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [keepCredit, setKeepCredit] = useState(false);
  const totalId = useId();
  const confirm = useMoneyMutation(
    (
      orgId,
      body: {
        invoices?: { invoiceId: string; amount: number }[];
        paymentId?: string;
        keepExcessAsCredit?: boolean;
      },
    ) => api.post<{ match: Match }>(`/orgs/${orgId}/transactions/${tx.id}/match`, body),
  );
  if (suggestions.isPending) return <p className="text-sm text-slate-500">Looking for open invoices…</p>;
  if (suggestions.isError)
    return <Alert tone="error">Suggestions could not load: {errorMessage(suggestions.error)}</Alert>;
  const list = suggestions.data.suggestions;
  if (list.length === 0)
    return (
      <EmptyState
        title="No open invoice fits this line"
        description="Nothing owed matches its amount, an invoice number or a customer in its description. Categorise it instead."
      />
    );
  const byKey = new Map(list.map((s) => [keyOf(s), s]));
  const picked = chosen.map((k) => byKey.get(k)!).filter(Boolean);
  const allocations = allocate(tx.amount, picked);
  const total = allocations.reduce((s, a) => s + a.amount, 0);
  // A line worth more than the invoices it settles in full, all of one customer, may keep the
  // rest as that customer's credit (the server checks the same rule).
  const excess = tx.amount - total;
  const canKeepCredit =
    picked.length > 0 &&
    excess > 0 &&
    picked.every((s) => s.kind === 'invoice') &&
    allocations.every((a) => a.amount === a.suggestion.amountDue) &&
    new Set(picked.map((s) => s.customerName)).size === 1;
  const keeping = canKeepCredit && keepCredit;
  const ready =
    picked.length > 0 && (total === tx.amount || keeping) && allocations.every((a) => a.amount > 0);
  const toggle = (s: MatchSuggestion) => {
    setError(null);
    const k = keyOf(s);
    if (chosen.includes(k)) setChosen(chosen.filter((x) => x !== k));
    // A recorded payment is the whole line; invoices can be combined with each other only.
    else if (s.kind === 'payment') setChosen([k]);
    else setChosen([...chosen.filter((x) => byKey.get(x)?.kind !== 'payment'), k]);
  };
  const submit = async () => {
    setError(null);
    try {
      const payment = picked.find((s) => s.kind === 'payment');
      const result = await confirm.mutateAsync(
        payment
          ? { paymentId: payment.paymentId! }
          : {
              invoices: allocations.map((a) => ({ invoiceId: a.suggestion.invoiceId, amount: a.amount })),
              ...(keeping ? { keepExcessAsCredit: true } : {}),
            },
      );
      onMatched(
        `Matched to invoice ${result.match.allocations.map((a) => a.invoiceNumber).join(', ')}${result.match.creditAmount > 0 ? `; ${formatAmount(result.match.creditAmount, tx.currency)} kept as the customer's credit` : ''}.`,
      );
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (ready) void submit();
      }}
    >
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-700 dark:text-slate-200">
          Suggestions, best first. Tick the invoices this line pays.
        </legend>
        <ul className="space-y-2">
          {list.map((s) => {
            const k = keyOf(s);
            const on = chosen.includes(k);
            const allocated = allocations.find((a) => keyOf(a.suggestion) === k)?.amount;
            const label =
              s.kind === 'payment'
                ? `Payment of ${formatAmount(s.amount, s.currency)} already recorded on invoice ${s.invoiceNumber}, ${s.customerName}, on ${s.paymentDate ? formatDate(s.paymentDate) : 'an unknown date'}`
                : `Invoice ${s.invoiceNumber}, ${s.customerName}, ${formatAmount(s.amountDue, s.currency)} due`;
            return (
              <li key={k}>
                <label
                  className={`flex min-h-11 cursor-pointer items-start gap-3 rounded-xl border p-3 ${on ? 'border-brand-500 bg-brand-50 dark:bg-brand-900/30' : 'border-slate-200 dark:border-slate-700'}`}
                  data-testid="match-suggestion"
                >
                  <input
                    type="checkbox"
                    className="mt-1 h-5 w-5"
                    checked={on}
                    onChange={() => toggle(s)}
                    aria-label={label}
                    aria-describedby={`${totalId}-why-${k}`}
                  />
                  <span className="min-w-0 flex-1">
                    <span className="flex flex-wrap items-baseline justify-between gap-2">
                      <span className="font-medium text-slate-900 dark:text-white">
                        {s.kind === 'payment' ? 'Recorded payment · ' : ''}
                        {s.invoiceNumber} · {s.customerName}
                      </span>
                      <Money
                        minor={s.kind === 'payment' ? s.amount : s.amountDue}
                        currency={s.currency}
                        className="text-sm"
                      />
                    </span>
                    <span className="block text-xs text-slate-500 dark:text-slate-400">
                      {s.kind === 'payment'
                        ? `Recorded ${formatDate(s.paymentDate!)}`
                        : `Issued ${formatDate(s.issueDate)}, due ${formatDate(s.dueDate)}`}
                      {on && allocated !== undefined
                        ? ` · this line settles ${formatAmount(allocated, s.currency)}`
                        : ''}
                    </span>
                    <span id={`${totalId}-why-${k}`} className="mt-1 flex flex-wrap gap-1">
                      {s.reasons.map((r) => (
                        <Badge
                          key={r}
                          tone={r === 'exact_amount' || r === 'number_in_text' ? 'green' : 'slate'}
                        >
                          {REASONS[r]}
                        </Badge>
                      ))}
                    </span>
                  </span>
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
      <p id={totalId} className="mt-3 text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
        Settles {formatAmount(total, tx.currency)} of the line's {formatAmount(tx.amount, tx.currency)}
        {picked.length > 0 && total < tx.amount
          ? canKeepCredit
            ? ' — tick more invoices, or keep the rest as credit.'
            : ' — tick more invoices, or categorise the line instead.'
          : '.'}
      </p>
      {canKeepCredit ? (
        <CheckboxField
          className="mt-3 cursor-pointer rounded-xl border border-slate-200 p-3 dark:border-slate-700"
          checked={keepCredit}
          onChange={setKeepCredit}
          label={
            <span>
              Keep the remaining {formatAmount(excess, tx.currency)} as {picked[0]!.customerName}'s credit
            </span>
          }
        />
      ) : null}
      {error ? (
        <div className="mt-3">
          <Alert tone="error">Not matched: {error}</Alert>
        </div>
      ) : null}
      <div className="mt-4 flex justify-end">
        <Button type="submit" disabled={!ready} busy={confirm.isPending} aria-describedby={totalId}>
          Confirm match
        </Button>
      </div>
    </form>
  );
};

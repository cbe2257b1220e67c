import { useQuery } from '@tanstack/react-query';
import { Link2 } from 'lucide-react';
import { useState } from 'react';
import type { Match } from '../../../shared/matching.ts';
import type { Transaction } from '../../../shared/transactions.ts';
import { Money, formatAmount } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { formatDate } from '../../lib/format.ts';
import { api } from '../../lib/api.ts';
import { keys } from '../../lib/queryKeys.ts';
import { errorMessage, useMoneyMutation, useOrgId } from './api.ts';
import { SuggestionList } from './MatchSuggestions.tsx';

// Matching a bank line to open invoices or to a payment recorded by hand (issue 13 §4): an
// uncategorised money-in line shows "Match"; the dialog lists the server's ranked suggestions
// (checkboxes, so one line can settle several invoices), confirms, and shows what a matched
// line settles with an Unmatch button. Keyboard: Tab through the suggestions, Space ticks one,
// Enter on Confirm; the dialog traps focus and Escape closes it. The running total is announced.

const useMatch = (transactionId: string, enabled: boolean) => {
  const orgId = useOrgId();
  return useQuery({
    queryKey: keys.transactions(orgId, 'match', transactionId),
    queryFn: () => api.get<{ match: Match | null }>(`/orgs/${orgId}/transactions/${transactionId}/match`),
    enabled,
  });
};

const MatchDetails = ({
  tx,
  match,
  canUnmatch,
  onUnmatched,
}: {
  tx: Transaction;
  match: Match;
  canUnmatch: boolean;
  onUnmatched: (text: string) => void;
}) => {
  const [error, setError] = useState<string | null>(null);
  const unmatch = useMoneyMutation((orgId, _: undefined) =>
    api.delete<{ match: null }>(`/orgs/${orgId}/transactions/${tx.id}/match`),
  );
  return (
    <div>
      <p className="text-sm text-slate-600 dark:text-slate-300">
        {match.kind === 'payment'
          ? 'This line is the cash of a payment that was recorded by hand; it is counted once.'
          : 'This line paid these invoices; their payments use this line as the cash.'}
      </p>
      <ul className="mt-3 divide-y divide-slate-100 rounded-xl border border-slate-200 dark:divide-slate-800 dark:border-slate-700">
        {match.allocations.map((a) => (
          <li key={a.paymentId} className="flex items-center justify-between gap-3 px-3 py-2">
            <span>
              <span className="font-medium text-slate-900 dark:text-white">Invoice {a.invoiceNumber}</span>
              <span className="block text-xs text-slate-500 dark:text-slate-400">{a.customerName}</span>
            </span>
            <Money minor={a.amount} currency={tx.currency} />
          </li>
        ))}
        {match.kind === 'invoice' && match.creditAmount > 0 ? (
          <li className="flex items-center justify-between gap-3 px-3 py-2">
            <span className="font-medium text-slate-900 dark:text-white">Kept as customer credit</span>
            <Money minor={match.creditAmount} currency={tx.currency} />
          </li>
        ) : null}
      </ul>
      {error ? (
        <div className="mt-3">
          <Alert tone="error">Not unmatched: {error}</Alert>
        </div>
      ) : null}
      {canUnmatch ? (
        <div className="mt-4 flex justify-end">
          <Button
            variant="danger"
            busy={unmatch.isPending}
            onClick={async () => {
              setError(null);
              try {
                await unmatch.mutateAsync(undefined);
                onUnmatched('Unmatched: the line is uncategorised again and the invoices are owed again.');
              } catch (e) {
                setError(errorMessage(e));
              }
            }}
          >
            Unmatch
          </Button>
        </div>
      ) : (
        <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
          {tx.status === 'reconciled'
            ? 'This line is reconciled; undo the reconciliation to unmatch it.'
            : 'Your role can see matches but not change them.'}
        </p>
      )}
    </div>
  );
};

/**
 * The row's matching control: "Match" on an uncategorised money-in line, "Matched · INV-…" on
 * a matched one (both open the dialog); nothing on other lines.
 */
export const MatchAction = ({
  tx,
  canPost,
  onNotice,
}: {
  tx: Transaction;
  canPost: boolean;
  onNotice?: (text: string) => void;
}) => {
  const [open, setOpen] = useState(false);
  const matchable = canPost && tx.categoryKind === 'none' && tx.amount > 0 && tx.status !== 'reconciled';
  const isPaymentLine = tx.categoryKind === ('payment' as Transaction['categoryKind']);
  const match = useMatch(tx.id, isPaymentLine);
  const current = match.data?.match ?? null;
  if (!matchable && !current) return null;
  const numbers = current?.allocations.map((a) => a.invoiceNumber).join(', ');
  const done = (text: string) => {
    setOpen(false);
    onNotice?.(text);
  };
  return (
    <div className="mt-1">
      {current ? (
        <button
          type="button"
          onClick={() => setOpen(true)}
          aria-haspopup="dialog"
          aria-label={`Matched to invoice ${numbers}: details${canPost ? ' and unmatch' : ''}`}
          className="inline-flex min-h-8 items-center gap-1 rounded-full whitespace-nowrap bg-emerald-100 px-2.5 text-xs font-medium text-emerald-800 hover:bg-emerald-200 dark:bg-emerald-900/60 dark:text-emerald-200"
          data-testid="matched-badge"
        >
          <Link2 className="h-3.5 w-3.5" aria-hidden="true" />
          Matched · {numbers}
        </button>
      ) : (
        <Button
          size="sm"
          variant="secondary"
          onClick={() => setOpen(true)}
          aria-haspopup="dialog"
          aria-label={`Match ${tx.description} to an invoice`}
        >
          <Link2 className="h-4 w-4" aria-hidden="true" />
          Match
        </Button>
      )}
      {open ? (
        <Dialog
          open
          onOpenChange={setOpen}
          wide
          title={current ? `Matched: ${tx.description}` : `Match: ${tx.description}`}
          description={`${formatDate(tx.date)} · ${formatAmount(tx.amount, tx.currency)} into ${tx.moneyAccountName}`}
        >
          {current ? (
            <MatchDetails
              tx={tx}
              match={current}
              canUnmatch={canPost && tx.status !== 'reconciled'}
              onUnmatched={done}
            />
          ) : (
            <SuggestionList tx={tx} onMatched={done} />
          )}
        </Dialog>
      ) : null}
    </div>
  );
};

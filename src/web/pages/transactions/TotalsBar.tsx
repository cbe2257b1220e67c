import type { TransactionTotals } from '../../../shared/transactions.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { plural } from '../../lib/format.ts';

// What the filters show, added up per currency: the count, money in, money out and net.

export const TotalsBar = ({
  totals,
  onClearFilters,
}: {
  totals: TransactionTotals | undefined;
  /** Offered when a filter is set. */
  onClearFilters: (() => void) | null;
}) => (
  <div
    aria-live="polite"
    className="flex flex-wrap items-center gap-x-6 gap-y-1 border-b border-slate-200 bg-slate-50/60 px-4 py-2.5 text-sm dark:border-slate-800 dark:bg-slate-900/40"
  >
    {totals ? (
      totals.byCurrency.length === 0 ? (
        <span className="text-slate-500 dark:text-slate-400">No transactions match.</span>
      ) : (
        totals.byCurrency.map((c) => (
          <span key={c.currency} className="flex flex-wrap gap-x-4" data-testid={`totals-${c.currency}`}>
            <span className="text-slate-500 dark:text-slate-400">{plural(c.count, 'transaction')}</span>
            <span>
              In{' '}
              <Money
                minor={c.moneyIn}
                currency={c.currency}
                className="font-semibold text-emerald-700 dark:text-emerald-400"
              />
            </span>
            <span>
              Out{' '}
              <Money
                minor={c.moneyOut}
                currency={c.currency}
                tintNegative={false}
                className="font-semibold"
              />
            </span>
            <span>
              Net <Money minor={c.moneyIn - c.moneyOut} currency={c.currency} className="font-semibold" />
            </span>
          </span>
        ))
      )
    ) : (
      <span className="text-slate-500 dark:text-slate-400">Adding up…</span>
    )}
    {onClearFilters ? (
      <Button variant="ghost" size="sm" onClick={onClearFilters} className="ml-auto">
        Clear filters
      </Button>
    ) : null}
  </div>
);

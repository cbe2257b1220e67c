import { formatAmount } from '../../lib/format.ts';

export { formatAmount };

// Amounts are integer minor units; lib/format.ts is the one place the web app turns them into
// text for people, and this component is how a page shows one. Numbers are tabular so columns
// line up, and negatives are never only a colour: they keep their sign (or parentheses in
// accounting style) and are tinted as well.

export type MoneyProps = {
  /** Integer minor units (cents). */
  minor: number;
  currency: string;
  /** Accounting style: negatives in parentheses, as on financial statements. */
  accounting?: boolean;
  /** Show an en dash instead of a zero amount (debit/credit columns). */
  blankZero?: boolean;
  /** Tint negatives red (on by default). */
  tintNegative?: boolean;
  className?: string;
};

export const Money = ({
  minor,
  currency,
  accounting = false,
  blankZero = false,
  tintNegative = true,
  className = '',
}: MoneyProps) => {
  if (blankZero && minor === 0) {
    return (
      <span className={`text-slate-400 tabular-nums dark:text-slate-500 ${className}`}>
        <span aria-hidden="true">–</span>
        <span className="sr-only">none</span>
      </span>
    );
  }
  const text = formatAmount(minor, currency, accounting);
  const negative = minor < 0;
  return (
    <span
      className={`whitespace-nowrap tabular-nums ${negative && tintNegative ? 'text-red-700 dark:text-red-400' : ''} ${className}`}
      data-minor={minor}
    >
      {text}
    </span>
  );
};

import { Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import { Money } from '../money/Money.tsx';
import { Button } from './Button.tsx';
import { Card, CardHeader } from './Card.tsx';
import { type LineHeading, LinesHead, RemoveLineButton } from './LineItems.tsx';
import { ScrollFrame } from './Table.tsx';

// A document editor's Lines card (an invoice's, a bill's): the lines table under its headings,
// the list of line problems, Add line and the live totals. Each editor draws its own rows and
// says which problems to list; the card and the totals look the same in both.

/** One figure of the editor's totals: its label, then the amount (`testId` on the amount). */
export const TotalsLine = ({
  label,
  className = '',
  testId,
  children,
}: {
  label: string;
  className?: string;
  testId?: string;
  children: ReactNode;
}) => (
  <div className={`flex justify-between ${className}`}>
    <dt>{label}</dt>
    <dd data-testid={testId}>{children}</dd>
  </div>
);

type EditorTotals = {
  subtotal: number;
  taxes: readonly { taxRateId: string; amount: number }[];
  total: number;
};

/** The live totals: any figures the editor puts first, the subtotal, each tax, the total. */
export const DocumentTotals = ({
  label,
  totals,
  currency,
  taxRates,
  children,
}: {
  /** The list's name for screen readers ("Invoice totals"). */
  label: string;
  totals: EditorTotals;
  currency: string;
  taxRates: readonly { id: string; name: string; percent: string | number }[] | undefined;
  /** Figures above the subtotal (an invoice's discounts). */
  children?: ReactNode;
}) => (
  <dl className="w-full max-w-xs space-y-1.5 text-sm" aria-label={label} aria-live="polite">
    {children}
    <TotalsLine label="Subtotal" testId="editor-subtotal">
      <Money minor={totals.subtotal} currency={currency} />
    </TotalsLine>
    {totals.taxes.map((t) => {
      const rate = taxRates?.find((r) => r.id === t.taxRateId);
      return (
        <TotalsLine key={t.taxRateId} label={rate ? `${rate.name} (${rate.percent}%)` : 'Tax'}>
          <Money minor={t.amount} currency={currency} />
        </TotalsLine>
      );
    })}
    <TotalsLine
      label="Total"
      className="border-t border-slate-200 pt-2 text-base font-semibold dark:border-slate-700"
      testId="editor-total"
    >
      <Money minor={totals.total} currency={currency} />
    </TotalsLine>
  </dl>
);

export const LinesCard = ({
  description,
  caption,
  tableClassName,
  columns,
  problems,
  onAddLine,
  totals,
  children,
}: {
  description: string;
  /** The table's name for screen readers ("Invoice lines"). */
  caption: string;
  /** The table's minimum width (`min-w-[880px]`). */
  tableClassName: string;
  columns: readonly LineHeading[];
  /** The line problems to list under the table, each with a key and its text. */
  problems: readonly { key: string; text: string }[];
  onAddLine: () => void;
  totals: ReactNode;
  /** The rows. */
  children: ReactNode;
}) => (
  <Card>
    <CardHeader title="Lines" description={description} />
    <ScrollFrame label={caption}>
      <table className={`w-full ${tableClassName} text-sm`}>
        <caption className="sr-only">{caption}</caption>
        <LinesHead columns={columns} />
        <tbody>{children}</tbody>
      </table>
    </ScrollFrame>
    {problems.length ? (
      <ul className="mx-5 mb-3 list-disc space-y-1 pl-5 text-sm text-red-700 dark:text-red-400">
        {problems.map((p) => (
          <li key={p.key}>{p.text}</li>
        ))}
      </ul>
    ) : null}
    <div className="flex flex-wrap items-start justify-between gap-6 border-t border-slate-200 px-5 py-4 dark:border-slate-800">
      <Button variant="secondary" onClick={onAddLine}>
        <Plus className="h-4 w-4" aria-hidden="true" /> Add line
      </Button>
      {totals}
    </div>
  </Card>
);

/** A line's last two cells: its amount (`line-N-amount`) and its remove button (off for the only line). */
export const LineEndCells = ({
  line,
  net,
  currency,
  onlyLine,
  onRemove,
}: {
  /** The line's number, from 1. */
  line: number;
  net: number;
  currency: string;
  onlyLine: boolean;
  onRemove: () => void;
}) => (
  <>
    <td className="px-3 py-2 pt-4 text-right font-medium" data-testid={`line-${line}-amount`}>
      <Money minor={net} currency={currency} />
    </td>
    <td className="px-1 py-2">
      <RemoveLineButton line={line} disabled={onlyLine} onRemove={onRemove} />
    </td>
  </>
);

import { useMemo, useState } from 'react';
import type { TaxRate } from '../../../shared/invoices.ts';
import { type EditorLine, editorTotals } from './editorState.ts';

// The lines of a document editor (an invoice's, a bill's): the lines as typed, the tax rates
// still offered, the live totals, each line's problems, and update / add / remove. Each editor
// says what a new line starts as and how a line is checked.

export const useEditorLines = <L extends EditorLine, P>({
  first,
  blank,
  check,
  taxRates,
  currency,
}: {
  /** The editor's one line before anything is typed. */
  first: L;
  /** A line added with Add line. */
  blank: () => L;
  check: (line: L, currency: string, taxRates: TaxRate[]) => P;
  taxRates: TaxRate[] | undefined;
  currency: string;
}) => {
  const [lines, setLines] = useState<L[]>([first]);
  const rates = (taxRates ?? []).filter((t) => !t.archived);
  const totals = useMemo(() => editorTotals(lines, taxRates ?? [], currency), [lines, taxRates, currency]);
  const problems = lines.map((l) => check(l, currency, taxRates ?? []));
  const update = (key: string, patch: Partial<L>) =>
    setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  const addLine = () => setLines((ls) => [...ls, blank()]);
  const removeLine = (key: string) =>
    setLines((ls) => (ls.length > 1 ? ls.filter((l) => l.key !== key) : ls));
  return { lines, setLines, rates, totals, problems, update, addLine, removeLine };
};

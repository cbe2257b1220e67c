import { useMemo, useState } from 'react';
import type { Supplier } from '../../../shared/payables.ts';
import { ApiError } from '../../lib/api.ts';
import { editorTotals } from '../invoices/editorState.ts';
import { useTaxRates } from '../invoices/invoicesApi.ts';
import { useItemChoice } from '../invoices/useItemChoice.ts';
import {
  type BillEditorLine,
  applySupplierDefaults,
  checkBillLine,
  newBillLine,
  serverFieldProblems,
  toApiBillLines,
} from './billEditorState.ts';
import { useBillAccounts } from './billsApi.ts';

// The lines of a document that is "lines as a bill's" but not a bill — a supplier credit, a
// recurring bill's template: the bill editor's line rules (billEditorState.ts), its totals and
// the same state names, so the bill editor's Lines card (BillLinesCard) draws them.

export const useSupplierLines = (
  supplier: Pick<Supplier, 'id' | 'defaultAccountId' | 'defaultTaxRateId'> | undefined,
  currency: string,
  /** The last save's error: its field problems ("lines.0.unitPrice") show on the lines. */
  saveError: unknown,
) => {
  const taxRates = useTaxRates();
  const accounts = useBillAccounts();
  const [lines, setLines] = useState<BillEditorLine[]>(() => [newBillLine(supplier)]);
  const [showErrors, setShowErrors] = useState(false);
  const [defaultsFor, setDefaultsFor] = useState<typeof supplier>(supplier);
  // A new supplier brings its default account and tax to the lines still on the previous one's.
  if (supplier && supplier.id !== defaultsFor?.id) {
    setLines((ls) => applySupplierDefaults(ls, defaultsFor, supplier));
    setDefaultsFor(supplier);
  }
  const totals = useMemo(
    () => editorTotals(lines, taxRates.data ?? [], currency),
    [lines, taxRates.data, currency],
  );
  const problems = lines.map((l) => checkBillLine(l, currency, taxRates.data ?? []));
  const update = (key: string, patch: Partial<BillEditorLine>) =>
    setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  return {
    ...useItemChoice(update, currency),
    lines,
    currency,
    totals,
    problems,
    hasProblems: problems.some((p) => Object.keys(p).length > 0),
    showErrors,
    setShowErrors,
    serverProblems: serverFieldProblems(
      saveError instanceof ApiError && saveError.code === 'validation_failed' ? saveError.details : undefined,
    ),
    accounts: accounts.accounts,
    taxRates: taxRates.data,
    rates: (taxRates.data ?? []).filter((t) => !t.archived),
    update,
    addLine: () => setLines((ls) => [...ls, newBillLine(supplier)]),
    removeLine: (key: string) => setLines((ls) => (ls.length > 1 ? ls.filter((l) => l.key !== key) : ls)),
    /** The lines as the API takes them (call once `hasProblems` is false). */
    toApi: () => toApiBillLines(lines, currency),
  };
};

export type SupplierLinesState = ReturnType<typeof useSupplierLines>;

import { type FormEvent, useEffect, useState } from 'react';
import type { Bill } from '../../../shared/payables.ts';
import { ApiError, api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { useTaxRates } from '../invoices/invoicesApi.ts';
import { useEditorLines } from '../invoices/useEditorLines.ts';
import { useItemChoice } from '../invoices/useItemChoice.ts';
import { todayIso } from '../invoices/parts.tsx';
import {
  applySupplierDefaults,
  checkBillLine,
  dueFromTerms,
  fromBillLines,
  newBillLine,
  serverFieldProblems,
  toApiBillLines,
} from './billEditorState.ts';
import { useBill, useBillAccounts, useBillMutation, useSupplierChoices } from './billsApi.ts';
import { duplicateOf } from './parts.tsx';

// The bill editor's state: the fields, the loaded draft, the supplier's defaults (account, tax,
// terms, currency), the live totals and line problems, and save (as a draft, or saved and
// submitted), with the server's field problems and a duplicate refusal kept for the form.

export const useBillEditor = ({
  billId,
  initialSupplier,
  onSaved,
}: {
  billId: string | null;
  initialSupplier: string | null;
  onSaved: (id: string) => void;
}) => {
  const { company } = useCompany();
  const existing = useBill(billId);
  const suppliers = useSupplierChoices();
  const taxRates = useTaxRates();
  const accounts = useBillAccounts();
  const [supplierId, setSupplierIdRaw] = useState(initialSupplier ?? '');
  const [reference, setReference] = useState('');
  const [issueDate, setIssueDate] = useState(todayIso());
  const [dueDate, setDueDate] = useState('');
  const [dueTouched, setDueTouched] = useState(false);
  const [currency, setCurrency] = useState('');
  const [exchangeRate, setExchangeRate] = useState('');
  const [notes, setNotes] = useState('');
  const [showErrors, setShowErrors] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const [defaultsFor, setDefaultsFor] = useState<string | null>(null);
  const supplierList = suppliers.data ?? [];
  const supplier = supplierList.find((s) => s.id === supplierId);
  const billCurrency = currency || supplier?.currency || company.baseCurrency;
  const { lines, setLines, rates, totals, problems, update, addLine, removeLine } = useEditorLines({
    first: newBillLine(),
    blank: () => newBillLine(supplier),
    check: checkBillLine,
    taxRates: taxRates.data,
    currency: billCurrency,
  });

  useEffect(() => {
    const bill = existing.data;
    if (!bill || loaded) return;
    setSupplierIdRaw(bill.supplierId);
    setDefaultsFor(bill.supplierId);
    setReference(bill.reference);
    setIssueDate(bill.issueDate);
    setDueDate(bill.dueDate);
    setDueTouched(true);
    setCurrency(bill.currency);
    setExchangeRate(bill.currency === company.baseCurrency ? '' : bill.exchangeRate);
    setNotes(bill.notes);
    setLines(fromBillLines(bill.lines, bill.currency));
    setLoaded(true);
  }, [existing.data, loaded, company.baseCurrency, setLines]);

  // A supplier chosen (or the one a new bill was opened for, once the list loads) brings its
  // defaults to the lines still on the previous supplier's, and its currency.
  useEffect(() => {
    if (!supplier || defaultsFor === supplier.id || (billId && !loaded)) return;
    const previous = supplierList.find((s) => s.id === defaultsFor);
    setLines((ls) => applySupplierDefaults(ls, previous, supplier));
    setCurrency(supplier.currency);
    setDefaultsFor(supplier.id);
  }, [supplier, defaultsFor, supplierList, billId, loaded, setLines]);

  const foreign = billCurrency !== company.baseCurrency;
  const computedDue = dueFromTerms(issueDate, supplier);
  const effectiveDue = dueTouched && dueDate ? dueDate : computedDue;
  const rateProblem =
    foreign && exchangeRate.trim() !== '' && !/^\d{1,12}(\.\d{1,10})?$/.test(exchangeRate.trim())
      ? `Enter the rate as a number (${company.baseCurrency} per ${billCurrency}), or leave it empty for the day's rate.`
      : null;
  const hasProblems =
    problems.some((p) => Object.keys(p).length > 0) || !supplierId || !issueDate || Boolean(rateProblem);

  const save = useBillMutation(async (base, { submitIt }: { submitIt: boolean }) => {
    const body = {
      supplierId,
      reference,
      issueDate,
      dueDate: effectiveDue || undefined,
      currency: billCurrency,
      exchangeRate: foreign && exchangeRate.trim() ? exchangeRate.trim() : undefined,
      notes,
      lines: toApiBillLines(lines, billCurrency),
    };
    const saved = billId
      ? await api.patch<Bill>(`${base}/bills/${billId}`, body)
      : await api.post<Bill>(`${base}/bills`, body);
    return submitIt ? api.post<Bill>(`${base}/bills/${saved.id}/submit`) : saved;
  });

  const submit = async (submitIt: boolean, e?: FormEvent) => {
    e?.preventDefault();
    setShowErrors(true);
    if (hasProblems) return;
    const saved = await save.mutateAsync({ submitIt }).catch(() => null);
    if (saved) onSaved(saved.id);
  };

  const { items, chooseItem } = useItemChoice(update, billCurrency);

  const serverProblems = serverFieldProblems(
    save.error instanceof ApiError && save.error.code === 'validation_failed'
      ? save.error.details
      : undefined,
  );

  return {
    loading: Boolean(billId && existing.isLoading),
    loadError: existing.error,
    bill: existing.data,
    suppliers,
    supplierList,
    supplier,
    setSupplierId: setSupplierIdRaw,
    supplierId,
    accounts: accounts.accounts,
    taxRates: taxRates.data,
    rates,
    reference,
    setReference,
    issueDate,
    setIssueDate,
    setDueDate,
    dueTouched,
    setDueTouched,
    effectiveDue,
    currency: billCurrency,
    setCurrency,
    foreign,
    exchangeRate,
    setExchangeRate,
    rateProblem,
    notes,
    setNotes,
    lines,
    totals,
    problems,
    serverProblems,
    hasProblems,
    showErrors,
    save,
    duplicate: duplicateOf(save.error),
    submit,
    update,
    addLine,
    removeLine,
    items,
    chooseItem,
  };
};

export type BillEditorState = ReturnType<typeof useBillEditor>;

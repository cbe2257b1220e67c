import { type FormEvent, useEffect, useState } from 'react';
import { type Invoice, addDaysIso } from '../../../shared/invoices.ts';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { checkLine, fromInvoiceLines, newLine, toApiLines } from './editorState.ts';
import { useCustomers, useInvoice, useInvoicingMutation, useTaxRates } from './invoicesApi.ts';
import { todayIso } from './parts.tsx';
import { useEditorLines } from './useEditorLines.ts';
import { useItemChoice } from './useItemChoice.ts';

// The invoice editor's state: the form fields, the loaded draft, the derived currency, due date,
// totals and line problems, and the save-as-draft / save-and-send mutation.

export const useInvoiceEditor = ({
  invoiceId,
  initialCustomer,
  onSaved,
}: {
  invoiceId: string | null;
  initialCustomer: string | null;
  onSaved: (id: string) => void;
}) => {
  const { company } = useCompany();
  const existing = useInvoice(invoiceId);
  const customers = useCustomers();
  const taxRates = useTaxRates();
  const [customerId, setCustomerId] = useState(initialCustomer ?? '');
  const [issueDate, setIssueDate] = useState(todayIso());
  const [dueDate, setDueDate] = useState('');
  const [dueTouched, setDueTouched] = useState(false);
  const [exchangeRate, setExchangeRate] = useState('');
  const [reference, setReference] = useState('');
  const [notes, setNotes] = useState('');
  const [terms, setTerms] = useState('');
  const [emailOnSend, setEmailOnSend] = useState(true);
  const [showErrors, setShowErrors] = useState(false);
  const [addingCustomer, setAddingCustomer] = useState(false);
  const [loaded, setLoaded] = useState(false);
  const customerList = customers.data?.customers ?? [];
  const customer = customerList.find((c) => c.id === customerId);
  const currency = customer?.currency ?? company.baseCurrency;
  const foreign = currency !== company.baseCurrency;
  const { lines, setLines, rates, totals, problems, update, addLine, removeLine } = useEditorLines({
    first: newLine(),
    blank: () => newLine(),
    check: checkLine,
    taxRates: taxRates.data,
    currency,
  });

  useEffect(() => {
    const inv = existing.data;
    if (!inv || loaded) return;
    setCustomerId(inv.customerId);
    setIssueDate(inv.issueDate);
    setDueDate(inv.dueDate);
    setDueTouched(true);
    setExchangeRate(inv.exchangeRate === '1' ? '' : inv.exchangeRate);
    setReference(inv.reference);
    setNotes(inv.notes);
    setTerms(inv.terms);
    setLines(fromInvoiceLines(inv.lines, inv.currency));
    setLoaded(true);
  }, [existing.data, loaded, setLines]);
  const computedDue = customer && issueDate ? addDaysIso(issueDate, customer.paymentTermsDays) : '';
  const effectiveDue = dueTouched && dueDate ? dueDate : computedDue;
  const hasProblems =
    problems.some((p) => Object.keys(p).length > 0) || !customerId || (foreign && !exchangeRate.trim());

  const save = useInvoicingMutation(async (base, action: 'draft' | 'send') => {
    const body = {
      customerId,
      issueDate,
      dueDate: effectiveDue || undefined,
      currency,
      exchangeRate: foreign ? exchangeRate.trim() : undefined,
      reference,
      notes,
      terms,
      lines: toApiLines(lines, currency),
    };
    const saved = invoiceId
      ? await api.patch<Invoice>(`${base}/invoices/${invoiceId}`, body)
      : await api.post<Invoice>(`${base}/invoices`, body);
    if (action === 'send') {
      await api.post(`${base}/invoices/${saved.id}/send`, { email: emailOnSend && Boolean(customer?.email) });
    }
    return saved;
  });

  const submit = async (action: 'draft' | 'send', e?: FormEvent) => {
    e?.preventDefault();
    setShowErrors(true);
    if (hasProblems) return;
    const saved = await save.mutateAsync(action).catch(() => null);
    if (saved) onSaved(saved.id);
  };

  const { items: itemList, chooseItem } = useItemChoice(update, currency);

  return {
    loading: Boolean(invoiceId && existing.isLoading),
    customers,
    customerList,
    customer,
    items: itemList,
    taxRates: taxRates.data,
    rates,
    customerId,
    setCustomerId,
    issueDate,
    setIssueDate,
    setDueDate,
    dueTouched,
    setDueTouched,
    effectiveDue,
    exchangeRate,
    setExchangeRate,
    reference,
    setReference,
    notes,
    setNotes,
    terms,
    setTerms,
    currency,
    lines,
    totals,
    problems,
    hasProblems,
    showErrors,
    emailOnSend,
    setEmailOnSend,
    addingCustomer,
    setAddingCustomer,
    save,
    submit,
    update,
    chooseItem,
    addLine,
    removeLine,
  };
};

export type InvoiceEditorState = ReturnType<typeof useInvoiceEditor>;

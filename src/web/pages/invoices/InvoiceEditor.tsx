import { LineInput, LineSelect, LinesHead, RemoveLineButton } from '../../components/ui/LineItems.tsx';
import { ArrowLeft, Plus } from 'lucide-react';
import { type FormEvent, useEffect, useMemo, useState } from 'react';
import { type Invoice, addDaysIso } from '../../../shared/invoices.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card, CardHeader } from '../../components/ui/Card.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { CustomerFormDialog } from './CustomerForm.tsx';
import {
  type EditorLine,
  checkLine,
  editorTotals,
  fromInvoiceLines,
  newLine,
  priceText,
  toApiLines,
} from './editorState.ts';
import { useCustomers, useInvoice, useInvoicingMutation, useItems, useTaxRates } from './invoicesApi.ts';
import { errorMessage, todayIso, RateInput } from './parts.tsx';

// The New Invoice editor (and the draft editor): customer, dates, currency, lines from items
// or free text, and live totals computed by the same shared function the server posts with.

/** The typed numbers of a line, in column order. */
const NUMBER_CELLS = [
  { field: 'quantity', label: 'quantity', placeholder: undefined },
  { field: 'unitPrice', label: 'unit price', placeholder: '0.00' },
  { field: 'discountPercent', label: 'discount percent', placeholder: '0' },
] as const;

export const InvoiceEditor = ({
  invoiceId,
  customerId: initialCustomer,
  onCancel,
  onSaved,
}: {
  invoiceId: string | null;
  customerId: string | null;
  onCancel: () => void;
  onSaved: (id: string) => void;
}) => {
  const { company, can } = useCompany();
  const existing = useInvoice(invoiceId);
  const customers = useCustomers();
  const items = useItems();
  const taxRates = useTaxRates();
  const [customerId, setCustomerId] = useState(initialCustomer ?? '');
  const [issueDate, setIssueDate] = useState(todayIso());
  const [dueDate, setDueDate] = useState('');
  const [dueTouched, setDueTouched] = useState(false);
  const [exchangeRate, setExchangeRate] = useState('');
  const [reference, setReference] = useState('');
  const [notes, setNotes] = useState('');
  const [terms, setTerms] = useState('');
  const [lines, setLines] = useState<EditorLine[]>([newLine()]);
  const [emailOnSend, setEmailOnSend] = useState(true);
  const [showErrors, setShowErrors] = useState(false);
  const [addingCustomer, setAddingCustomer] = useState(false);
  const [loaded, setLoaded] = useState(false);

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
  }, [existing.data, loaded]);

  const customerList = customers.data?.customers ?? [];
  const customer = customerList.find((c) => c.id === customerId);
  const currency = customer?.currency ?? company.baseCurrency;
  const foreign = currency !== company.baseCurrency;
  const computedDue = customer && issueDate ? addDaysIso(issueDate, customer.paymentTermsDays) : '';
  const effectiveDue = dueTouched && dueDate ? dueDate : computedDue;
  const rates = (taxRates.data ?? []).filter((t) => !t.archived);
  const totals = useMemo(
    () => editorTotals(lines, taxRates.data ?? [], currency),
    [lines, taxRates.data, currency],
  );
  const problems = lines.map((l) => checkLine(l, currency, taxRates.data ?? []));
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

  const update = (key: string, patch: Partial<EditorLine>) =>
    setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  const chooseItem = (key: string, itemId: string) => {
    const item = items.data?.find((i) => i.id === itemId);
    update(
      key,
      item
        ? {
            itemId,
            description: item.name,
            unitPrice: priceText(item.unitPrice, currency),
            taxRateIds: item.taxRateId ? [item.taxRateId] : [],
          }
        : { itemId: '' },
    );
  };

  if (invoiceId && existing.isLoading) {
    return (
      <p className="p-8 text-slate-500" role="status">
        Loading the draft...
      </p>
    );
  }

  return (
    <form className="mx-auto max-w-6xl space-y-6" onSubmit={(e) => submit('draft', e)} noValidate>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Button variant="ghost" onClick={onCancel} aria-label="Back">
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          </Button>
          <h1 className="text-2xl font-bold text-slate-900 dark:text-white">
            {invoiceId ? 'Edit draft invoice' : 'New Invoice'}
          </h1>
        </div>
      </div>
      {save.error ? <Alert>{errorMessage(save.error)}</Alert> : null}
      {showErrors && hasProblems ? (
        <Alert tone="warning">
          Some fields need attention before the invoice can be saved; they are marked below.
        </Alert>
      ) : null}

      <Card className="p-5">
        <div className="grid gap-4 md:grid-cols-4">
          <div className="md:col-span-2">
            <SelectField
              label="Customer"
              value={customerId}
              onChange={(e) => setCustomerId(e.target.value)}
              error={showErrors && !customerId ? 'Choose a customer.' : null}
              options={[
                { value: '', label: customers.isLoading ? 'Loading customers...' : 'Choose a customer' },
                ...customerList.map((c) => ({
                  value: c.id,
                  label: c.company ? `${c.name} (${c.company})` : c.name,
                })),
              ]}
            />
            <button
              type="button"
              onClick={() => setAddingCustomer(true)}
              className="mt-1 inline-flex min-h-11 items-center gap-1 text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
            >
              <Plus className="h-4 w-4" aria-hidden="true" /> New customer
            </button>
          </div>
          <TextField
            label="Issue date"
            type="date"
            value={issueDate}
            onChange={(e) => setIssueDate(e.target.value)}
            required
          />
          <TextField
            label="Due date"
            type="date"
            value={effectiveDue}
            min={issueDate}
            onChange={(e) => {
              setDueDate(e.target.value);
              setDueTouched(true);
            }}
            hint={customer && !dueTouched ? `${customer.paymentTermsDays} days after issue` : undefined}
          />
          <TextField
            label="Reference (PO number)"
            value={reference}
            onChange={(e) => setReference(e.target.value)}
          />
          <TextField
            label="Currency"
            value={currency}
            readOnly
            hint={customer ? "The customer's currency" : undefined}
          />
          <RateInput
            base={company.baseCurrency}
            currency={currency}
            value={exchangeRate}
            onChange={setExchangeRate}
            error={showErrors && !exchangeRate.trim() ? 'Enter the exchange rate on the issue date.' : null}
          />
        </div>
      </Card>

      <Card>
        <CardHeader
          title="Lines"
          description="Choose an item or type a description; amounts update as you type."
        />
        <div className="overflow-x-auto">
          <table className="w-full min-w-[880px] text-sm">
            <caption className="sr-only">Invoice lines</caption>
            <LinesHead
              columns={[
                { label: 'Item', className: 'w-44' },
                { label: 'Description' },
                { label: 'Qty', className: 'w-24' },
                { label: 'Unit price', className: 'w-32' },
                { label: 'Disc. %', className: 'w-24' },
                { label: 'Tax', className: 'w-40' },
                { label: 'Amount', numeric: true, className: 'w-32' },
                { label: 'Remove', shown: '', className: 'w-12' },
              ]}
            />
            <tbody>
              {lines.map((line, i) => {
                const p = showErrors ? problems[i]! : {};
                const n = i + 1;
                return (
                  <tr key={line.key} className="align-top">
                    <td className="px-3 py-2">
                      <LineSelect
                        label={`Line ${n} item`}
                        value={line.itemId}
                        onChange={(e) => chooseItem(line.key, e.target.value)}
                      >
                        <option value="">Free text</option>
                        {(items.data ?? [])
                          .filter((it) => !it.archived)
                          .map((it) => (
                            <option key={it.id} value={it.id}>
                              {it.name}
                            </option>
                          ))}
                      </LineSelect>
                    </td>
                    <td className="px-3 py-2">
                      <LineInput
                        label={`Line ${n} description`}
                        value={line.description}
                        onChange={(e) => update(line.key, { description: e.target.value })}
                        invalid={Boolean(p.description)}
                        title={p.description}
                      />
                    </td>
                    {NUMBER_CELLS.map(({ field, label, placeholder }) => (
                      <td key={field} className="px-3 py-2">
                        <LineInput
                          label={`Line ${n} ${label}`}
                          numeric
                          value={line[field]}
                          placeholder={placeholder}
                          onChange={(e) => update(line.key, { [field]: e.target.value })}
                          invalid={Boolean(p[field])}
                          title={p[field]}
                        />
                      </td>
                    ))}
                    <td className="px-3 py-2">
                      <div className="space-y-1">
                        <LineSelect
                          label={`Line ${n} tax`}
                          value={line.taxRateIds[0] ?? ''}
                          onChange={(e) =>
                            update(line.key, {
                              taxRateIds: e.target.value ? [e.target.value, ...line.taxRateIds.slice(1)] : [],
                            })
                          }
                          invalid={Boolean(p.taxes)}
                          title={p.taxes}
                        >
                          <option value="">No tax</option>
                          {rates.map((t) => (
                            <option key={t.id} value={t.id}>
                              {t.name} ({t.percent}%{t.inclusive ? ', incl.' : ''})
                            </option>
                          ))}
                        </LineSelect>
                        {line.taxRateIds.length > 0 && rates.length > 1 ? (
                          <LineSelect
                            label={`Line ${n} second tax`}
                            value={line.taxRateIds[1] ?? ''}
                            onChange={(e) =>
                              update(line.key, {
                                taxRateIds: e.target.value
                                  ? [line.taxRateIds[0]!, e.target.value]
                                  : line.taxRateIds.slice(0, 1),
                              })
                            }
                            invalid={Boolean(p.taxes)}
                          >
                            <option value="">+ second tax</option>
                            {rates
                              .filter((t) => t.id !== line.taxRateIds[0])
                              .map((t) => (
                                <option key={t.id} value={t.id}>
                                  {t.name} ({t.percent}%{t.compound ? ', compound' : ''})
                                </option>
                              ))}
                          </LineSelect>
                        ) : null}
                      </div>
                    </td>
                    <td className="px-3 py-2 pt-4 text-right font-medium" data-testid={`line-${n}-amount`}>
                      <Money minor={totals.lines[i]?.net ?? 0} currency={currency} />
                    </td>
                    <td className="px-1 py-2">
                      <RemoveLineButton
                        line={n}
                        disabled={lines.length === 1}
                        onRemove={() =>
                          setLines((ls) => (ls.length > 1 ? ls.filter((l) => l.key !== line.key) : ls))
                        }
                      />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {showErrors && problems.some((p) => Object.keys(p).length) ? (
          <ul className="mx-5 mb-3 list-disc space-y-1 pl-5 text-sm text-red-700 dark:text-red-400">
            {lines.flatMap((line, i) =>
              Object.values(problems[i] ?? {}).map((msg) => (
                <li key={`${line.key}-${msg}`}>
                  Line {i + 1}: {msg}
                </li>
              )),
            )}
          </ul>
        ) : null}
        <div className="flex flex-wrap items-start justify-between gap-6 border-t border-slate-200 px-5 py-4 dark:border-slate-800">
          <Button variant="secondary" onClick={() => setLines((ls) => [...ls, newLine()])}>
            <Plus className="h-4 w-4" aria-hidden="true" /> Add line
          </Button>
          <dl className="w-full max-w-xs space-y-1.5 text-sm" aria-label="Invoice totals" aria-live="polite">
            {totals.discountTotal > 0 ? (
              <div className="flex justify-between text-slate-500 dark:text-slate-400">
                <dt>Discounts</dt>
                <dd>
                  <Money minor={-totals.discountTotal} currency={currency} tintNegative={false} />
                </dd>
              </div>
            ) : null}
            <div className="flex justify-between">
              <dt>Subtotal</dt>
              <dd data-testid="editor-subtotal">
                <Money minor={totals.subtotal} currency={currency} />
              </dd>
            </div>
            {totals.taxes.map((t) => {
              const rate = taxRates.data?.find((r) => r.id === t.taxRateId);
              return (
                <div key={t.taxRateId} className="flex justify-between">
                  <dt>{rate ? `${rate.name} (${rate.percent}%)` : 'Tax'}</dt>
                  <dd>
                    <Money minor={t.amount} currency={currency} />
                  </dd>
                </div>
              );
            })}
            <div className="flex justify-between border-t border-slate-200 pt-2 text-base font-semibold dark:border-slate-700">
              <dt>Total</dt>
              <dd data-testid="editor-total">
                <Money minor={totals.total} currency={currency} />
              </dd>
            </div>
          </dl>
        </div>
      </Card>

      <Card className="grid gap-4 p-5 md:grid-cols-2">
        {(
          [
            ['invoice-notes', 'Notes to the customer', notes, setNotes],
            ['invoice-terms', 'Terms and conditions', terms, setTerms],
          ] as const
        ).map(([id, label, value, setter]) => (
          <div key={id} className="space-y-1.5">
            <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
              {label}
            </label>
            <textarea
              id={id}
              rows={3}
              value={value}
              onChange={(e) => setter(e.target.value)}
              className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
            />
          </div>
        ))}
      </Card>

      <div className="flex flex-wrap items-center justify-end gap-3">
        {can('post') ? (
          <label className="mr-auto flex min-h-11 items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
            <input
              type="checkbox"
              checked={emailOnSend}
              onChange={(e) => setEmailOnSend(e.target.checked)}
              className="h-5 w-5 rounded border-slate-300"
            />
            Email the PDF to the customer when sending
            {customer && !customer.email ? (
              <span className="text-amber-700 dark:text-amber-400">(no email on file)</span>
            ) : null}
          </label>
        ) : null}
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="secondary" type="submit" busy={save.isPending && save.variables === 'draft'}>
          Save draft
        </Button>
        {can('post') ? (
          <Button onClick={() => submit('send')} busy={save.isPending && save.variables === 'send'}>
            Save and send
          </Button>
        ) : null}
      </div>

      {addingCustomer ? (
        <CustomerFormDialog onClose={() => setAddingCustomer(false)} onSaved={(c) => setCustomerId(c.id)} />
      ) : null}
    </form>
  );
};

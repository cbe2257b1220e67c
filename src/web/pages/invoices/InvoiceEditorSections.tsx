import { Button } from '../../components/ui/Button.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { useCompany } from '../../lib/company.tsx';
import { RateInput } from './parts.tsx';
import type { InvoiceEditorState } from './useInvoiceEditor.ts';
import { CheckboxField } from '../../components/ui/Form.tsx';
import { NewPartyButton } from '../shared-documents/DocumentEditor.tsx';

// The invoice editor's sections around the lines: the header fields (customer, dates,
// reference, currency, rate), the notes and terms, and the save/send actions.

export const InvoiceHeaderCard = ({ ed }: { ed: InvoiceEditorState }) => {
  const { company } = useCompany();
  const { customer, customerList, customers, customerId, setCustomerId, issueDate, setIssueDate } = ed;
  const { effectiveDue, setDueDate, dueTouched, setDueTouched, reference, setReference } = ed;
  const { currency, exchangeRate, setExchangeRate, showErrors, setAddingCustomer } = ed;
  return (
    <Card className="p-5">
      <div className="grid gap-4 md:grid-cols-4">
        <div className="md:col-span-2">
          <SelectField
            label="Customer"
            value={customerId}
            onChange={(e) => setCustomerId(e.target.value)}
            error={showErrors && !customerId ? 'Choose a customer.' : null}
            emptyOption={customers.isLoading ? 'Loading customers...' : 'Choose a customer'}
            options={customerList.map((c) => ({
              value: c.id,
              label: c.company ? `${c.name} (${c.company})` : c.name,
            }))}
          />
          <NewPartyButton label="New customer" onClick={() => setAddingCustomer(true)} />
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
  );
};

export const InvoiceNotesCard = ({ ed }: { ed: InvoiceEditorState }) => {
  const { notes, setNotes, terms, setTerms } = ed;
  return (
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
  );
};

export const InvoiceEditorActions = ({ ed, onCancel }: { ed: InvoiceEditorState; onCancel: () => void }) => {
  const { can } = useCompany();
  const { customer, emailOnSend, setEmailOnSend, save, submit } = ed;
  return (
    <div className="flex flex-wrap items-center justify-end gap-3">
      {can('post') ? (
        <CheckboxField
          className="mr-auto"
          checked={emailOnSend}
          onChange={setEmailOnSend}
          label={
            <>
              Email the PDF to the customer when sending
              {customer && !customer.email ? (
                <span className="text-amber-700 dark:text-amber-400">(no email on file)</span>
              ) : null}
            </>
          }
        />
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
  );
};

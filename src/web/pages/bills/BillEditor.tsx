import { useState } from 'react';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card } from '../../components/ui/Card.tsx';
import { SelectField, TextAreaField, TextField } from '../../components/ui/Field.tsx';
import { useCompany } from '../../lib/company.tsx';
import { currencyOptions } from '../../lib/format.ts';
import { RateInput, errorMessage } from '../invoices/parts.tsx';
import { BillLinesCard } from './BillLinesCard.tsx';
import { SupplierFormDialog } from './SupplierForm.tsx';
import { type BillEditorState, useBillEditor } from './useBillEditor.ts';
import { EditorTitle, NewPartyButton } from '../shared-documents/DocumentEditor.tsx';

// The bill editor, new or a draft (or a bill awaiting approval, which an edit sends back to
// draft): the supplier and their reference, dates (due from the supplier's terms until typed),
// currency and rate, lines booked to expense accounts, live totals and notes.

const HeaderCard = ({ ed }: { ed: BillEditorState }) => {
  const { company, can } = useCompany();
  const { supplier, showErrors, serverProblems } = ed;
  const [addingSupplier, setAddingSupplier] = useState(false);
  const fieldError = (key: string, local: string | null = null) =>
    serverProblems.fields[key] ?? (showErrors ? local : null);
  const currencies = currencyOptions();
  return (
    <Card className="p-5">
      <div className="grid gap-4 md:grid-cols-4">
        <div className="md:col-span-2">
          <SelectField
            label="Supplier"
            value={ed.supplierId}
            onChange={(e) => ed.setSupplierId(e.target.value)}
            error={fieldError('supplierId', ed.supplierId ? null : 'Choose a supplier.')}
            emptyOption={ed.suppliers.isLoading ? 'Loading suppliers...' : 'Choose a supplier'}
            options={ed.supplierList.map((s) => ({
              value: s.id,
              label: s.company ? `${s.name} (${s.company})` : s.name,
            }))}
            hint={
              ed.supplierList.length === 0 && !ed.suppliers.isLoading
                ? 'No suppliers yet: add the one who sent this bill.'
                : undefined
            }
          />
          {can('record') ? (
            <NewPartyButton label="New supplier" onClick={() => setAddingSupplier(true)} />
          ) : null}
          {addingSupplier ? (
            <SupplierFormDialog
              onClose={() => setAddingSupplier(false)}
              onSaved={(s) => ed.setSupplierId(s.id)}
            />
          ) : null}
        </div>
        <TextField
          label="Supplier's reference"
          value={ed.reference}
          onChange={(e) => ed.setReference(e.target.value)}
          hint="Their invoice number"
          error={fieldError('reference')}
        />
        <TextField
          label="Issue date"
          type="date"
          value={ed.issueDate}
          onChange={(e) => ed.setIssueDate(e.target.value)}
          error={fieldError('issueDate', ed.issueDate ? null : 'Enter the date on the bill.')}
          required
        />
        <TextField
          label="Due date"
          type="date"
          value={ed.effectiveDue}
          min={ed.issueDate}
          onChange={(e) => {
            ed.setDueDate(e.target.value);
            ed.setDueTouched(true);
          }}
          error={fieldError('dueDate')}
          hint={supplier && !ed.dueTouched ? `${supplier.paymentTermsDays} days after issue` : undefined}
        />
        <SelectField
          label="Currency"
          value={ed.currency}
          onChange={(e) => ed.setCurrency(e.target.value)}
          options={
            currencies.some((c) => c.value === ed.currency)
              ? currencies
              : [{ value: ed.currency, label: ed.currency }, ...currencies]
          }
          error={fieldError('currency')}
          hint={supplier && supplier.currency === ed.currency ? "The supplier's currency" : undefined}
        />
        <RateInput
          base={company.baseCurrency}
          currency={ed.currency}
          value={ed.exchangeRate}
          onChange={ed.setExchangeRate}
          hint="Leave empty for the day's rate"
          error={fieldError('exchangeRate', ed.rateProblem)}
        />
      </div>
    </Card>
  );
};

export const BillEditor = ({
  billId,
  supplierId,
  onCancel,
  onSaved,
  onOpenBill,
}: {
  billId: string | null;
  supplierId: string | null;
  onCancel: () => void;
  onSaved: (id: string) => void;
  onOpenBill: (id: string) => void;
}) => {
  const { can } = useCompany();
  const ed = useBillEditor({ billId, initialSupplier: supplierId, onSaved });
  const { save, submit, duplicate } = ed;

  if (ed.loading) {
    return (
      <p className="p-8 text-slate-500 dark:text-slate-400" role="status">
        Loading the bill...
      </p>
    );
  }
  if (billId && (ed.loadError || !ed.bill)) {
    return (
      <div className="mx-auto max-w-xl space-y-4 py-10">
        <Alert>{ed.loadError?.message ?? 'Bill not found.'}</Alert>
        <Button variant="secondary" onClick={onCancel}>
          Back
        </Button>
      </div>
    );
  }
  const stored = ed.bill?.storedStatus;
  if (stored && stored !== 'draft' && stored !== 'awaiting_approval') {
    return (
      <div className="mx-auto max-w-xl space-y-4 py-10">
        <Alert tone="warning">
          Bill {ed.bill?.number} is {stored.replace('_', ' ')}: only drafts and bills awaiting approval can be
          edited.
        </Alert>
        <Button variant="secondary" onClick={onCancel}>
          Back to the bill
        </Button>
      </div>
    );
  }
  const pendingSubmit = save.isPending && save.variables?.submitIt;
  const hasServerFieldProblems =
    Object.keys(ed.serverProblems.fields).length > 0 || Object.keys(ed.serverProblems.lines).length > 0;

  return (
    <form className="mx-auto max-w-6xl space-y-6" onSubmit={(e) => submit(false, e)} noValidate>
      <EditorTitle
        title={billId ? `Edit bill ${ed.bill?.number ?? ''}`.trim() : 'New bill'}
        onBack={onCancel}
      />
      {stored === 'awaiting_approval' ? (
        <Alert tone="warning">
          This bill is awaiting approval. Saving a change sends it back to draft: it must be submitted and
          approved again.
        </Alert>
      ) : null}
      {duplicate ? (
        <Alert tone="warning">
          <span>
            This supplier already has a bill with the reference "{ed.reference}":{' '}
            <button
              type="button"
              onClick={() => onOpenBill(duplicate.billId)}
              className="font-semibold underline underline-offset-2"
            >
              bill {duplicate.number || 'draft'}
            </button>
            . Open it to check; if the supplier really sent two bills with one reference, add a suffix to this
            one's reference (for example "-2") and save again.
          </span>
        </Alert>
      ) : save.error ? (
        <Alert>
          {hasServerFieldProblems
            ? 'Some fields need attention; they are marked below.'
            : errorMessage(save.error)}
        </Alert>
      ) : null}
      {ed.showErrors && ed.hasProblems ? (
        <Alert tone="warning">
          Some fields need attention before the bill can be saved; they are marked below.
        </Alert>
      ) : null}

      <HeaderCard ed={ed} />
      <BillLinesCard ed={ed} />
      <Card className="p-5">
        <TextAreaField
          id="bill-notes"
          label="Notes (for your team)"
          rows={3}
          value={ed.notes}
          onChange={(e) => ed.setNotes(e.target.value)}
        />
      </Card>

      <div className="flex flex-wrap items-center justify-end gap-3">
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button variant="secondary" type="submit" busy={save.isPending && !pendingSubmit}>
          Save draft
        </Button>
        {can('record') ? (
          <Button onClick={() => submit(true)} busy={Boolean(pendingSubmit)}>
            Save and submit
          </Button>
        ) : null}
      </div>
    </form>
  );
};

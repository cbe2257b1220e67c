import { ArrowLeft } from 'lucide-react';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { CustomerFormDialog } from './CustomerForm.tsx';
import { InvoiceEditorActions, InvoiceHeaderCard, InvoiceNotesCard } from './InvoiceEditorSections.tsx';
import { InvoiceLinesCard } from './InvoiceLinesCard.tsx';
import { errorMessage } from './parts.tsx';
import { useInvoiceEditor } from './useInvoiceEditor.ts';

// The New Invoice editor (and the draft editor): customer, dates, currency, lines from items
// or free text, and live totals computed by the same shared function the server posts with.

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
  const ed = useInvoiceEditor({ invoiceId, initialCustomer, onSaved });
  const { save, submit, showErrors, hasProblems, addingCustomer, setAddingCustomer, setCustomerId } = ed;

  if (ed.loading) {
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

      <InvoiceHeaderCard ed={ed} />

      <InvoiceLinesCard ed={ed} />

      <InvoiceNotesCard ed={ed} />

      <InvoiceEditorActions ed={ed} onCancel={onCancel} />

      {addingCustomer ? (
        <CustomerFormDialog onClose={() => setAddingCustomer(false)} onSaved={(c) => setCustomerId(c.id)} />
      ) : null}
    </form>
  );
};

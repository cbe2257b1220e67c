import { Alert } from '../../components/ui/Card.tsx';
import { CustomerFormDialog } from './CustomerForm.tsx';
import { InvoiceEditorActions, InvoiceHeaderCard, InvoiceNotesCard } from './InvoiceEditorSections.tsx';
import { InvoiceLinesCard } from './InvoiceLinesCard.tsx';
import { errorMessage } from './parts.tsx';
import { useInvoiceEditor } from './useInvoiceEditor.ts';
import { EditorTitle } from '../shared-documents/DocumentEditor.tsx';

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
        <EditorTitle title={invoiceId ? 'Edit draft invoice' : 'New Invoice'} onBack={onCancel} />
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

import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { FormActions } from '../../components/ui/Form.tsx';
import { api } from '../../lib/api.ts';
import type { DialogProps } from './InvoiceDialogs.tsx';
import { useInvoicingMutation } from './invoicesApi.ts';
import { errorMessage } from './parts.tsx';
import { DeleteDraftConfirm } from '../shared-documents/DocumentDialogs.tsx';

// A draft's dialogs: send it (numbered and posted, emailed when the customer has an address),
// or delete it.

/** Sending gives the draft its number and posts it; with an email address, it can be emailed too. */
export const SendDialog = ({
  invoice,
  open,
  onOpenChange,
  onSent,
}: DialogProps & { onSent: (notice: string) => void }) => {
  const send = useInvoicingMutation((base, email: boolean) =>
    api.post<{ emailedTo: string | null; emailError: string | null }>(`${base}/invoices/${invoice.id}/send`, {
      email,
    }),
  );
  const sendIt = async (email: boolean) => {
    const r = await send.mutateAsync(email).catch(() => null);
    if (!r) return;
    onOpenChange(false);
    onSent(
      !email
        ? 'Invoice sent and posted.'
        : r.emailError
          ? `Invoice sent and posted, but the email failed: ${r.emailError}`
          : `Invoice sent and emailed to ${r.emailedTo}.`,
    );
  };
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Send this invoice?"
      description="It gets the next number and is posted to your books. After that, changes go through a credit note or a void."
    >
      <div className="space-y-4">
        {send.error ? <Alert>{errorMessage(send.error)}</Alert> : null}
        {!invoice.customer.email ? (
          <Alert tone="warning">
            {invoice.customerName} has no email address; the invoice will be posted but not emailed.
          </Alert>
        ) : null}
        <FormActions>
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button
            variant="secondary"
            busy={send.isPending && send.variables === false}
            onClick={() => void sendIt(false)}
          >
            Mark as sent
          </Button>
          {invoice.customer.email ? (
            <Button busy={send.isPending && send.variables === true} onClick={() => void sendIt(true)}>
              Send and email
            </Button>
          ) : null}
        </FormActions>
      </div>
    </Dialog>
  );
};

export const DeleteDraftDialog = ({
  invoice,
  open,
  onOpenChange,
  onDeleted,
}: DialogProps & { onDeleted: () => void }) => {
  const remove = useInvoicingMutation((base) => api.delete(`${base}/invoices/${invoice.id}`));
  return (
    <DeleteDraftConfirm
      open={open}
      onOpenChange={onOpenChange}
      remove={() => remove.mutateAsync(undefined)}
      onDeleted={onDeleted}
    />
  );
};

import { FormDialog } from '../../components/ui/FormDialog.tsx';

// The dialogs an invoice and a bill share: deleting a draft.

/** Asks before deleting a draft; `remove` deletes it, then `onDeleted` runs. */
export const DeleteDraftConfirm = ({
  open,
  onOpenChange,
  remove,
  onDeleted,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  remove: () => Promise<unknown>;
  onDeleted: () => void;
}) => (
  <FormDialog
    open={open}
    onClose={() => onOpenChange(false)}
    title="Delete this draft?"
    description="Drafts have no effect on your books; deleting one cannot be undone."
    onSubmit={async () => {
      await remove();
      onDeleted();
    }}
    cancelLabel="Keep draft"
    submitLabel="Delete draft"
    submitVariant="danger"
  >
    {null}
  </FormDialog>
);

import { type ReactNode, useState } from 'react';
import type { ButtonVariant } from './Button.tsx';
import { FormDialog } from './FormDialog.tsx';

// Asking before an action, instead of the browser's confirm(): the kit's Dialog (focus
// trapped, Escape or Cancel keeps things as they are, labelled by its question), a confirm
// button named by its action ("End schedule", "Delete transaction"), busy while the action
// runs, and the action's failure shown in the dialog, which then stays open.

export type ConfirmDialogProps = {
  /** The question, e.g. "End the schedule of Acme?". */
  title: string;
  /** What happens, e.g. "No more bills are created; the ones made stay." */
  description?: string;
  /** The confirm button's label: the action itself, never "OK". */
  confirmLabel: string;
  cancelLabel?: string;
  /** 'danger' (the default) for something that deletes or ends; 'primary' otherwise. */
  variant?: ButtonVariant;
  open: boolean;
  onCancel: () => void;
  /** Runs on confirm; when it settles the dialog closes (it stays open, showing the problem, if it throws). */
  onConfirm: () => unknown;
  children?: ReactNode;
};

export const ConfirmDialog = ({
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  variant = 'danger',
  open,
  onCancel,
  onConfirm,
  children,
}: ConfirmDialogProps) => (
  <FormDialog
    open={open}
    title={title}
    description={description}
    onClose={onCancel}
    onSubmit={async () => {
      await onConfirm();
      onCancel();
    }}
    submitLabel={confirmLabel}
    submitVariant={variant}
    cancelLabel={cancelLabel}
  >
    {children ?? null}
  </FormDialog>
);

/**
 * A confirmation about one thing at a time (a row of a list): `ask(item)` opens the dialog
 * for it, `item` is what it asks about (null when closed), `cancel()` closes it.
 */
export const useConfirm = <T,>() => {
  const [item, setItem] = useState<T | null>(null);
  return { item, open: item !== null, ask: (next: T) => setItem(next), cancel: () => setItem(null) };
};

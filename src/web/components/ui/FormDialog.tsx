import { type FormEvent, type ReactNode, useState } from 'react';
import { Button, type ButtonVariant } from './Button.tsx';
import { Alert } from './Card.tsx';
import { Dialog } from './Dialog.tsx';
import { errorText } from '../../lib/api.ts';

// A dialog around one form: the kit's Dialog, its error box, and the Cancel and submit
// buttons. `onSubmit` runs on submit and may return the problem to show ("Name the
// account."); what it throws is shown too (an ApiError's message). The submit button is busy
// while it runs and keeps focus. `error` shows a problem found outside the submit (an upload).

/** The message of what a form's action threw (lib/api.ts's errorText). */
export const problemText = errorText;

/** What a dialog that does one thing takes: closing it, and the message of what it did ("Imported 12 accounts."). */
export type DoneDialogProps = { onClose: () => void; onDone: (message: string) => void };

export type FormDialogProps = {
  title: string;
  description?: string;
  wide?: boolean;
  /** Defaults to open: most dialogs are mounted only while shown. */
  open?: boolean;
  onClose: () => void;
  onSubmit: () => unknown;
  /** The submit button's label; null leaves the button out (a read-only view). */
  submitLabel: string | null;
  submitDisabled?: boolean;
  /** 'danger' for a destructive submit (Void invoice, Delete draft). */
  submitVariant?: ButtonVariant;
  /** Let the browser check `required` and `type="email"` fields before onSubmit runs. */
  browserValidation?: boolean;
  cancelLabel?: string;
  /** A further action at the left of the buttons (Delete, Undo). */
  extraAction?: ReactNode;
  error?: string | null;
  children: ReactNode;
};

export const FormDialog = ({
  title,
  description,
  wide,
  open = true,
  onClose,
  onSubmit,
  submitLabel,
  submitDisabled,
  submitVariant = 'primary',
  browserValidation = false,
  cancelLabel = 'Cancel',
  extraAction,
  error,
  children,
}: FormDialogProps) => {
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // The dialog renders in a portal, and React bubbles its submit to a form it was opened
    // from (a new customer from the invoice editor): keep it here.
    e.stopPropagation();
    setProblem(null);
    setBusy(true);
    try {
      const found: unknown = await onSubmit();
      if (typeof found === 'string' && found) setProblem(found);
    } catch (err) {
      setProblem(problemText(err));
    } finally {
      setBusy(false);
    }
  };
  const shown = problem ?? error;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={title}
      description={description}
      wide={wide}
    >
      <form onSubmit={submit} className="space-y-3" noValidate={!browserValidation}>
        {shown ? <Alert>{shown}</Alert> : null}
        {children}
        <div
          className={`flex flex-wrap items-center gap-2 pt-2 ${extraAction ? 'justify-between' : 'justify-end'}`}
        >
          {extraAction}
          <div className="flex gap-2">
            <Button variant="secondary" onClick={onClose}>
              {cancelLabel}
            </Button>
            {submitLabel !== null ? (
              <Button type="submit" variant={submitVariant} busy={busy} disabled={submitDisabled}>
                {submitLabel}
              </Button>
            ) : null}
          </div>
        </div>
      </form>
    </Dialog>
  );
};

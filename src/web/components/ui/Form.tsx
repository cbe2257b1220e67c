import { type FormEvent, type ReactNode, type TextareaHTMLAttributes, forwardRef, useId } from 'react';
import { Button, type ButtonVariant } from './Button.tsx';
import { Alert } from './Card.tsx';
import { Dialog } from './Dialog.tsx';
import { FieldShell } from './Field.tsx';

// A form the way every screen writes one: the error of the last try at the top (announced),
// the fields, then the actions on the right (Cancel, then the submit button, which shows it
// is busy without losing focus). In a dialog: <FormDialog>, the Dialog around the same form.
// The submit event is kept to this form: a dialog renders in a portal, and React would
// otherwise bubble its submit to a form the dialog was opened from.

export type FormProps = {
  onSubmit: (event: FormEvent<HTMLFormElement>) => void | Promise<void>;
  /** The error of the last try (an Alert above the fields), or nothing. */
  error?: ReactNode;
  submitLabel: ReactNode;
  busy?: boolean;
  submitVariant?: ButtonVariant;
  submitDisabled?: boolean;
  /** Shows a Cancel button (ghost) before the submit button. */
  onCancel?: () => void;
  cancelLabel?: string;
  /** Check the fields in the page rather than with the browser's bubbles (the default). */
  noValidate?: boolean;
  className?: string;
  /** The fields; a confirmation has none. */
  children?: ReactNode;
};

export const Form = ({
  onSubmit,
  error,
  submitLabel,
  busy = false,
  submitVariant = 'primary',
  submitDisabled = false,
  onCancel,
  cancelLabel = 'Cancel',
  noValidate = true,
  className = 'space-y-4',
  children,
}: FormProps) => (
  <form
    className={className}
    noValidate={noValidate}
    onSubmit={(event) => {
      event.preventDefault();
      event.stopPropagation();
      void onSubmit(event);
    }}
  >
    {error ? <Alert>{error}</Alert> : null}
    {children}
    <FormActions>
      {onCancel ? (
        <Button variant="ghost" onClick={onCancel}>
          {cancelLabel}
        </Button>
      ) : null}
      <Button type="submit" variant={submitVariant} busy={busy} disabled={submitDisabled}>
        {submitLabel}
      </Button>
    </FormActions>
  </form>
);

/** The row of a form's buttons, on the right. */
export const FormActions = ({ children }: { children: ReactNode }) => (
  <div className="flex flex-wrap justify-end gap-2">{children}</div>
);

export type FormDialogProps = Omit<FormProps, 'onCancel'> & {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  wide?: boolean;
  /** Shows Cancel (closing the dialog) before the submit button; on by default. */
  cancel?: boolean;
};

/** A dialog holding one form; Cancel closes it. */
export const FormDialog = ({
  open,
  onOpenChange,
  title,
  description,
  wide,
  cancel = true,
  ...form
}: FormDialogProps) => (
  <Dialog open={open} onOpenChange={onOpenChange} title={title} description={description} wide={wide}>
    <Form {...form} onCancel={cancel ? () => onOpenChange(false) : undefined} />
  </Dialog>
);

/** A checkbox with its label beside it, 44 px high. */
export const CheckboxField = ({
  label,
  checked,
  onChange,
  disabled,
}: {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) => (
  <label className="flex min-h-11 items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
    <input
      type="checkbox"
      checked={checked}
      disabled={disabled}
      onChange={(e) => onChange(e.target.checked)}
      className="h-5 w-5 shrink-0 rounded border-slate-300 text-brand-600 dark:border-slate-600"
    />
    {label}
  </label>
);

export type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
};

/** A labelled multi-line field (addresses, notes, messages). */
export const TextAreaField = forwardRef<HTMLTextAreaElement, TextAreaFieldProps>(
  ({ label, hint, error, id, className = '', rows = 3, ...rest }, ref) => {
    const autoId = useId();
    const fieldId = id ?? autoId;
    return (
      <FieldShell id={fieldId} label={label} hint={hint} error={error}>
        <textarea
          ref={ref}
          id={fieldId}
          rows={rows}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${fieldId}-error` : hint ? `${fieldId}-hint` : undefined}
          className={`block w-full rounded-lg border bg-white px-3 py-2 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none disabled:bg-slate-100 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-500 dark:disabled:bg-slate-800 ${error ? 'border-red-500 dark:border-red-400' : 'border-slate-300 dark:border-slate-700'} ${className}`}
          {...rest}
        />
      </FieldShell>
    );
  },
);
TextAreaField.displayName = 'TextAreaField';

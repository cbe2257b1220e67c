import type { FormEvent, ReactNode } from 'react';
import { Button, type ButtonVariant } from './Button.tsx';
import { Alert } from './Card.tsx';

// A form on a page (in a dialog: FormDialog.tsx): the error of the last try at the top
// (announced), the fields, then the actions on the right (Cancel, then the submit button,
// which shows it is busy without losing focus). Also the kit's checkbox with its label.

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

/**
 * A checkbox with its label beside it, 44 px high; with a `description`, an option in a box:
 * the label in bold and the description under it. `className` adds to the label's classes.
 */
export const CheckboxField = ({
  label,
  description,
  checked,
  onChange,
  disabled,
  className = '',
}: {
  label: ReactNode;
  description?: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
  className?: string;
}) => (
  <label
    className={`${description ? 'flex items-start gap-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700' : 'flex min-h-11 items-center gap-2 text-sm text-slate-700 dark:text-slate-200'} ${className}`}
  >
    <input
      type="checkbox"
      checked={checked}
      disabled={disabled}
      onChange={(e) => onChange(e.target.checked)}
      className={`${description ? 'mt-0.5 ' : ''}h-5 w-5 shrink-0 rounded border-slate-300 text-brand-600 dark:border-slate-600`}
    />
    {description ? (
      <span>
        <span className="block text-sm font-medium text-slate-900 dark:text-white">{label}</span>
        <span className="block text-sm text-slate-500 dark:text-slate-400">{description}</span>
      </span>
    ) : (
      label
    )}
  </label>
);

/** A labelled file picker; `onFile` gets the chosen file, or null when the choice is cleared. */
export const FileField = ({
  id,
  label,
  accept,
  onFile,
}: {
  id: string;
  label: ReactNode;
  accept: string;
  onFile: (file: File | null) => void;
}) => (
  <div className="space-y-1.5">
    <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
      {label}
    </label>
    <input
      id={id}
      type="file"
      accept={accept}
      onChange={(e) => onFile(e.target.files?.[0] ?? null)}
      className="block min-h-11 w-full text-sm text-slate-700 file:mr-3 file:min-h-11 file:rounded-lg file:border-0 file:bg-brand-50 file:px-4 file:font-semibold file:text-brand-700 dark:text-slate-200 dark:file:bg-brand-900/50 dark:file:text-brand-200"
    />
  </div>
);

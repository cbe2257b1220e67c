import { CheckCircle2, XCircle } from 'lucide-react';
import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  forwardRef,
  useId,
} from 'react';

// A labelled form field: label, control, hint and error wired together for screen readers.
// A field checked as the person types can also show a success message (green, with a tick);
// the error wins over it, and either is what the control's aria-describedby points at.

const CONTROL =
  'block min-h-11 w-full rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-500/30 disabled:bg-slate-100 dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-500 dark:disabled:bg-slate-800';

const borderFor = (error?: string | null) =>
  error ? 'border-red-500 dark:border-red-400' : 'border-slate-300 dark:border-slate-700';

/** The classes of a field's control, for a control the kit has no field for (a grouped select, a file input). */
export const controlClasses = (error?: string | null) => `${CONTROL} ${borderFor(error)}`;

type FieldShellProps = {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  success?: string | null;
  children: ReactNode;
};

/** The error and the success message under a control: their colour and icon. */
const MESSAGES = {
  error: { tone: 'text-red-600 dark:text-red-400', Icon: XCircle },
  success: { tone: 'text-emerald-600 dark:text-emerald-400', Icon: CheckCircle2 },
} as const;

const FieldMessage = ({
  id,
  kind,
  children,
}: {
  id: string;
  kind: keyof typeof MESSAGES;
  children: ReactNode;
}) => {
  const { tone, Icon } = MESSAGES[kind];
  return (
    <p id={`${id}-${kind}`} className={`flex items-start gap-1 text-xs font-medium ${tone}`}>
      <Icon className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden="true" />
      {children}
    </p>
  );
};

export const FieldShell = ({ id, label, hint, error, success, children }: FieldShellProps) => (
  <div className="space-y-1.5">
    <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
      {label}
    </label>
    {children}
    {error ? (
      <FieldMessage id={id} kind="error">
        {error}
      </FieldMessage>
    ) : success ? (
      <FieldMessage id={id} kind="success">
        {success}
      </FieldMessage>
    ) : hint ? (
      <p id={`${id}-hint`} className="text-xs text-slate-500 dark:text-slate-400">
        {hint}
      </p>
    ) : null}
  </div>
);

const describedBy = (id: string, hint?: ReactNode, error?: string | null, success?: string | null) =>
  error ? `${id}-error` : success ? `${id}-success` : hint ? `${id}-hint` : undefined;

/** What every field takes besides its control's own attributes. */
type FieldProps = {
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
};

/** A field's id (the one given, or a generated one) and the aria attributes of its control. */
const useFieldControl = (
  id: string | undefined,
  { hint, error, success }: Omit<FieldProps, 'label'> & { success?: string | null },
) => {
  const autoId = useId();
  const fieldId = id ?? autoId;
  return {
    id: fieldId,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(fieldId, hint, error, success),
  } as const;
};

export type TextFieldProps = InputHTMLAttributes<HTMLInputElement> &
  FieldProps & {
    /** A passed live check ("Valid email format"): green border and message. */
    success?: string | null;
    /** A control inside the field's right edge (show/hide password). */
    trailing?: ReactNode;
  };

export const TextField = forwardRef<HTMLInputElement, TextFieldProps>(
  ({ label, hint, error, success, trailing, id, className = '', ...rest }, ref) => {
    const control = useFieldControl(id, { hint, error, success });
    const border = !error && success ? 'border-emerald-500 dark:border-emerald-500' : borderFor(error);
    const input = (
      <input
        ref={ref}
        {...control}
        className={`${CONTROL} ${border} ${trailing ? 'pr-12' : ''} ${className}`}
        {...rest}
      />
    );
    return (
      <FieldShell id={control.id} label={label} hint={hint} error={error} success={success}>
        {trailing ? (
          <div className="relative">
            {input}
            <div className="absolute inset-y-0 right-0 flex items-center">{trailing}</div>
          </div>
        ) : (
          input
        )}
      </FieldShell>
    );
  },
);
TextField.displayName = 'TextField';

export type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> &
  FieldProps & {
    options: { value: string; label: string }[];
    /** An option with the empty value before `options`: "No tax", "Choose a customer". */
    emptyOption?: string;
  };

export const SelectField = forwardRef<HTMLSelectElement, SelectFieldProps>(
  ({ label, hint, error, id, options, emptyOption, className = '', ...rest }, ref) => {
    const control = useFieldControl(id, { hint, error });
    return (
      <FieldShell id={control.id} label={label} hint={hint} error={error}>
        <select ref={ref} {...control} className={`${CONTROL} ${borderFor(error)} ${className}`} {...rest}>
          {emptyOption === undefined ? null : <option value="">{emptyOption}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </FieldShell>
    );
  },
);
SelectField.displayName = 'SelectField';

export type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & FieldProps;

export const TextAreaField = forwardRef<HTMLTextAreaElement, TextAreaFieldProps>(
  ({ label, hint, error, id, className = '', rows = 2, ...rest }, ref) => {
    const control = useFieldControl(id, { hint, error });
    return (
      <FieldShell id={control.id} label={label} hint={hint} error={error}>
        <textarea
          ref={ref}
          rows={rows}
          {...control}
          className={`${CONTROL} ${borderFor(error)} py-2 ${className}`}
          {...rest}
        />
      </FieldShell>
    );
  },
);
TextAreaField.displayName = 'TextAreaField';

/** An amount typed as text ("1,234.56"): the decimal keypad on phones, "0.00" as its placeholder. */
export const AmountField = forwardRef<HTMLInputElement, TextFieldProps>((props, ref) => (
  <TextField ref={ref} inputMode="decimal" placeholder="0.00" {...props} />
));
AmountField.displayName = 'AmountField';

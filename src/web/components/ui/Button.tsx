import { type ButtonHTMLAttributes, type MouseEvent, forwardRef } from 'react';

// Buttons at least 44 px high and wide (SPEC section 9), with visible focus and a busy state.
// A busy button stays focusable: it is marked aria-busy and aria-disabled and ignores
// clicks (which also stops a busy submit button from submitting its form again), instead of
// turning native `disabled` on, which would drop keyboard focus to the page body.

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger';

const VARIANTS: Record<ButtonVariant, string> = {
  primary:
    'bg-brand-600 text-white shadow-sm hover:bg-brand-700 disabled:bg-brand-600/50 aria-disabled:bg-brand-600/50 dark:bg-brand-500 dark:hover:bg-brand-400 dark:text-slate-950',
  secondary:
    'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800',
  ghost: 'text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-800',
  danger:
    'bg-red-600 text-white shadow-sm hover:bg-red-700 disabled:bg-red-600/50 aria-disabled:bg-red-600/50',
};

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  busy?: boolean;
  size?: 'md' | 'sm' | 'lg';
  /** Stretch to the width of its container (forms on the sign-in pages). */
  block?: boolean;
};

const SIZES = {
  sm: 'min-h-11 min-w-11 px-3 text-sm',
  md: 'min-h-11 min-w-11 px-4 text-sm',
  lg: 'min-h-12 min-w-12 px-4 text-sm',
};

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(
  (
    {
      variant = 'primary',
      busy = false,
      size = 'md',
      block = false,
      className = '',
      disabled,
      children,
      type = 'button',
      onClick,
      ...rest
    },
    ref,
  ) => (
    <button
      ref={ref}
      type={type}
      disabled={disabled && !busy}
      aria-busy={busy || undefined}
      aria-disabled={busy || undefined}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        if (busy) {
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
      className={`inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors disabled:cursor-not-allowed aria-disabled:cursor-wait ${SIZES[size]} ${block ? 'w-full' : ''} ${VARIANTS[variant]} ${className}`}
      {...rest}
    >
      {busy ? (
        <span
          aria-hidden="true"
          className="h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent"
        />
      ) : null}
      {children}
    </button>
  ),
);
Button.displayName = 'Button';

/** The classes of a button, for a link that looks like one (navigation or a download, not an action). */
export const buttonClasses = (variant: ButtonVariant = 'primary', size: keyof typeof SIZES = 'md') =>
  `inline-flex items-center justify-center gap-2 rounded-lg font-semibold transition-colors ${SIZES[size]} ${VARIANTS[variant]}`;

/** A link that looks like the primary button ("Go to sign in"). */
export const BUTTON_LINK = buttonClasses('primary');

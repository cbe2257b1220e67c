import { RefreshCw } from 'lucide-react';
import type { ReactNode } from 'react';
import { UPGRADE_HINT } from '../../lib/api.ts';

// Surfaces of the kit: a card with its header, the empty state of a list, the error state of
// a view that could not load (with Try again), alerts and badges.

export const Card = ({ children, className = '' }: { children: ReactNode; className?: string }) => (
  <section
    className={`min-w-0 rounded-xl border border-slate-200 bg-white shadow-sm dark:border-slate-800 dark:bg-slate-900 ${className}`}
  >
    {children}
  </section>
);

const HEADER_STYLES = {
  page: {
    row: 'flex flex-wrap items-end justify-between gap-4',
    title: 'text-2xl font-bold text-slate-900 dark:text-white',
    description: 'mt-1 text-sm text-slate-500 dark:text-slate-400',
    actions: 'flex flex-wrap items-center gap-2',
  },
  card: {
    row: 'flex flex-wrap items-start justify-between gap-3 border-b border-slate-200 px-5 py-4 dark:border-slate-800',
    title: 'text-base font-semibold text-slate-900 dark:text-white',
    description: 'mt-0.5 text-sm text-slate-500 dark:text-slate-400',
    actions: 'flex items-center gap-2',
  },
} as const;

export type HeaderProps = { title: ReactNode; description?: ReactNode; actions?: ReactNode };

/**
 * A heading with a line under it and its actions on the right, wrapping below on narrow
 * screens: a page's top (its one h1, see PageHeader) or a card's (an h2, CardHeader).
 */
export const HeaderRow = ({ kind, title, description, actions }: HeaderProps & { kind: 'page' | 'card' }) => {
  const style = HEADER_STYLES[kind];
  const Title = kind === 'page' ? 'h1' : 'h2';
  return (
    <div className={style.row}>
      <div>
        <Title className={style.title}>{title}</Title>
        {description ? <p className={style.description}>{description}</p> : null}
      </div>
      {actions ? <div className={style.actions}>{actions}</div> : null}
    </div>
  );
};

export const CardHeader = (props: HeaderProps) => <HeaderRow kind="card" {...props} />;

export const EmptyState = ({
  title,
  description,
  action,
}: {
  title: string;
  description?: ReactNode;
  action?: ReactNode;
}) => (
  <div className="flex flex-col items-center justify-center gap-3 px-6 py-12 text-center">
    <p className="text-base font-semibold text-slate-900 dark:text-white">{title}</p>
    {description ? (
      <p className="max-w-md text-sm text-slate-500 dark:text-slate-400">{description}</p>
    ) : null}
    {action}
  </div>
);

/**
 * The 402's way to upgrade. A full page load on purpose: the error may sit in a dialog (a new
 * company refused), which a route change inside the app would leave open over the billing page.
 */
const UpgradeLink = () => (
  <a href="/billing" className="font-semibold underline underline-offset-2">
    {UPGRADE_HINT}
  </a>
);

/** An error's text whose end is the 402's upgrade hint (lib/api.ts) gets it as a link to /billing. */
const withUpgradeLink = (message: ReactNode): ReactNode =>
  typeof message === 'string' && message.endsWith(UPGRADE_HINT) ? (
    <>
      {message.slice(0, -UPGRADE_HINT.length)}
      <UpgradeLink />
    </>
  ) : (
    message
  );

export const Alert = ({
  tone = 'error',
  children,
}: {
  tone?: 'error' | 'success' | 'info' | 'warning';
  children: ReactNode;
}) => {
  const tones = {
    error: 'border-red-200 bg-red-50 text-red-800 dark:border-red-900 dark:bg-red-950/60 dark:text-red-200',
    success:
      'border-emerald-200 bg-emerald-50 text-emerald-800 dark:border-emerald-900 dark:bg-emerald-950/60 dark:text-emerald-200',
    info: 'border-brand-200 bg-brand-50 text-brand-800 dark:border-brand-900 dark:bg-brand-950/60 dark:text-brand-200',
    warning:
      'border-amber-200 bg-amber-50 text-amber-900 dark:border-amber-900 dark:bg-amber-950/60 dark:text-amber-200',
  };
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={`rounded-lg border px-4 py-3 text-sm ${tones[tone]}`}
    >
      {withUpgradeLink(children)}
    </div>
  );
};

export const Badge = ({
  children,
  tone = 'slate',
}: {
  children: ReactNode;
  tone?: 'slate' | 'blue' | 'green' | 'amber' | 'red' | 'violet';
}) => {
  const tones = {
    slate: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-200',
    blue: 'bg-brand-100 text-brand-800 dark:bg-brand-900/60 dark:text-brand-200',
    green: 'bg-emerald-100 text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200',
    amber: 'bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-200',
    red: 'bg-red-100 text-red-800 dark:bg-red-900/60 dark:text-red-200',
    violet: 'bg-violet-100 text-violet-800 dark:bg-violet-900/60 dark:text-violet-200',
  };
  return (
    <span
      className={`inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-medium ${tones[tone]}`}
    >
      {children}
    </span>
  );
};

/**
 * What a view shows when its data could not load: the reason, announced (role="alert"), and
 * a Try again button when the view can refetch.
 */
export const ErrorState = ({ message, onRetry }: { message: ReactNode; onRetry?: () => void }) => (
  <Alert>
    <div className="flex flex-wrap items-center justify-between gap-3">
      <span>{withUpgradeLink(message)}</span>
      {onRetry ? (
        <button
          type="button"
          onClick={onRetry}
          className="inline-flex min-h-11 items-center gap-2 rounded-lg px-3 font-medium underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-current"
        >
          <RefreshCw className="h-4 w-4" aria-hidden="true" /> Try again
        </button>
      ) : null}
    </div>
  </Alert>
);

/** ErrorState inside a card, set off from the card's edges. */
export const CardError = ({ message, onRetry }: { message: ReactNode; onRetry?: () => void }) => (
  <div className="p-4">
    <ErrorState message={message} onRetry={onRetry} />
  </div>
);

import type { ReactNode } from 'react';
import { SUBSCRIPTION_STATUS_LABELS, type SubscriptionStatus } from '../../../shared/billing.ts';
import { type PlanId, findPlan } from '../../../shared/plans.ts';
import { Badge, Card } from '../../components/ui/Card.tsx';
import type { ListState } from '../../components/ui/ListCard.tsx';
import { errorText } from '../../lib/api.ts';

// Small pieces the admin console's tabs share: figures, a definition list, status badges and
// the text of a failed call.

/** One figure of a summary: a label over a large value, with an optional line under it. */
export const Figure = ({
  label,
  children,
  hint,
}: {
  label: string;
  children: ReactNode;
  hint?: ReactNode;
}) => (
  <Card className="px-5 py-4">
    <p className="text-sm text-slate-500 dark:text-slate-400">{label}</p>
    <div className="mt-1 text-xl font-semibold text-slate-900 tabular-nums dark:text-white">{children}</div>
    {hint ? <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</p> : null}
  </Card>
);

/** Label and value pairs, two columns from small screens up. */
export const Facts = ({
  items,
  columns = 2,
}: {
  items: [label: string, value: ReactNode][];
  /** One column for a narrow card. */
  columns?: 1 | 2;
}) => (
  <dl className={`grid gap-x-6 gap-y-3 px-5 py-4 ${columns === 2 ? 'sm:grid-cols-2' : ''}`}>
    {items.map(([label, value]) => (
      <div key={label} className="min-w-0">
        <dt className="text-xs font-medium text-slate-500 uppercase dark:text-slate-400">{label}</dt>
        <dd className="mt-0.5 text-sm break-words text-slate-900 dark:text-slate-100">{value}</dd>
      </div>
    ))}
  </dl>
);

export const planName = (plan: PlanId | null | undefined) => (plan ? findPlan(plan).name : '—');

/** "Owner" for "owner". */
export const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const STATUS_TONES: Record<SubscriptionStatus, 'green' | 'blue' | 'amber' | 'red' | 'slate'> = {
  trialing: 'blue',
  active: 'green',
  past_due: 'amber',
  canceled: 'slate',
  unpaid: 'red',
  incomplete: 'amber',
};

export const SubscriptionBadge = ({ status }: { status: SubscriptionStatus | null }) =>
  status ? <Badge tone={STATUS_TONES[status]}>{SUBSCRIPTION_STATUS_LABELS[status]}</Badge> : <span>—</span>;

/** Yes / No for a flag, in words (not colour alone). */
export const YesNo = ({ value, yes = 'Yes', no = 'No' }: { value: boolean; yes?: string; no?: string }) =>
  value ? <Badge tone="green">{yes}</Badge> : <Badge>{no}</Badge>;

/** A health check's state: OK or a problem, in words. */
export const Health = ({ ok }: { ok: boolean }) =>
  ok ? <Badge tone="green">OK</Badge> : <Badge tone="red">Problem</Badge>;

/** What a list could not load for: the server's reason (403 admins only, 400 a bad filter). */
export const loadError = (what: string, error: unknown) => `Could not load ${what}: ${errorText(error)}`;

/**
 * The loading / could not load / empty states of an admin list from its query: `what` names
 * the list in the texts ("Loading the audit log...", "Could not load the audit log: …").
 */
export const adminListState = (
  query: { isLoading: boolean; isError: boolean; error: unknown; refetch: () => unknown },
  what: string,
  empty: boolean,
  emptyTexts: { title: string; description?: ReactNode },
): ListState => ({
  loading: query.isLoading,
  loadingLabel: `Loading ${what}...`,
  error: query.isError ? loadError(what, query.error) : null,
  onRetry: () => void query.refetch(),
  empty,
  emptyTitle: emptyTexts.title,
  emptyDescription: emptyTexts.description,
});

/**
 * The filter select of a list's toolbar: a visible label next to the control. Given the
 * list's `pages`, a change goes back to the first page.
 */
export const FilterSelect = <V extends string>({
  label,
  value,
  onChange,
  options,
  pages,
}: {
  label: string;
  value: V;
  onChange: (value: V) => void;
  options: readonly { value: V; label: string }[];
  pages?: { reset: () => void };
}) => (
  <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
    <span className="font-medium">{label}</span>
    <select
      value={value}
      onChange={(e) => {
        pages?.reset();
        onChange(e.target.value as V);
      }}
      className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    >
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </select>
  </label>
);

/** A text button inside a table or card (opens a record), 44 px high. */
export const LinkButton = ({ onClick, children }: { onClick: () => void; children: ReactNode }) => (
  <button
    type="button"
    onClick={onClick}
    className="min-h-11 text-left font-medium text-brand-700 hover:underline dark:text-brand-300"
  >
    {children}
  </button>
);

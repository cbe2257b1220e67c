import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button, type ButtonVariant } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';

// The frame of one document's page (an invoice's, a bill's): the placeholder while it loads,
// the message when it cannot, the heading with its status badge, and the actions that fit.

/** `noun` is the document's name in lower case ("invoice"). */
export const DocumentLoading = ({ noun }: { noun: string }) => (
  <div className="mx-auto max-w-7xl space-y-4" aria-busy="true">
    <div className="h-8 w-64 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
    <div className="h-96 animate-pulse rounded-xl bg-slate-100 dark:bg-slate-800/60" />
    <span className="sr-only" role="status">
      Loading {noun}...
    </span>
  </div>
);

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const DocumentMissing = ({
  noun,
  error,
  onBack,
}: {
  noun: string;
  error: Error | null;
  onBack: () => void;
}) => (
  <div className="mx-auto max-w-xl space-y-4 py-10">
    <Alert>{error?.message ?? `${capitalized(noun)} not found.`}</Alert>
    <Button variant="secondary" onClick={onBack}>
      Back to {noun}s
    </Button>
  </div>
);

/** The page's h1 with the status badge beside it (`statusTestId` on the badge). */
export const DocumentTitle = ({
  title,
  statusTestId,
  badge,
}: {
  title: string;
  statusTestId: string;
  badge: ReactNode;
}) => (
  <div className="flex flex-wrap items-center gap-3">
    <h1 className="text-2xl font-bold text-slate-900 dark:text-white">{title}</h1>
    <span data-testid={statusTestId}>{badge}</span>
  </div>
);

type ActionRow<L extends string> = readonly [
  shown: boolean,
  label: L,
  Icon: LucideIcon,
  variant: ButtonVariant,
  onClick: () => void,
];

/** The actions whose condition holds, in the order written. */
export const shownActions = <L extends string>(rows: readonly ActionRow<L>[]) =>
  rows
    .filter(([shown]) => shown)
    .map(([, label, Icon, variant, onClick]) => ({ label, Icon, variant, onClick }));

import { type InvoiceStatus, STATUS_LABELS, type TaxRate } from '../../../shared/invoices.ts';
import { parseMoney } from '../../../shared/money.ts';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui/Button.tsx';
import { Badge, Card } from '../../components/ui/Card.tsx';
import { AmountField, TextField } from '../../components/ui/Field.tsx';

// Small pieces the invoice screens share.

const STATUS_TONES: Record<InvoiceStatus, 'slate' | 'blue' | 'green' | 'amber' | 'red' | 'violet'> = {
  draft: 'slate',
  sent: 'blue',
  partially_paid: 'violet',
  paid: 'green',
  overdue: 'red',
  void: 'amber',
};

export const StatusBadge = ({ status }: { status: InvoiceStatus }) => (
  <Badge tone={STATUS_TONES[status]}>{STATUS_LABELS[status]}</Badge>
);

export const todayIso = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

export { formatDate } from '../../lib/format.ts';

/** Parses what a person typed as an amount; null when it is not one. */
export const tryParseMoney = (text: string, currency: string): number | null => {
  if (text.trim() === '') return null;
  try {
    return parseMoney(text, currency);
  } catch {
    return null;
  }
};

export const METHOD_LABELS: Record<string, string> = {
  bank_transfer: 'Bank transfer',
  card: 'Card',
  cash: 'Cash',
  check: 'Check',
  other: 'Other',
};

/** Whether a save went through: its error shows from the mutation's own state. */
export const succeeded = (save: Promise<unknown>) =>
  save.then(
    () => true,
    () => false,
  );

/** The options of a tax picker: no tax, then the rates in use ("VAT (20%)"). */
export const taxRateOptions = (taxes: readonly TaxRate[] | undefined) => [
  { value: '', label: 'No tax' },
  ...(taxes ?? [])
    .filter((t) => !t.archived)
    .map((t) => ({ value: t.id, label: `${t.name} (${t.percent}%)` })),
];

export const errorMessage = (error: unknown) =>
  error instanceof Error ? error.message : 'Something went wrong. Please try again.';

/** A name in a table that opens its record (a customer, an invoice). */
export const LinkButton = ({ onClick, children }: { onClick: () => void; children: ReactNode }) => (
  <button
    type="button"
    onClick={onClick}
    className="min-h-11 text-left font-medium text-brand-700 hover:underline dark:text-brand-300"
  >
    {children}
  </button>
);

/** One figure of a record's overview: a label over a large value. */
export const StatCard = ({ label, children }: { label: string; children: ReactNode }) => (
  <Card className="px-5 py-4">
    <p className="text-sm text-slate-500 dark:text-slate-400">{label}</p>
    <div className="mt-1 text-xl font-semibold">{children}</div>
  </Card>
);

/** How a payment was made: "Bank transfer · REF-1". */
export const paymentMethodText = (p: { method: string; reference: string }) =>
  `${METHOD_LABELS[p.method] ?? p.method}${p.reference ? ` · ${p.reference}` : ''}`;

/** The amount a money dialog records, in its currency ("Amount (EUR)"); it takes the focus. */
export const AmountInput = ({
  currency,
  value,
  onChange,
  error,
}: {
  currency: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
}) => (
  <AmountField
    label={`Amount (${currency})`}
    value={value}
    onChange={(e) => onChange(e.target.value)}
    error={error}
    autoFocus
  />
);

/** The bank reference of a payment or refund. */
export const ReferenceInput = ({ value, onChange }: { value: string; onChange: (value: string) => void }) => (
  <TextField
    label="Reference"
    value={value}
    onChange={(e) => onChange(e.target.value)}
    hint="Bank reference or check number"
  />
);

/**
 * The exchange rate of a document in a foreign currency ("Exchange rate (USD per EUR)"), shown
 * only when `currency` is not the company's; `label` names which rate ("Rate on payment date").
 */
export const RateInput = ({
  label = 'Exchange rate',
  base,
  currency,
  value,
  onChange,
  hint,
  error,
}: {
  label?: string;
  base: string;
  currency: string;
  value: string;
  onChange: (value: string) => void;
  hint?: string;
  error?: string | null;
}) =>
  currency === base ? null : (
    <TextField
      label={`${label} (${base} per ${currency})`}
      value={value}
      inputMode="decimal"
      onChange={(e) => onChange(e.target.value)}
      hint={hint}
      error={error}
    />
  );

/**
 * The top of a record's view (an invoice, a customer): Back (named for where it goes), the
 * heading with what stands beside it, a line under it, and the record's actions on the right.
 */
export const RecordHeader = ({
  backLabel,
  onBack,
  heading,
  subtitle,
  actions,
}: {
  backLabel: string;
  onBack: () => void;
  /** The heading element itself (h1 on a page, h2 inside a tab), with a badge beside it if any. */
  heading: ReactNode;
  subtitle: ReactNode;
  actions: ReactNode;
}) => (
  <div className="flex flex-wrap items-start justify-between gap-4">
    <div className="flex items-start gap-2">
      <Button variant="ghost" onClick={onBack} aria-label={backLabel}>
        <ArrowLeft className="h-4 w-4" aria-hidden="true" />
      </Button>
      <div>
        {heading}
        <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{subtitle}</p>
      </div>
    </div>
    <div className="flex flex-wrap gap-2">{actions}</div>
  </div>
);

/** A labelled date field that hands back the ISO date. */
export const DateInput = ({
  label,
  value,
  onChange,
  min,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  min?: string;
}) => (
  <TextField label={label} type="date" value={value} min={min} onChange={(e) => onChange(e.target.value)} />
);

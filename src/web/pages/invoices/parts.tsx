import { type InvoiceStatus, STATUS_LABELS, type TaxRate } from '../../../shared/invoices.ts';
import { parseMoney } from '../../../shared/money.ts';
import type { ReactNode } from 'react';
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

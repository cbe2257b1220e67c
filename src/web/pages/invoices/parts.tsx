import { type InvoiceStatus, STATUS_LABELS } from '../../../shared/invoices.ts';
import { parseMoney } from '../../../shared/money.ts';
import { Badge } from '../../components/ui/Card.tsx';

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

export const errorMessage = (error: unknown) =>
  error instanceof Error ? error.message : 'Something went wrong. Please try again.';

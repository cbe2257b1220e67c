import { BILL_STATUS_LABELS, type BillStatus, type PAYMENT_METHODS } from '../../../shared/payables.ts';
import { Badge } from '../../components/ui/Card.tsx';
import { ApiError } from '../../lib/api.ts';

// Small pieces the bill screens share.

const STATUS_TONES: Record<BillStatus, 'slate' | 'blue' | 'green' | 'amber' | 'red' | 'violet'> = {
  draft: 'slate',
  awaiting_approval: 'amber',
  open: 'blue',
  partially_paid: 'violet',
  paid: 'green',
  overdue: 'red',
  void: 'slate',
};

export const BillStatusBadge = ({ status }: { status: BillStatus }) => (
  <Badge tone={STATUS_TONES[status]}>{BILL_STATUS_LABELS[status]}</Badge>
);

export const BILL_METHOD_LABELS: Record<(typeof PAYMENT_METHODS)[number], string> = {
  bank_transfer: 'Bank transfer',
  card: 'Card',
  cash: 'Cash',
  check: 'Check',
  direct_debit: 'Direct debit',
  other: 'Other',
};

/** The bill a 409 duplicate_bill refusal points at, if that is what `error` is. */
export const duplicateOf = (error: unknown): { billId: string; number: string } | null => {
  if (!(error instanceof ApiError) || error.code !== 'duplicate_bill') return null;
  const d = error.details as { billId?: unknown; number?: unknown } | undefined;
  return d && typeof d.billId === 'string' ? { billId: d.billId, number: String(d.number ?? '') } : null;
};

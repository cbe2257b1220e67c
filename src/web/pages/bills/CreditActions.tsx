import { Ban, Undo2, WalletCards } from 'lucide-react';
import type { SupplierCredit } from '../../../shared/payables.ts';
import { Button } from '../../components/ui/Button.tsx';
import { ApplyCreditDialog, RefundDialog, VoidCreditDialog } from './CreditDialogs.tsx';

// A supplier credit's actions (Apply, Refund, Void) as buttons, and the dialog each opens.
// Apply and Refund need credit left; Void needs nothing applied or refunded yet.

export type CreditDialogKind = 'apply' | 'refund' | 'void';

type CreditForActions = Pick<
  SupplierCredit,
  | 'id'
  | 'number'
  | 'supplierId'
  | 'supplierName'
  | 'currency'
  | 'status'
  | 'amountLeft'
  | 'amountApplied'
  | 'amountRefunded'
>;

export const CreditActionButtons = ({
  credit,
  onAction,
  size,
}: {
  credit: CreditForActions;
  onAction: (kind: CreditDialogKind) => void;
  size?: 'sm';
}) => {
  if (credit.status === 'void') return null;
  const untouched = credit.amountApplied === 0 && credit.amountRefunded === 0;
  return (
    <div className="flex flex-wrap gap-1">
      {credit.amountLeft > 0 ? (
        <>
          <Button
            size={size}
            variant="secondary"
            onClick={() => onAction('apply')}
            aria-label={size ? `Apply ${credit.number} to a bill` : undefined}
          >
            <WalletCards className="h-4 w-4" aria-hidden="true" /> Apply
          </Button>
          <Button
            size={size}
            variant="ghost"
            onClick={() => onAction('refund')}
            aria-label={size ? `Record a refund of ${credit.number}` : undefined}
          >
            <Undo2 className="h-4 w-4" aria-hidden="true" /> Refund
          </Button>
        </>
      ) : null}
      {untouched ? (
        <Button
          size={size}
          variant="ghost"
          onClick={() => onAction('void')}
          aria-label={size ? `Void ${credit.number}` : undefined}
        >
          <Ban className="h-4 w-4" aria-hidden="true" /> Void
        </Button>
      ) : null}
    </div>
  );
};

export const CreditActionDialog = ({
  kind,
  credit,
  onClose,
  onDone,
}: {
  kind: CreditDialogKind;
  credit: CreditForActions;
  onClose: () => void;
  onDone: (message: string) => void;
}) => {
  const props = { credit, onClose, onDone };
  if (kind === 'apply') return <ApplyCreditDialog {...props} />;
  if (kind === 'refund') return <RefundDialog {...props} />;
  return <VoidCreditDialog {...props} />;
};

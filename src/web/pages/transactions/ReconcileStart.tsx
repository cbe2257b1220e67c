import { useState } from 'react';
import { Button } from '../../components/ui/Button.tsx';
import { AmountField, TextField } from '../../components/ui/Field.tsx';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { formatDate } from '../../lib/format.ts';
import { useFormFields } from '../../lib/useFormFields.ts';
import { apiCalls, readAmount, todayIso, useMoneyMutation, useWallet } from './api.ts';
import { formMoneyAccountId } from './defaultAccount.ts';
import { MoneyAccountField } from './fields.tsx';

// Starting a reconciliation: the account, the statement's end date and closing balance; or
// undoing the account's last one.

export const ReconcileStart = ({
  onClose,
  onStarted,
  onNotice,
}: {
  onClose: () => void;
  onStarted: (id: string) => void;
  onNotice: (text: string) => void;
}) => {
  const wallet = useWallet();
  const live = (wallet.data?.accounts ?? []).filter((a) => !a.archived);
  const [picked, setAccountId] = useState('');
  // The company's deposit account unless another is picked (formMoneyAccountId).
  const accountId = formMoneyAccountId(wallet.data, picked);
  const { values: v, bind } = useFormFields({ date: todayIso(), balance: '' });
  const [undoError, setUndoError] = useState<string | null>(null);
  const start = useMoneyMutation(apiCalls.startReconciliation);
  const undo = useMoneyMutation(apiCalls.undoLast);
  const account = live.find((a) => a.id === accountId);
  const balance = readAmount(v.balance, account?.currency ?? 'USD', true);

  const submit = async () => {
    setUndoError(null);
    if (balance.value === null) return balance.error ?? 'Enter the balance the statement shows.';
    try {
      const rec = await start.mutateAsync({
        moneyAccountId: accountId,
        statementDate: v.date,
        statementBalance: balance.value,
      });
      onStarted(rec.id);
    } catch (err) {
      // One is already open for the account: carry on with it.
      const details = (err as { details?: { reconciliationId?: string } }).details;
      if (!details?.reconciliationId) throw err;
      onStarted(details.reconciliationId);
    }
  };

  // Asked in a dialog of its own; a failure shows there, and the reconcile form stays as it was.
  const [confirmingUndo, setConfirmingUndo] = useState(false);
  const undoLast = async () => {
    if (!account) return;
    setUndoError(null);
    const r = await undo.mutateAsync(account.id);
    onNotice(
      `The reconciliation through ${formatDate(r.statementDate)} was undone; its transactions are unlocked.`,
    );
    onClose();
  };

  return (
    <FormDialog
      title="Reconcile an account"
      description="Match the account against a bank statement: enter the statement's end date and closing balance."
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Start reconciling"
      error={undoError}
      extraAction={
        <Button
          variant="ghost"
          disabled={!account?.lastReconciledDate}
          busy={undo.isPending}
          onClick={() => setConfirmingUndo(true)}
        >
          Undo last reconciliation
        </Button>
      }
    >
      <ConfirmDialog
        open={confirmingUndo && !!account}
        title={`Undo the last reconciliation of ${account?.name ?? ''}?`}
        description={
          account?.lastReconciledDate
            ? `The reconciliation through ${formatDate(account.lastReconciledDate)} is removed and its transactions unlock.`
            : 'Its transactions unlock.'
        }
        confirmLabel="Undo reconciliation"
        cancelLabel="Keep it"
        onCancel={() => setConfirmingUndo(false)}
        onConfirm={undoLast}
      />
      <MoneyAccountField
        id="rec-account"
        label="Account"
        value={accountId}
        onChange={setAccountId}
        accounts={live}
        hint={
          account?.lastReconciledDate
            ? `Last reconciled through ${formatDate(account.lastReconciledDate)}.`
            : undefined
        }
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField id="rec-date" label="Statement end date" type="date" {...bind('date')} />
        <AmountField
          id="rec-balance"
          label={`Statement closing balance (${account?.currency ?? ''})`}
          {...bind('balance')}
          error={balance.error}
        />
      </div>
    </FormDialog>
  );
};

import { useState } from 'react';
import type { MoneyAccount } from '../../../shared/wallet.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { AmountField, TextField } from '../../components/ui/Field.tsx';
import { FormDialog, problemText } from '../../components/ui/FormDialog.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { formatAmountInput, formatDate } from '../../lib/format.ts';
import { useFormFields } from '../../lib/useFormFields.ts';
import { apiCalls, readAmount, useMoneyMutation } from '../transactions/api.ts';

// A money account's settings: its name, and its opening balance and date, which stay editable
// until a completed reconciliation covers the opening (the server reverses the old opening
// entry and posts the new one, and audits the change). Deleting is offered too; the server
// refuses it once the account has activity (then it is archived instead).

export const AccountSettingsDialog = ({
  account,
  onClose,
}: {
  account: MoneyAccount;
  onClose: () => void;
}) => {
  const { company } = useCompany();
  const { values: v, bind } = useFormFields({
    name: account.name,
    opening: formatAmountInput(account.openingBalance, account.currency),
    openingDate: account.openingDate,
    openingRate: '',
  });
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const update = useMoneyMutation(apiCalls.updateAccount);
  const remove = useMoneyMutation((orgId: string, id: string) =>
    api.delete<null>(`/orgs/${orgId}/wallet/accounts/${id}`),
  );
  const opening = readAmount(v.opening, account.currency, true);
  const foreign = account.currency !== company.baseCurrency;

  const submit = async () => {
    setDeleteError(null);
    if (!v.name.trim()) return 'Name the account.';
    if (opening.error) return opening.error;
    const body: Record<string, unknown> = {};
    if (v.name.trim() !== account.name) body.name = v.name.trim();
    const balance = opening.value ?? 0;
    if (account.openingEditable) {
      if (balance !== account.openingBalance) body.openingBalance = balance;
      if (v.openingDate !== account.openingDate) body.openingDate = v.openingDate;
      if (foreign && v.openingRate.trim() && ('openingBalance' in body || 'openingDate' in body))
        body.openingRate = v.openingRate.trim();
    }
    if (Object.keys(body).length > 0) await update.mutateAsync({ id: account.id, body });
    onClose();
  };

  const destroy = async () => {
    setDeleteError(null);
    try {
      await remove.mutateAsync(account.id);
      onClose();
    } catch (err) {
      setDeleteError(problemText(err));
    }
  };

  return (
    <FormDialog
      title={`Settings of ${account.name}`}
      description={`Ledger account ${account.ledgerAccountCode}. A change to the opening balance posts through the ledger.`}
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Save"
      error={deleteError}
      extraAction={
        <Button variant="ghost" onClick={destroy} busy={remove.isPending}>
          Delete account
        </Button>
      }
    >
      <TextField id="set-name" label="Account name" {...bind('name')} maxLength={120} />
      {account.openingEditable ? null : (
        <Alert tone="warning">
          {account.archived
            ? 'The account is archived; unarchive it to change its opening balance.'
            : `Reconciled to ${account.lastReconciledDate ? formatDate(account.lastReconciledDate) : ''}, which covers the opening. Undo that reconciliation to change the opening balance or date.`}
        </Alert>
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <AmountField
          id="set-opening"
          label={`Opening balance (${account.currency})`}
          {...bind('opening')}
          disabled={!account.openingEditable}
        />
        <TextField
          id="set-opening-date"
          label="Opening date"
          type="date"
          {...bind('openingDate')}
          disabled={!account.openingEditable}
        />
        {foreign && account.openingEditable ? (
          <AmountField
            id="set-opening-rate"
            label="Rate on the opening date (optional)"
            {...bind('openingRate')}
            placeholder={`${company.baseCurrency} per ${account.currency}`}
          />
        ) : null}
      </div>
    </FormDialog>
  );
};

import { useState } from 'react';
import type { MoneyAccount } from '../../../shared/wallet.ts';
import { formatMinorPlain } from '../../../shared/money.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { apiCalls, errorMessage, formatDay, readAmount, useMoneyMutation } from '../transactions/api.ts';
import { Label, inputClass } from '../transactions/Controls.tsx';

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
  const [name, setName] = useState(account.name);
  const [openingText, setOpeningText] = useState(formatMinorPlain(account.openingBalance, account.currency));
  const [openingDate, setOpeningDate] = useState(account.openingDate);
  const [openingRate, setOpeningRate] = useState('');
  const [error, setError] = useState<string | null>(null);
  const update = useMoneyMutation(apiCalls.updateAccount);
  const remove = useMoneyMutation((orgId: string, id: string) =>
    api.delete<null>(`/orgs/${orgId}/wallet/accounts/${id}`),
  );
  const opening = readAmount(openingText, account.currency, true);
  const foreign = account.currency !== company.baseCurrency;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!name.trim()) return setError('Name the account.');
    if (opening.error) return setError(opening.error);
    const body: Record<string, unknown> = {};
    if (name.trim() !== account.name) body.name = name.trim();
    const balance = opening.value ?? 0;
    if (account.openingEditable) {
      if (balance !== account.openingBalance) body.openingBalance = balance;
      if (openingDate !== account.openingDate) body.openingDate = openingDate;
      if (foreign && openingRate.trim() && ('openingBalance' in body || 'openingDate' in body))
        body.openingRate = openingRate.trim();
    }
    if (Object.keys(body).length === 0) return onClose();
    try {
      await update.mutateAsync({ id: account.id, body });
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  const destroy = async () => {
    setError(null);
    try {
      await remove.mutateAsync(account.id);
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Settings of ${account.name}`}
      description={`Ledger account ${account.ledgerAccountCode}. A change to the opening balance posts through the ledger.`}
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        {error ? <Alert>{error}</Alert> : null}
        <div>
          <Label htmlFor="set-name">Account name</Label>
          <input
            id="set-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            className={inputClass}
            maxLength={120}
          />
        </div>
        {account.openingEditable ? null : (
          <Alert tone="warning">
            {account.archived
              ? 'The account is archived; unarchive it to change its opening balance.'
              : `Reconciled to ${account.lastReconciledDate ? formatDay(account.lastReconciledDate) : ''}, which covers the opening. Undo that reconciliation to change the opening balance or date.`}
          </Alert>
        )}
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <Label htmlFor="set-opening">Opening balance ({account.currency})</Label>
            <input
              id="set-opening"
              inputMode="decimal"
              value={openingText}
              onChange={(e) => setOpeningText(e.target.value)}
              className={inputClass}
              disabled={!account.openingEditable}
            />
          </div>
          <div>
            <Label htmlFor="set-opening-date">Opening date</Label>
            <input
              id="set-opening-date"
              type="date"
              value={openingDate}
              onChange={(e) => setOpeningDate(e.target.value)}
              className={inputClass}
              disabled={!account.openingEditable}
            />
          </div>
          {foreign && account.openingEditable ? (
            <div>
              <Label htmlFor="set-opening-rate">Rate on the opening date (optional)</Label>
              <input
                id="set-opening-rate"
                inputMode="decimal"
                value={openingRate}
                onChange={(e) => setOpeningRate(e.target.value)}
                className={inputClass}
                placeholder={`${company.baseCurrency} per ${account.currency}`}
              />
            </div>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2 pt-2">
          <Button variant="ghost" onClick={destroy} busy={remove.isPending}>
            Delete account
          </Button>
          <div className="flex gap-2">
            <Button variant="ghost" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" busy={update.isPending}>
              Save
            </Button>
          </div>
        </div>
      </form>
    </Dialog>
  );
};

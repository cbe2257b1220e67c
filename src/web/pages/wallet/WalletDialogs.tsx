import { useState } from 'react';
import {
  MONEY_ACCOUNT_KINDS,
  MONEY_ACCOUNT_KIND_LABELS,
  type MoneyAccountKind,
} from '../../../shared/wallet.ts';
import { MoneyAccountSelect } from '../../components/money/MoneyAccountSelect.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { useCompany } from '../../lib/company.tsx';
import { COMMON_CURRENCIES } from '../../lib/format.ts';
import {
  apiCalls,
  errorMessage,
  readAmount,
  todayIso,
  useMoneyMutation,
  useWallet,
} from '../transactions/api.ts';
import { Label, inputClass } from '../transactions/Controls.tsx';

// Adding a money account with its opening balance, moving money between accounts, and
// entering an exchange rate.

export const AddAccountDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const { company } = useCompany();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<MoneyAccountKind>('bank');
  const [currency, setCurrency] = useState(company.baseCurrency);
  const [institution, setInstitution] = useState('');
  const [accountNumber, setAccountNumber] = useState('');
  const [openingText, setOpeningText] = useState('');
  const [openingDate, setOpeningDate] = useState(todayIso());
  const [openingRate, setOpeningRate] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useMoneyMutation(apiCalls.createAccount);
  const opening = readAmount(openingText, currency, true);
  const foreign = currency !== company.baseCurrency;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!name.trim()) return setError('Name the account.');
    if (opening.error) return setError(opening.error);
    try {
      await create.mutateAsync({
        name: name.trim(),
        kind,
        currency,
        institution: institution.trim(),
        ...(accountNumber.trim() ? { accountNumber: accountNumber.trim() } : {}),
        openingBalance: opening.value ?? 0,
        openingDate,
        ...(foreign && openingRate.trim() ? { openingRate: openingRate.trim() } : {}),
      });
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Add account"
      description="A bank account, cash box, credit card or payment-processor balance. The opening balance is posted as an opening entry."
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        {error ? <Alert>{error}</Alert> : null}
        <div>
          <Label htmlFor="acc-name">Account name</Label>
          <input
            id="acc-name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            className={inputClass}
            maxLength={120}
            placeholder="e.g. Business checking"
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <Label htmlFor="acc-kind">Type</Label>
            <select
              id="acc-kind"
              value={kind}
              onChange={(e) => setKind(e.target.value as MoneyAccountKind)}
              className={inputClass}
            >
              {MONEY_ACCOUNT_KINDS.map((k) => (
                <option key={k} value={k}>
                  {MONEY_ACCOUNT_KIND_LABELS[k]}
                </option>
              ))}
            </select>
          </div>
          <div>
            <Label htmlFor="acc-currency">Currency</Label>
            <select
              id="acc-currency"
              value={currency}
              onChange={(e) => setCurrency(e.target.value)}
              className={inputClass}
            >
              {[...new Set([company.baseCurrency, ...COMMON_CURRENCIES])].map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
          <div>
            <Label htmlFor="acc-institution">Bank or provider</Label>
            <input
              id="acc-institution"
              value={institution}
              onChange={(e) => setInstitution(e.target.value)}
              className={inputClass}
              maxLength={120}
            />
          </div>
          <div>
            <Label htmlFor="acc-number">Account number</Label>
            <input
              id="acc-number"
              value={accountNumber}
              onChange={(e) => setAccountNumber(e.target.value)}
              className={inputClass}
              maxLength={64}
              autoComplete="off"
            />
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              Only the last four characters are kept.
            </p>
          </div>
          <div>
            <Label htmlFor="acc-opening">Opening balance ({currency})</Label>
            <input
              id="acc-opening"
              inputMode="decimal"
              value={openingText}
              onChange={(e) => setOpeningText(e.target.value)}
              className={inputClass}
              placeholder="0.00"
            />
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              {kind === 'credit_card' || kind === 'loan'
                ? 'What you owe, as a negative number.'
                : 'What the account held on the opening date.'}
            </p>
            {opening.error ? (
              <p className="mt-1 text-xs text-red-600 dark:text-red-400">{opening.error}</p>
            ) : null}
          </div>
          <div>
            <Label htmlFor="acc-opening-date">Opening date</Label>
            <input
              id="acc-opening-date"
              type="date"
              value={openingDate}
              onChange={(e) => setOpeningDate(e.target.value)}
              className={inputClass}
            />
          </div>
          {foreign ? (
            <div className="sm:col-span-2">
              <Label htmlFor="acc-rate">
                Rate: {company.baseCurrency} per 1 {currency}
              </Label>
              <input
                id="acc-rate"
                inputMode="decimal"
                value={openingRate}
                onChange={(e) => setOpeningRate(e.target.value)}
                className={inputClass}
                placeholder="e.g. 1.0825 (uses the stored rate if left empty)"
              />
            </div>
          ) : null}
        </div>
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" busy={create.isPending}>
            Add account
          </Button>
        </div>
      </form>
    </Dialog>
  );
};

export const TransferDialog = ({
  open,
  onClose,
  fromId,
}: {
  open: boolean;
  onClose: () => void;
  fromId?: string;
}) => {
  const wallet = useWallet();
  const live = (wallet.data?.accounts ?? []).filter((a) => !a.archived);
  // From starts on the given account or the deposit account (MoneyAccountSelect's default).
  const [from, setFrom] = useState(fromId ?? '');
  const [to, setTo] = useState('');
  const [date, setDate] = useState(todayIso());
  const [amountText, setAmountText] = useState('');
  const [toAmountText, setToAmountText] = useState('');
  const [memo, setMemo] = useState('');
  const [error, setError] = useState<string | null>(null);
  const transfer = useMoneyMutation(apiCalls.transfer);
  const fromAccount = live.find((a) => a.id === from);
  const toAccount = live.find((a) => a.id === to);
  const amount = readAmount(amountText, fromAccount?.currency ?? 'USD', false);
  const toAmount = readAmount(toAmountText, toAccount?.currency ?? 'USD', false);
  const cross = fromAccount && toAccount && fromAccount.currency !== toAccount.currency;

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!fromAccount || !toAccount) return setError('Choose both accounts.');
    if (from === to) return setError('Choose two different accounts.');
    if (!amount.value) return setError(amount.error ?? 'Enter the amount to move.');
    if (cross && !toAmount.value)
      return setError(toAmount.error ?? `Enter how much arrives in ${toAccount.currency}.`);
    try {
      await transfer.mutateAsync({
        fromAccountId: from,
        toAccountId: to,
        date,
        amount: amount.value,
        ...(cross ? { toAmount: toAmount.value } : {}),
        memo: memo.trim(),
      });
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  const rate = cross && amount.value && toAmount.value ? (toAmount.value / amount.value).toFixed(6) : null;

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Transfer money"
      description="Posted as one entry between the two accounts."
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        {error ? <Alert>{error}</Alert> : null}
        <div className="grid gap-3 sm:grid-cols-2">
          <MoneyAccountSelect
            id="tr-from"
            label="From"
            value={from}
            onChange={(id) => setFrom(id)}
            exclude={to ? [to] : []}
          />
          <MoneyAccountSelect
            id="tr-to"
            label="To"
            value={to}
            onChange={(id) => setTo(id)}
            exclude={from ? [from] : []}
            noDefault
          />
          <div>
            <Label htmlFor="tr-amount">Amount ({fromAccount?.currency})</Label>
            <input
              id="tr-amount"
              inputMode="decimal"
              value={amountText}
              onChange={(e) => setAmountText(e.target.value)}
              className={inputClass}
              placeholder="0.00"
            />
          </div>
          {cross ? (
            <div>
              <Label htmlFor="tr-to-amount">Arrives ({toAccount?.currency})</Label>
              <input
                id="tr-to-amount"
                inputMode="decimal"
                value={toAmountText}
                onChange={(e) => setToAmountText(e.target.value)}
                className={inputClass}
                placeholder="0.00"
              />
              {rate ? (
                <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                  Rate about {rate} {toAccount?.currency} per {fromAccount?.currency}
                </p>
              ) : null}
            </div>
          ) : null}
          <div>
            <Label htmlFor="tr-date">Date</Label>
            <input
              id="tr-date"
              type="date"
              value={date}
              onChange={(e) => setDate(e.target.value)}
              className={inputClass}
            />
          </div>
          <div className={cross ? 'sm:col-span-2' : ''}>
            <Label htmlFor="tr-memo">Memo</Label>
            <input
              id="tr-memo"
              value={memo}
              onChange={(e) => setMemo(e.target.value)}
              className={inputClass}
              maxLength={500}
            />
          </div>
        </div>
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" busy={transfer.isPending}>
            Transfer
          </Button>
        </div>
      </form>
    </Dialog>
  );
};

export const RateDialog = ({
  open,
  onClose,
  currency,
}: {
  open: boolean;
  onClose: () => void;
  currency?: string;
}) => {
  const { company } = useCompany();
  const [code, setCode] = useState(currency ?? 'EUR');
  const [date, setDate] = useState(todayIso());
  const [rate, setRate] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useMoneyMutation(apiCalls.setRate);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    try {
      await save.mutateAsync({ currency: code.trim().toUpperCase(), date, rate: rate.trim() });
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Exchange rate"
      description={`How many ${company.baseCurrency} one unit of the currency is worth on a date.`}
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        {error ? <Alert>{error}</Alert> : null}
        <div className="grid gap-3 sm:grid-cols-3">
          <div>
            <Label htmlFor="rate-currency">Currency</Label>
            <input
              id="rate-currency"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              maxLength={3}
              className={`${inputClass} uppercase`}
            />
          </div>
          <div>
            <Label htmlFor="rate-date">Date</Label>
            <input
              id="rate-date"
              type="date"
              value={date}
              onChange={(e) => setDate(e.target.value)}
              className={inputClass}
            />
          </div>
          <div>
            <Label htmlFor="rate-value">{company.baseCurrency} per 1</Label>
            <input
              id="rate-value"
              inputMode="decimal"
              value={rate}
              onChange={(e) => setRate(e.target.value)}
              className={inputClass}
              placeholder="1.0825"
            />
          </div>
        </div>
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" busy={save.isPending}>
            Save rate
          </Button>
        </div>
      </form>
    </Dialog>
  );
};

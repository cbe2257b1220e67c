import {
  MONEY_ACCOUNT_KINDS,
  MONEY_ACCOUNT_KIND_LABELS,
  type MoneyAccountKind,
} from '../../../shared/wallet.ts';
import { MoneyAccountSelect } from '../../components/money/MoneyAccountSelect.tsx';
import { AmountField, SelectField, TextField } from '../../components/ui/Field.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { useCompany } from '../../lib/company.tsx';
import { COMMON_CURRENCIES } from '../../lib/format.ts';
import { useFormFields } from '../../lib/useFormFields.ts';
import { apiCalls, readAmount, todayIso, useMoneyMutation, useWallet } from '../transactions/api.ts';

// Adding a money account with its opening balance, moving money between accounts, and
// entering an exchange rate.

const KIND_OPTIONS = MONEY_ACCOUNT_KINDS.map((k) => ({ value: k, label: MONEY_ACCOUNT_KIND_LABELS[k] }));

export const AddAccountDialog = ({ onClose }: { onClose: () => void }) => {
  const { company } = useCompany();
  const { values: v, bind } = useFormFields({
    name: '',
    kind: 'bank',
    currency: company.baseCurrency,
    institution: '',
    accountNumber: '',
    opening: '',
    openingDate: todayIso(),
    openingRate: '',
  });
  const create = useMoneyMutation(apiCalls.createAccount);
  const opening = readAmount(v.opening, v.currency, true);
  const foreign = v.currency !== company.baseCurrency;
  const owed = v.kind === 'credit_card' || v.kind === 'loan';

  const submit = async () => {
    if (!v.name.trim()) return 'Name the account.';
    if (opening.error) return opening.error;
    await create.mutateAsync({
      name: v.name.trim(),
      kind: v.kind as MoneyAccountKind,
      currency: v.currency,
      institution: v.institution.trim(),
      ...(v.accountNumber.trim() ? { accountNumber: v.accountNumber.trim() } : {}),
      openingBalance: opening.value ?? 0,
      openingDate: v.openingDate,
      ...(foreign && v.openingRate.trim() ? { openingRate: v.openingRate.trim() } : {}),
    });
    onClose();
  };

  return (
    <FormDialog
      title="Add account"
      description="A bank account, cash box, credit card or payment-processor balance. The opening balance is posted as an opening entry."
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Add account"
    >
      <TextField
        id="acc-name"
        label="Account name"
        {...bind('name')}
        maxLength={120}
        placeholder="e.g. Business checking"
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField id="acc-kind" label="Type" {...bind('kind')} options={KIND_OPTIONS} />
        <SelectField
          id="acc-currency"
          label="Currency"
          {...bind('currency')}
          options={[...new Set([company.baseCurrency, ...COMMON_CURRENCIES])].map((c) => ({
            value: c,
            label: c,
          }))}
        />
        <TextField id="acc-institution" label="Bank or provider" {...bind('institution')} maxLength={120} />
        <TextField
          id="acc-number"
          label="Account number"
          {...bind('accountNumber')}
          maxLength={64}
          autoComplete="off"
          hint="Only the last four characters are kept."
        />
        <AmountField
          id="acc-opening"
          label={`Opening balance (${v.currency})`}
          {...bind('opening')}
          error={opening.error}
          hint={owed ? 'What you owe, as a negative number.' : 'What the account held on the opening date.'}
        />
        <TextField id="acc-opening-date" label="Opening date" type="date" {...bind('openingDate')} />
        {foreign ? (
          <div className="sm:col-span-2">
            <TextField
              id="acc-rate"
              label={`Rate: ${company.baseCurrency} per 1 ${v.currency}`}
              inputMode="decimal"
              {...bind('openingRate')}
              placeholder="e.g. 1.0825 (uses the stored rate if left empty)"
            />
          </div>
        ) : null}
      </div>
    </FormDialog>
  );
};

export const TransferDialog = ({ onClose, fromId }: { onClose: () => void; fromId?: string }) => {
  const wallet = useWallet();
  const live = (wallet.data?.accounts ?? []).filter((a) => !a.archived);
  // From starts on the given account or the deposit account (MoneyAccountSelect's default).
  const {
    values: v,
    bind,
    pick,
  } = useFormFields({
    from: fromId ?? '',
    to: '',
    date: todayIso(),
    amount: '',
    toAmount: '',
    memo: '',
  });
  const transfer = useMoneyMutation(apiCalls.transfer);
  const fromAccount = live.find((a) => a.id === v.from);
  const toAccount = live.find((a) => a.id === v.to);
  const amount = readAmount(v.amount, fromAccount?.currency ?? 'USD', false);
  const toAmount = readAmount(v.toAmount, toAccount?.currency ?? 'USD', false);
  const cross = fromAccount && toAccount && fromAccount.currency !== toAccount.currency;

  const submit = async () => {
    if (!fromAccount || !toAccount) return 'Choose both accounts.';
    if (v.from === v.to) return 'Choose two different accounts.';
    if (!amount.value) return amount.error ?? 'Enter the amount to move.';
    if (cross && !toAmount.value) return toAmount.error ?? `Enter how much arrives in ${toAccount.currency}.`;
    await transfer.mutateAsync({
      fromAccountId: v.from,
      toAccountId: v.to,
      date: v.date,
      amount: amount.value,
      ...(cross ? { toAmount: toAmount.value } : {}),
      memo: v.memo.trim(),
    });
    onClose();
  };

  const rate = cross && amount.value && toAmount.value ? (toAmount.value / amount.value).toFixed(6) : null;

  return (
    <FormDialog
      title="Transfer money"
      description="Posted as one entry between the two accounts."
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Transfer"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <MoneyAccountSelect id="tr-from" label="From" {...pick('from')} exclude={v.to ? [v.to] : []} />
        <MoneyAccountSelect
          id="tr-to"
          label="To"
          {...pick('to')}
          exclude={v.from ? [v.from] : []}
          noDefault
        />
        <AmountField id="tr-amount" label={`Amount (${fromAccount?.currency ?? ''})`} {...bind('amount')} />
        {cross ? (
          <AmountField
            id="tr-to-amount"
            label={`Arrives (${toAccount.currency})`}
            {...bind('toAmount')}
            hint={rate ? `Rate about ${rate} ${toAccount.currency} per ${fromAccount.currency}` : undefined}
          />
        ) : null}
        <TextField id="tr-date" label="Date" type="date" {...bind('date')} />
        <div className={cross ? 'sm:col-span-2' : ''}>
          <TextField id="tr-memo" label="Memo" {...bind('memo')} maxLength={500} />
        </div>
      </div>
    </FormDialog>
  );
};

export const RateDialog = ({ onClose, currency }: { onClose: () => void; currency?: string }) => {
  const { company } = useCompany();
  const { values: v, bind } = useFormFields({ code: currency ?? 'EUR', date: todayIso(), rate: '' });
  const save = useMoneyMutation(apiCalls.setRate);
  const submit = async () => {
    await save.mutateAsync({ currency: v.code.trim().toUpperCase(), date: v.date, rate: v.rate.trim() });
    onClose();
  };
  return (
    <FormDialog
      title="Exchange rate"
      description={`How many ${company.baseCurrency} one unit of the currency is worth on a date.`}
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Save rate"
    >
      <div className="grid gap-3 sm:grid-cols-3">
        <TextField
          id="rate-currency"
          label="Currency"
          {...bind('code')}
          maxLength={3}
          className="uppercase"
        />
        <TextField id="rate-date" label="Date" type="date" {...bind('date')} />
        <AmountField
          id="rate-value"
          label={`${company.baseCurrency} per 1`}
          {...bind('rate')}
          placeholder="1.0825"
        />
      </div>
    </FormDialog>
  );
};

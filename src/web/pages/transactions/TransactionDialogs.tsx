import { useState } from 'react';
import type { Transaction } from '../../../shared/transactions.ts';
import { AmountField, TextAreaField, TextField } from '../../components/ui/Field.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { useCompany } from '../../lib/company.tsx';
import { formatAmountInput } from '../../lib/format.ts';
import { useFormFields } from '../../lib/useFormFields.ts';
import {
  apiCalls,
  readAmount,
  readTaxRate,
  todayIso,
  useCategories,
  useMoneyMutation,
  useWallet,
} from './api.ts';
import { CategoryField, MoneyAccountField } from './fields.tsx';
import { Receipts } from './Receipts.tsx';

// Adding a transaction by hand, and the details of one (edit, notes, receipts). Splitting is
// SplitDialog.tsx.

export { SplitDialog } from './SplitDialog.tsx';

export const AddTransactionDialog = ({ onClose }: { onClose: () => void }) => {
  const wallet = useWallet();
  const { categories } = useCategories();
  const live = (wallet.data?.accounts ?? []).filter((a) => !a.archived);
  const {
    values: v,
    bind,
    set,
    pick,
  } = useFormFields({
    accountId: live[0]?.id ?? '',
    date: todayIso(),
    description: '',
    payee: '',
    direction: 'out',
    amount: '',
    categoryId: '',
    notes: '',
  });
  const create = useMoneyMutation(apiCalls.createTransaction);
  const account = live.find((a) => a.id === v.accountId);
  const amount = readAmount(v.amount, account?.currency ?? 'USD', false);

  const submit = async () => {
    if (!account) return 'Choose an account.';
    if (!v.description.trim()) return 'Enter a description.';
    if (!amount.value) return amount.error ?? 'Enter an amount greater than zero.';
    await create.mutateAsync({
      moneyAccountId: account.id,
      date: v.date,
      description: v.description.trim(),
      payee: v.payee.trim() || null,
      amount: v.direction === 'out' ? -amount.value : amount.value,
      categoryAccountId: v.categoryId || null,
      notes: v.notes,
    });
    onClose();
  };

  return (
    <FormDialog
      title="Add transaction"
      description="It is posted to the ledger straight away."
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Add transaction"
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <MoneyAccountField id="add-account" label="Account" {...pick('accountId')} accounts={live} />
        <TextField id="add-date" label="Date" type="date" required {...bind('date')} />
      </div>
      <TextField id="add-description" label="Description" {...bind('description')} maxLength={500} />
      <TextField id="add-payee" label="Payee (optional)" {...bind('payee')} maxLength={200} />
      <div className="grid gap-3 sm:grid-cols-2">
        <fieldset>
          <legend className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
            Direction
          </legend>
          <div className="flex gap-2">
            {(['out', 'in'] as const).map((d) => (
              <label
                key={d}
                className="flex min-h-11 flex-1 cursor-pointer items-center justify-center gap-2 rounded-lg border border-slate-300 text-sm has-checked:border-brand-600 has-checked:bg-brand-50 dark:border-slate-700 dark:has-checked:bg-brand-900/40"
              >
                <input
                  type="radio"
                  name="direction"
                  value={d}
                  checked={v.direction === d}
                  onChange={() => set({ direction: d })}
                />
                {d === 'out' ? 'Money out' : 'Money in'}
              </label>
            ))}
          </div>
        </fieldset>
        <AmountField
          id="add-amount"
          label={`Amount (${account?.currency ?? ''})`}
          {...bind('amount')}
          error={amount.error}
        />
      </div>
      <CategoryField
        id="add-category"
        label="Category"
        {...pick('categoryId')}
        categories={categories}
        placeholder="Uncategorised (decide later)"
      />
      <TextAreaField id="add-notes" label="Notes" {...bind('notes')} maxLength={2000} />
    </FormDialog>
  );
};

/** Details of one transaction: edit what it posts (reversed and reposted), notes, and receipts. */
export const EditTransactionDialog = ({ tx, onClose }: { tx: Transaction; onClose: () => void }) => {
  const { can } = useCompany();
  const locked = tx.status === 'reconciled';
  // A transfer leg or the line of an invoice payment or refund: only description, payee and notes change here.
  const transfer = tx.categoryKind === 'transfer' || tx.categoryKind === 'payment';
  const { values: v, bind } = useFormFields({
    description: tx.description,
    payee: tx.payee ?? '',
    date: tx.date,
    amount: formatAmountInput(tx.amount, tx.currency),
    tax: tx.taxRate !== null ? String(tx.taxRate / 100) : '',
    notes: tx.notes,
  });
  const [receiptError, setReceiptError] = useState<string | null>(null);
  const update = useMoneyMutation(apiCalls.updateTransaction);
  const amount = readAmount(v.amount, tx.currency, true);
  const editable = can('post') && !locked;

  const save = async () => {
    setReceiptError(null);
    if (!amount.value) return amount.error ?? 'Enter an amount other than zero.';
    const tax = readTaxRate(v.tax);
    if (tax.error) return tax.error;
    const body: Record<string, unknown> = {
      description: v.description.trim(),
      payee: v.payee.trim() || null,
      notes: v.notes,
    };
    if (!transfer) {
      if (v.date !== tx.date) body.date = v.date;
      if (amount.value !== tx.amount) body.amount = amount.value;
      if (tx.categoryKind === 'account' && tax.value !== tx.taxRate) body.taxRate = tax.value;
    }
    await update.mutateAsync({ id: tx.id, body });
    onClose();
  };

  return (
    <FormDialog
      title="Transaction"
      description={
        locked
          ? 'Reconciled and locked: undo the reconciliation to change it. Receipts can still be attached.'
          : tx.categoryKind === 'payment'
            ? 'The money of an invoice payment or refund: change its description and notes here; remove the payment on its invoice.'
            : transfer
              ? 'One side of a transfer: change its description and notes here, or delete the transfer on the Wallet page.'
              : 'Changing the date, amount or tax reverses the ledger entry and posts it again.'
      }
      wide
      onClose={onClose}
      onSubmit={save}
      cancelLabel="Close"
      submitLabel={can('post') && (!locked || transfer) ? 'Save changes' : null}
      error={receiptError}
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <TextField
            id="edit-description"
            label="Description"
            {...bind('description')}
            disabled={!editable}
            maxLength={500}
          />
        </div>
        <TextField id="edit-payee" label="Payee" {...bind('payee')} disabled={!editable} maxLength={200} />
        <TextField
          id="edit-date"
          label="Date"
          type="date"
          {...bind('date')}
          disabled={!editable || transfer}
        />
        <AmountField
          id="edit-amount"
          label={`Amount (${tx.currency}; negative is money out)`}
          {...bind('amount')}
          placeholder={undefined}
          disabled={!editable || transfer || tx.categoryKind === 'split'}
          hint={tx.categoryKind === 'split' ? 'Change a split amount in the split dialog.' : undefined}
        />
        <AmountField
          id="edit-tax"
          label="Tax included (%)"
          {...bind('tax')}
          disabled={!editable || tx.categoryKind !== 'account'}
          placeholder={tx.categoryKind === 'account' ? 'none' : 'choose a category first'}
        />
        <div className="sm:col-span-2">
          <TextAreaField
            id="edit-notes"
            label="Notes"
            {...bind('notes')}
            disabled={!editable && !transfer}
            maxLength={2000}
          />
        </div>
      </div>
      <Receipts transactionId={tx.id} onError={setReceiptError} />
    </FormDialog>
  );
};

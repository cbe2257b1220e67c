import { Plus, Trash2 } from 'lucide-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  ATTACHMENT_ACCEPT,
  ATTACHMENT_KINDS_TEXT,
  ATTACHMENT_MAX_BYTES,
  ATTACHMENT_TOO_LARGE_TEXT,
} from '../../../shared/attachments.ts';
import { formatMinorPlain } from '../../../shared/money.ts';
import type { Transaction } from '../../../shared/transactions.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { invalidateAfter, keys } from '../../lib/queryKeys.ts';
import {
  apiCalls,
  errorMessage,
  readAmount,
  todayIso,
  useCategories,
  useMoneyMutation,
  useOrgId,
  useWallet,
} from './api.ts';
import { CategorySelect } from './CategorySelect.tsx';
import { Label, inputClass } from './Controls.tsx';

// Adding a transaction by hand, and splitting one across categories.

export const AddTransactionDialog = ({ open, onClose }: { open: boolean; onClose: () => void }) => {
  const wallet = useWallet();
  const { categories } = useCategories();
  const live = (wallet.data?.accounts ?? []).filter((a) => !a.archived);
  const [accountId, setAccountId] = useState(live[0]?.id ?? '');
  const [date, setDate] = useState(todayIso());
  const [description, setDescription] = useState('');
  const [payee, setPayee] = useState('');
  const [direction, setDirection] = useState<'out' | 'in'>('out');
  const [amountText, setAmountText] = useState('');
  const [categoryId, setCategoryId] = useState('');
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useMoneyMutation(apiCalls.createTransaction);
  const account = live.find((a) => a.id === accountId);
  const amount = readAmount(amountText, account?.currency ?? 'USD', false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!account) return setError('Choose an account.');
    if (!description.trim()) return setError('Enter a description.');
    if (!amount.value) return setError(amount.error ?? 'Enter an amount greater than zero.');
    try {
      await create.mutateAsync({
        moneyAccountId: account.id,
        date,
        description: description.trim(),
        payee: payee.trim() || null,
        amount: direction === 'out' ? -amount.value : amount.value,
        categoryAccountId: categoryId || null,
        notes,
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
      title="Add transaction"
      description="It is posted to the ledger straight away."
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        {error ? <Alert>{error}</Alert> : null}
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <Label htmlFor="add-account">Account</Label>
            <select
              id="add-account"
              value={accountId}
              onChange={(e) => setAccountId(e.target.value)}
              className={inputClass}
            >
              {live.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name} ({a.currency})
                </option>
              ))}
            </select>
          </div>
          <div>
            <Label htmlFor="add-date">Date</Label>
            <input
              id="add-date"
              type="date"
              required
              value={date}
              onChange={(e) => setDate(e.target.value)}
              className={inputClass}
            />
          </div>
        </div>
        <div>
          <Label htmlFor="add-description">Description</Label>
          <input
            id="add-description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            className={inputClass}
            maxLength={500}
          />
        </div>
        <div>
          <Label htmlFor="add-payee">Payee (optional)</Label>
          <input
            id="add-payee"
            value={payee}
            onChange={(e) => setPayee(e.target.value)}
            className={inputClass}
            maxLength={200}
          />
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <fieldset>
            <legend className="mb-1 block text-xs font-medium text-slate-600 dark:text-slate-300">
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
                    checked={direction === d}
                    onChange={() => setDirection(d)}
                  />
                  {d === 'out' ? 'Money out' : 'Money in'}
                </label>
              ))}
            </div>
          </fieldset>
          <div>
            <Label htmlFor="add-amount">Amount ({account?.currency ?? ''})</Label>
            <input
              id="add-amount"
              inputMode="decimal"
              value={amountText}
              onChange={(e) => setAmountText(e.target.value)}
              placeholder="0.00"
              className={inputClass}
              aria-invalid={amount.error ? true : undefined}
            />
            {amount.error ? (
              <p className="mt-1 text-xs text-red-600 dark:text-red-400">{amount.error}</p>
            ) : null}
          </div>
        </div>
        <div>
          <Label htmlFor="add-category">Category</Label>
          <CategorySelect
            id="add-category"
            value={categoryId}
            onChange={setCategoryId}
            categories={categories}
            placeholder="Uncategorised (decide later)"
          />
        </div>
        <div>
          <Label htmlFor="add-notes">Notes</Label>
          <textarea
            id="add-notes"
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
            className={`${inputClass} py-2`}
            rows={2}
            maxLength={2000}
          />
        </div>
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" busy={create.isPending}>
            Add transaction
          </Button>
        </div>
      </form>
    </Dialog>
  );
};

type Part = { key: number; categoryId: string; amountText: string; description: string };

export const SplitDialog = ({ tx, onClose }: { tx: Transaction; onClose: () => void }) => {
  const { categories } = useCategories();
  const sign = tx.amount < 0 ? -1 : 1;
  const fmt = (minor: number) => formatMinorPlain(Math.abs(minor), tx.currency);
  const initial: Part[] =
    tx.splits.length > 0
      ? tx.splits.map((s, i) => ({
          key: i,
          categoryId: s.categoryAccountId,
          amountText: formatMinorPlain(s.amount * sign, tx.currency),
          description: s.description ?? '',
        }))
      : [
          { key: 0, categoryId: tx.categoryAccountId ?? '', amountText: fmt(tx.amount), description: '' },
          { key: 1, categoryId: '', amountText: '', description: '' },
        ];
  const [parts, setParts] = useState<Part[]>(initial);
  const [error, setError] = useState<string | null>(null);
  const update = useMoneyMutation(apiCalls.updateTransaction);
  // Parts are entered in the transaction's direction; a negative part goes the other way (a fee out of a deposit).
  const values = parts.map((p) => readAmount(p.amountText, tx.currency, true));
  const total = values.reduce((s, v) => s + (v.value ?? 0), 0) * sign;
  const remaining = tx.amount - total;

  const save = async () => {
    setError(null);
    if (parts.some((p) => !p.categoryId)) return setError('Choose a category for every part.');
    if (values.some((v) => v.value === null || v.value === 0))
      return setError('Every part needs an amount other than zero.');
    if (remaining !== 0) return setError('The parts must add up to the whole amount.');
    try {
      await update.mutateAsync({
        id: tx.id,
        body: {
          splits: parts.map((p, i) => ({
            categoryAccountId: p.categoryId,
            amount: values[i]!.value! * sign,
            description: p.description || undefined,
          })),
        },
      });
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="Split transaction"
      description={`${tx.description} · split the amount across categories.`}
      wide
    >
      <div className="space-y-3">
        {error ? <Alert>{error}</Alert> : null}
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Total <Money minor={tx.amount} currency={tx.currency} className="font-semibold" />
        </p>
        <ul className="space-y-2">
          {parts.map((p, i) => (
            <li key={p.key} className="grid gap-2 sm:grid-cols-[1fr_9rem_1fr_auto]">
              <CategorySelect
                id={`split-cat-${p.key}`}
                label={`Category of part ${i + 1}`}
                value={p.categoryId}
                onChange={(v) => setParts(parts.map((x) => (x.key === p.key ? { ...x, categoryId: v } : x)))}
                categories={categories}
              />
              <input
                aria-label={`Amount of part ${i + 1}`}
                inputMode="decimal"
                value={p.amountText}
                onChange={(e) =>
                  setParts(parts.map((x) => (x.key === p.key ? { ...x, amountText: e.target.value } : x)))
                }
                className={`${inputClass} text-right tabular-nums`}
                placeholder="0.00"
              />
              <input
                aria-label={`Note for part ${i + 1}`}
                value={p.description}
                onChange={(e) =>
                  setParts(parts.map((x) => (x.key === p.key ? { ...x, description: e.target.value } : x)))
                }
                className={inputClass}
                placeholder="Note (optional)"
              />
              <Button
                variant="ghost"
                aria-label={`Remove part ${i + 1}`}
                disabled={parts.length <= 2}
                onClick={() => setParts(parts.filter((x) => x.key !== p.key))}
              >
                <Trash2 className="h-4 w-4" aria-hidden="true" />
              </Button>
            </li>
          ))}
        </ul>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <Button
            variant="secondary"
            onClick={() =>
              setParts([
                ...parts,
                {
                  key: Date.now(),
                  categoryId: '',
                  amountText: remaining !== 0 ? fmt(remaining) : '',
                  description: '',
                },
              ])
            }
          >
            <Plus className="h-4 w-4" aria-hidden="true" /> Add part
          </Button>
          <p
            aria-live="polite"
            className={`text-sm font-medium ${remaining === 0 ? 'text-emerald-700 dark:text-emerald-400' : 'text-amber-700 dark:text-amber-300'}`}
          >
            {remaining === 0 ? (
              'The parts add up.'
            ) : (
              <>
                Left to assign: <Money minor={remaining} currency={tx.currency} tintNegative={false} />
              </>
            )}
          </p>
        </div>
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button onClick={save} busy={update.isPending} disabled={remaining !== 0}>
            Save split
          </Button>
        </div>
      </div>
    </Dialog>
  );
};

type Attachment = { id: string; fileName: string; contentType: string; sizeBytes: number; createdAt: string };

const toBase64 = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).split(',')[1] ?? '');
    reader.onerror = () => reject(new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });

/** Details of one transaction: edit what it posts (reversed and reposted), notes, and receipts. */
export const EditTransactionDialog = ({ tx, onClose }: { tx: Transaction; onClose: () => void }) => {
  const orgId = useOrgId();
  const { can } = useCompany();
  const locked = tx.status === 'reconciled';
  // A transfer leg or the line of an invoice payment or refund: only description, payee and notes change here.
  const transfer = tx.categoryKind === 'transfer' || tx.categoryKind === 'payment';
  const [description, setDescription] = useState(tx.description);
  const [payee, setPayee] = useState(tx.payee ?? '');
  const [date, setDate] = useState(tx.date);
  const [amountText, setAmountText] = useState(formatMinorPlain(tx.amount, tx.currency));
  const [taxText, setTaxText] = useState(tx.taxRate !== null ? String(tx.taxRate / 100) : '');
  const [notes, setNotes] = useState(tx.notes);
  const [error, setError] = useState<string | null>(null);
  const update = useMoneyMutation(apiCalls.updateTransaction);
  const amount = readAmount(amountText, tx.currency, true);
  const client = useQueryClient();
  const attachmentsKey = keys.transactions(orgId, 'attachments', tx.id);
  const attachments = useQuery({
    queryKey: attachmentsKey,
    queryFn: async () =>
      (await api.get<{ attachments: Attachment[] }>(`/orgs/${orgId}/transactions/${tx.id}/attachments`))
        .attachments,
  });
  const [uploading, setUploading] = useState(false);
  const editable = can('post') && !locked;

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!amount.value) return setError(amount.error ?? 'Enter an amount other than zero.');
    const tax = taxText.trim() === '' ? null : Math.round(Number(taxText) * 100);
    if (tax !== null && (!Number.isFinite(tax) || tax < 0 || tax > 10000))
      return setError('Enter the tax rate as a percent between 0 and 100.');
    const body: Record<string, unknown> = {
      description: description.trim(),
      payee: payee.trim() || null,
      notes,
    };
    if (!transfer) {
      if (date !== tx.date) body.date = date;
      if (amount.value !== tx.amount) body.amount = amount.value;
      if (tx.categoryKind === 'account' && tax !== tx.taxRate) body.taxRate = tax;
    }
    try {
      await update.mutateAsync({ id: tx.id, body });
      onClose();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  const upload = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    if (file.size > ATTACHMENT_MAX_BYTES) return setError(ATTACHMENT_TOO_LARGE_TEXT);
    setUploading(true);
    try {
      await api.post(`/orgs/${orgId}/transactions/${tx.id}/attachments`, {
        fileName: file.name,
        contentType: file.type || 'application/octet-stream',
        dataBase64: await toBase64(file),
      });
      await invalidateAfter.transactionAttachments(client, orgId, tx.id);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setUploading(false);
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
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
    >
      <form onSubmit={save} className="space-y-3" noValidate>
        {error ? <Alert>{error}</Alert> : null}
        <div className="grid gap-3 sm:grid-cols-2">
          <div className="sm:col-span-2">
            <Label htmlFor="edit-description">Description</Label>
            <input
              id="edit-description"
              value={description}
              disabled={!editable}
              onChange={(e) => setDescription(e.target.value)}
              className={inputClass}
              maxLength={500}
            />
          </div>
          <div>
            <Label htmlFor="edit-payee">Payee</Label>
            <input
              id="edit-payee"
              value={payee}
              disabled={!editable}
              onChange={(e) => setPayee(e.target.value)}
              className={inputClass}
              maxLength={200}
            />
          </div>
          <div>
            <Label htmlFor="edit-date">Date</Label>
            <input
              id="edit-date"
              type="date"
              value={date}
              disabled={!editable || transfer}
              onChange={(e) => setDate(e.target.value)}
              className={inputClass}
            />
          </div>
          <div>
            <Label htmlFor="edit-amount">Amount ({tx.currency}; negative is money out)</Label>
            <input
              id="edit-amount"
              inputMode="decimal"
              value={amountText}
              disabled={!editable || transfer || tx.categoryKind === 'split'}
              onChange={(e) => setAmountText(e.target.value)}
              className={inputClass}
            />
            {tx.categoryKind === 'split' ? (
              <p className="mt-1 text-xs text-slate-500">Change a split amount in the split dialog.</p>
            ) : null}
          </div>
          <div>
            <Label htmlFor="edit-tax">Tax included (%)</Label>
            <input
              id="edit-tax"
              inputMode="decimal"
              value={taxText}
              disabled={!editable || tx.categoryKind !== 'account'}
              onChange={(e) => setTaxText(e.target.value)}
              className={inputClass}
              placeholder={tx.categoryKind === 'account' ? 'none' : 'choose a category first'}
            />
          </div>
          <div className="sm:col-span-2">
            <Label htmlFor="edit-notes">Notes</Label>
            <textarea
              id="edit-notes"
              value={notes}
              disabled={!editable && !transfer}
              onChange={(e) => setNotes(e.target.value)}
              className={`${inputClass} py-2`}
              rows={2}
              maxLength={2000}
            />
          </div>
        </div>
        <section
          aria-label="Receipts"
          className="rounded-lg border border-slate-200 p-3 dark:border-slate-800"
        >
          <h3 className="mb-2 text-sm font-semibold text-slate-900 dark:text-white">Receipts</h3>
          {(attachments.data ?? []).length === 0 ? (
            <p className="text-sm text-slate-500 dark:text-slate-400">No files attached.</p>
          ) : (
            <ul className="space-y-1 text-sm">
              {attachments.data!.map((a) => (
                <li key={a.id} className="flex items-center justify-between gap-2">
                  <a
                    className="text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
                    href={`/api/orgs/${orgId}/transactions/${tx.id}/attachments/${a.id}`}
                  >
                    {a.fileName}
                  </a>
                  <span className="text-xs text-slate-500">{Math.ceil(a.sizeBytes / 1024)} KB</span>
                  {can('record') ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-label={`Remove ${a.fileName}`}
                      onClick={async () => {
                        await api.delete(`/orgs/${orgId}/transactions/${tx.id}/attachments/${a.id}`);
                        await invalidateAfter.transactionAttachments(client, orgId, tx.id);
                      }}
                    >
                      <Trash2 className="h-4 w-4" aria-hidden="true" />
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
          {can('record') ? (
            <div className="mt-2">
              <Label htmlFor="edit-receipt">Attach a receipt ({ATTACHMENT_KINDS_TEXT})</Label>
              <input
                id="edit-receipt"
                type="file"
                accept={ATTACHMENT_ACCEPT}
                disabled={uploading}
                onChange={(e) => upload(e.target.files?.[0])}
                className={`${inputClass} py-2`}
              />
            </div>
          ) : null}
        </section>
        <div className="flex justify-end gap-2 pt-2">
          <Button variant="secondary" onClick={onClose}>
            Close
          </Button>
          {can('post') && (!locked || transfer) ? (
            <Button type="submit" busy={update.isPending}>
              Save changes
            </Button>
          ) : null}
        </div>
      </form>
    </Dialog>
  );
};

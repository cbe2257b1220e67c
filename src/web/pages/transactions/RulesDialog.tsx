import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { Rule } from '../../../shared/transactions.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge, EmptyState } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { useCompany } from '../../lib/company.tsx';
import { useFormFields } from '../../lib/useFormFields.ts';
import {
  apiCalls,
  errorMessage,
  readAmount,
  readTaxRate,
  useCategories,
  useMoneyMutation,
  useRules,
  useWallet,
} from './api.ts';
import { Skeleton } from './Controls.tsx';
import { AmountRangeFields, CategoryField, MoneyAccountField } from './fields.tsx';
import type { DoneDialogProps } from '../../components/ui/FormDialog.tsx';

// Categorisation rules: conditions on description/payee text, amount range, direction and
// account; actions set the category, payee and tax rate. Lower priority numbers run first.

const conditionsOf = (r: Rule, currency: string, accountName: (id: string) => string) => {
  const parts: React.ReactNode[] = [];
  if (r.descriptionContains) parts.push(`description contains “${r.descriptionContains}”`);
  if (r.payeeContains) parts.push(`payee contains “${r.payeeContains}”`);
  if (r.direction !== 'any') parts.push(r.direction === 'in' ? 'money in' : 'money out');
  if (r.minAmount !== null)
    parts.push(
      <span key="min">
        at least <Money minor={r.minAmount} currency={currency} />
      </span>,
    );
  if (r.maxAmount !== null)
    parts.push(
      <span key="max">
        at most <Money minor={r.maxAmount} currency={currency} />
      </span>,
    );
  if (r.moneyAccountId) parts.push(`account ${accountName(r.moneyAccountId)}`);
  return parts.flatMap((p, i) => (i === 0 ? [p] : [' and ', p]));
};

export const RulesDialog = ({ onClose, onDone }: DoneDialogProps) => {
  const { company, can } = useCompany();
  const rules = useRules();
  const wallet = useWallet();
  const { categories } = useCategories();
  const create = useMoneyMutation(apiCalls.createRule);
  const remove = useMoneyMutation(apiCalls.deleteRule);
  const apply = useMoneyMutation(apiCalls.applyRules);
  const [error, setError] = useState<string | null>(null);
  const {
    values: form,
    bind,
    set,
    pick,
  } = useFormFields({
    name: '',
    priority: '100',
    descriptionContains: '',
    payeeContains: '',
    min: '',
    max: '',
    direction: 'any',
    moneyAccountId: '',
    setCategoryAccountId: '',
    setPayee: '',
    setTaxRate: '',
  });
  const min = readAmount(form.min, company.baseCurrency, false);
  const max = readAmount(form.max, company.baseCurrency, false);
  const accountName = (id: string) => wallet.data?.accounts.find((a) => a.id === id)?.name ?? 'unknown';

  const add = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (min.error || max.error) return setError(min.error ?? max.error);
    const tax = readTaxRate(form.setTaxRate);
    if (tax.error) return setError(tax.error);
    try {
      await create.mutateAsync({
        name: form.name.trim(),
        priority: Number(form.priority) || 0,
        descriptionContains: form.descriptionContains.trim() || null,
        payeeContains: form.payeeContains.trim() || null,
        minAmount: min.value,
        maxAmount: max.value,
        direction: form.direction,
        moneyAccountId: form.moneyAccountId || null,
        setCategoryAccountId: form.setCategoryAccountId,
        setPayee: form.setPayee.trim() || null,
        setTaxRate: tax.value,
      });
      set({
        name: '',
        descriptionContains: '',
        payeeContains: '',
        min: '',
        max: '',
        setPayee: '',
        setTaxRate: '',
      });
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title="Categorisation rules"
      description="Applied to new imports, and to uncategorised transactions when you press Apply rules now. The first matching rule (lowest priority number) wins."
      wide
    >
      <div className="space-y-5">
        {error ? <Alert>{error}</Alert> : null}
        {rules.isLoading ? (
          <Skeleton rows={3} />
        ) : (rules.data ?? []).length === 0 ? (
          <EmptyState
            title="No rules yet"
            description="Add one below, e.g. description contains “AWS” → Software and subscriptions."
          />
        ) : (
          <ul className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
            {rules.data!.map((r) => (
              <li key={r.id} className="flex items-start justify-between gap-3 px-3 py-2 text-sm">
                <div>
                  <p className="font-medium text-slate-900 dark:text-white">
                    <Badge tone="slate">#{r.priority}</Badge> {r.name}{' '}
                    {r.enabled ? null : <Badge tone="amber">off</Badge>}
                  </p>
                  <p className="text-slate-600 dark:text-slate-300">
                    When {conditionsOf(r, company.baseCurrency, accountName)} →{' '}
                    <strong>{r.setCategoryName}</strong>
                    {r.setPayee ? `, payee “${r.setPayee}”` : ''}
                    {r.setTaxRate !== null ? `, tax ${r.setTaxRate / 100}%` : ''}
                  </p>
                </div>
                {can('post') ? (
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-label={`Delete rule ${r.name}`}
                    onClick={() => remove.mutate(r.id)}
                  >
                    <Trash2 className="h-4 w-4" aria-hidden="true" />
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {can('post') ? (
          <>
            <div className="flex justify-end">
              <Button
                variant="secondary"
                busy={apply.isPending}
                onClick={async () => {
                  try {
                    const r = await apply.mutateAsync({});
                    onDone(
                      `Rules categorised ${r.categorized} of ${r.checked} uncategorised transaction${r.checked === 1 ? '' : 's'}.`,
                    );
                    onClose();
                  } catch (err) {
                    setError(errorMessage(err));
                  }
                }}
              >
                Apply rules now
              </Button>
            </div>
            <form
              onSubmit={add}
              className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-800"
              aria-label="New rule"
            >
              <h3 className="text-sm font-semibold text-slate-900 dark:text-white">New rule</h3>
              <div className="grid gap-3 sm:grid-cols-4">
                <div className="sm:col-span-3">
                  <TextField id="rule-name" label="Name" {...bind('name')} required />
                </div>
                <TextField id="rule-priority" label="Priority" type="number" min={0} {...bind('priority')} />
                <div className="sm:col-span-2">
                  <TextField id="rule-desc" label="Description contains" {...bind('descriptionContains')} />
                </div>
                <div className="sm:col-span-2">
                  <TextField id="rule-payee" label="Payee contains" {...bind('payeeContains')} />
                </div>
                <AmountRangeFields
                  idPrefix="rule"
                  from={{ ...bind('min'), error: min.error }}
                  to={{ ...bind('max'), error: max.error }}
                />
                <SelectField
                  id="rule-direction"
                  label="Direction"
                  {...bind('direction')}
                  options={[
                    { value: 'any', label: 'In or out' },
                    { value: 'in', label: 'Money in' },
                    { value: 'out', label: 'Money out' },
                  ]}
                />
                <MoneyAccountField
                  id="rule-account"
                  label="Account"
                  {...pick('moneyAccountId')}
                  accounts={wallet.data?.accounts ?? []}
                  empty="Any account"
                  withCurrency={false}
                />
                <div className="sm:col-span-2">
                  <CategoryField
                    id="rule-category"
                    label="Set category"
                    {...pick('setCategoryAccountId')}
                    categories={categories}
                  />
                </div>
                <TextField id="rule-set-payee" label="Set payee" {...bind('setPayee')} />
                <TextField
                  id="rule-tax"
                  label="Set tax rate (%)"
                  inputMode="decimal"
                  {...bind('setTaxRate')}
                />
              </div>
              <div className="flex justify-end">
                <Button
                  type="submit"
                  busy={create.isPending}
                  disabled={!form.name.trim() || !form.setCategoryAccountId}
                >
                  Add rule
                </Button>
              </div>
            </form>
          </>
        ) : null}
      </div>
    </Dialog>
  );
};

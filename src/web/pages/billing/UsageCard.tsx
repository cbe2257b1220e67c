import { type FormEvent, useState } from 'react';
import type { BillingOverview } from '../../../shared/billing.ts';
import { normalizePromoCode } from '../../../shared/auth/rules.ts';
import { findPlan } from '../../../shared/plans.ts';
import { Alert, Card, CardHeader } from '../../components/ui/Card.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { Form } from '../../components/ui/Form.tsx';
import { useAction } from '../../lib/useAction.ts';
import { billingCalls, useBillingChange } from './billingApi.ts';
import { type UsageRow, usageRow } from './billingText.ts';

// Usage against the plan's limits (a bar per limit, "Unlimited" where there is none), and the
// promo code box (redeemed once per account; what it did is shown).

const BAR_TONES: Record<UsageRow['tone'], string> = {
  normal: 'bg-brand-600 dark:bg-brand-400',
  near: 'bg-amber-500 dark:bg-amber-400',
  full: 'bg-red-600 dark:bg-red-400',
};

const UsageLine = ({ row }: { row: UsageRow }) => (
  <li className="space-y-1.5" data-testid={`usage-${row.key}`}>
    <div className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
      <span id={`usage-label-${row.key}`} className="font-medium text-slate-800 dark:text-slate-100">
        {row.label}
      </span>
      <span className="text-slate-600 tabular-nums dark:text-slate-300">{row.text}</span>
    </div>
    {row.percent === null ? (
      <div className="h-2 rounded-full bg-slate-100 dark:bg-slate-800" aria-hidden="true" />
    ) : (
      <div
        role="progressbar"
        aria-labelledby={`usage-label-${row.key}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={row.percent}
        aria-valuetext={row.text}
        className="h-2 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
      >
        <div
          className={`h-full rounded-full ${BAR_TONES[row.tone]}`}
          style={{ width: `${Math.max(row.percent, 2)}%` }}
        />
      </div>
    )}
  </li>
);

export const UsageCard = ({ overview }: { overview: BillingOverview }) => {
  const rows = overview.usage.map(usageRow);
  const full = rows.filter((r) => r.tone === 'full');
  return (
    <Card>
      <CardHeader
        title="Usage"
        description={`What the ${findPlan(overview.plan).name} plan allows and what you use.`}
      />
      <div className="space-y-4 p-5">
        {full.length ? (
          <Alert tone="warning">
            You have reached your plan's limit for {full.map((r) => r.label.toLowerCase()).join(', ')}.
            Nothing is deleted; choose a larger plan to add more.
          </Alert>
        ) : null}
        <ul className="space-y-4">
          {rows.map((row) => (
            <UsageLine key={row.key} row={row} />
          ))}
        </ul>
      </div>
    </Card>
  );
};

export const PromoCard = () => {
  const [code, setCode] = useState('');
  const [effect, setEffect] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const change = useBillingChange();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!code.trim()) return;
    setEffect(null);
    await run(async () => {
      const result = await change(() => billingCalls.redeem(code.trim()));
      setEffect(result.effect);
      setCode('');
    });
  };
  return (
    <Card>
      <CardHeader
        title="Promo code"
        description="Plan access, a longer trial or a discount. One use per account."
      />
      <div className="p-5">
        <Form onSubmit={submit} error={error} busy={busy} submitLabel="Apply code" submitVariant="secondary">
          {effect ? <Alert tone="success">{effect}</Alert> : null}
          <TextField
            label="Code"
            autoComplete="off"
            spellCheck={false}
            value={code}
            onChange={(e) => {
              setCode(normalizePromoCode(e.target.value));
              setEffect(null);
            }}
            placeholder="e.g. WELCOME2026"
          />
        </Form>
      </div>
    </Card>
  );
};

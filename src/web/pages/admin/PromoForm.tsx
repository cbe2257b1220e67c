import { useState } from 'react';
import {
  type AdminPromo,
  type AdminPromoCreate,
  adminPromoCreateSchema,
  adminPromoUpdateSchema,
} from '../../../shared/admin.ts';
import { PROMO_KINDS, PROMO_KIND_LABELS, type PromoKind } from '../../../shared/billing.ts';
import { PLANS, type PlanId } from '../../../shared/plans.ts';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { useFormFields } from '../../lib/useFormFields.ts';
import { useAdminChanges } from './adminApi.ts';

// A promo code's create / edit dialog. What the code does depends on its kind: plan access
// for a number of days, extra trial days, or a percentage off; each kind shows its own field.
// The expiry is the last day it works; max redemptions caps how many accounts may use it.

const KIND_FIELD = {
  plan_access: {
    key: 'accessDays',
    label: 'Days of plan access',
    hint: 'From the day it is redeemed; blank: no end.',
  },
  trial_extension: {
    key: 'trialDays',
    label: 'Extra trial days',
    hint: 'Added to the free trial (1 to 365).',
  },
  discount: { key: 'percentOff', label: 'Percent off', hint: 'Off every subscription charge (1 to 100).' },
} as const;

const text = (n: number | null | undefined) => (n === null || n === undefined ? '' : String(n));

/** A whole number from a field, null when blank, or the problem. */
const wholeNumber = (value: string, label: string): number | null | string => {
  const t = value.trim();
  if (t === '') return null;
  return /^\d+$/.test(t) ? Number(t) : `${label} must be a whole number.`;
};

export const PromoFormDialog = ({
  promo,
  onClose,
  onDone,
}: {
  /** The code to edit; none to create one. */
  promo?: AdminPromo;
  onClose: () => void;
  onDone: (message: string) => void;
}) => {
  const { createPromo, updatePromo } = useAdminChanges();
  const { values, bind, set } = useFormFields({
    code: promo?.code ?? '',
    kind: (promo?.kind ?? 'plan_access') as string,
    planAccess: (promo?.planAccess ?? 'business') as string,
    description: promo?.description ?? '',
    accessDays: text(promo?.accessDays ?? (promo ? null : 30)),
    trialDays: text(promo?.trialDays ?? (promo ? null : 14)),
    percentOff: text(promo?.percentOff ?? (promo ? null : 20)),
    expiresOn: promo?.expiresAt ? promo.expiresAt.slice(0, 10) : '',
    maxRedemptions: text(promo?.maxRedemptions),
  });
  const [fieldError, setFieldError] = useState<{ field: string; message: string } | null>(null);
  const kind = values.kind as PromoKind;
  const kindField = KIND_FIELD[kind];
  const errorOf = (field: string) => (fieldError?.field === field ? fieldError.message : null);

  /** Marks the field and answers the problem for the dialog's error box. */
  const fail = (field: string, message: string, shown = message) => {
    setFieldError({ field, message });
    return shown;
  };

  const submit = async () => {
    setFieldError(null);
    const amount = wholeNumber(values[kindField.key], kindField.label);
    if (typeof amount === 'string') return fail(kindField.key, amount);
    const max = wholeNumber(values.maxRedemptions, 'Max redemptions');
    if (typeof max === 'string') return fail('maxRedemptions', max);
    const fields = {
      kind,
      planAccess: values.planAccess as PlanId,
      description: values.description.trim() || null,
      accessDays: kind === 'plan_access' ? amount : null,
      trialDays: kind === 'trial_extension' ? amount : null,
      percentOff: kind === 'discount' ? amount : null,
      expiresOn: values.expiresOn || null,
      maxRedemptions: max,
    };
    const parsed = promo
      ? adminPromoUpdateSchema.safeParse(fields)
      : adminPromoCreateSchema.safeParse({ code: values.code, ...fields });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = String(issue?.path[0] ?? '');
      const message = issue?.message ?? 'Check the fields.';
      return fail(field, message, field === 'code' ? message : `${labelOf(field)}: ${message}`);
    }
    if (promo) {
      await updatePromo(promo.code, parsed.data);
      onDone(`Saved ${promo.code}.`);
    } else {
      const created = await createPromo(parsed.data as AdminPromoCreate);
      onDone(`Created ${created.code}.`);
    }
  };

  return (
    <FormDialog
      title={promo ? `Edit ${promo.code}` : 'New promo code'}
      description={
        promo ? 'Changes apply to redemptions from now on; past ones keep what they got.' : undefined
      }
      onClose={onClose}
      onSubmit={submit}
      submitLabel={promo ? 'Save' : 'Create code'}
    >
      {promo ? null : (
        <TextField
          label="Code"
          hint="6 to 64 letters, digits, hyphens or underscores; upper-cased."
          autoComplete="off"
          spellCheck={false}
          error={errorOf('code')}
          value={values.code}
          onChange={(e) => set({ code: e.target.value.toUpperCase() })}
        />
      )}
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectField
          label="Kind"
          options={PROMO_KINDS.map((k) => ({ value: k, label: PROMO_KIND_LABELS[k] }))}
          {...bind('kind')}
        />
        <SelectField
          label={kind === 'plan_access' ? 'Plan granted' : 'Plan'}
          hint={kind === 'plan_access' ? undefined : 'The plan the code is for.'}
          options={PLANS.map((p) => ({ value: p.id, label: p.name }))}
          {...bind('planAccess')}
        />
      </div>
      <TextField
        key={kindField.key}
        label={kindField.label}
        hint={kindField.hint}
        inputMode="numeric"
        error={errorOf(kindField.key)}
        {...bind(kindField.key)}
      />
      <TextField
        label="Description (optional)"
        maxLength={200}
        error={errorOf('description')}
        {...bind('description')}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <TextField
          label="Last day it works (optional)"
          type="date"
          hint="Through the end of that day, UTC."
          error={errorOf('expiresOn')}
          {...bind('expiresOn')}
        />
        <TextField
          label="Max redemptions (optional)"
          inputMode="numeric"
          hint="Blank: no limit."
          error={errorOf('maxRedemptions')}
          {...bind('maxRedemptions')}
        />
      </div>
    </FormDialog>
  );
};

const LABELS: Record<string, string> = {
  kind: 'Kind',
  planAccess: 'Plan',
  description: 'Description',
  accessDays: KIND_FIELD.plan_access.label,
  trialDays: KIND_FIELD.trial_extension.label,
  percentOff: KIND_FIELD.discount.label,
  expiresOn: 'Last day it works',
  maxRedemptions: 'Max redemptions',
};
const labelOf = (field: string) => LABELS[field] ?? field;

import { useMutation } from '@tanstack/react-query';
import { Building2 } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { type MyCompany, createCompanySchema } from '../../../shared/companies.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card } from '../../components/ui/Card.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { MONTH_OPTIONS, browserTimeZone, currencyOptions } from '../../lib/format.ts';
import { useFormFields } from '../../lib/useFormFields.ts';

// First run: a user without a company creates one and lands in it (issue 5).

export const CreateCompanyForm = ({
  defaultCurrency,
  onCreated,
  submitLabel = 'Create company',
}: {
  defaultCurrency?: string;
  onCreated: (company: MyCompany) => void;
  submitLabel?: string;
}) => {
  // The user's display currency (Settings → Preferences) is the suggestion unless told otherwise.
  const { userProfile } = useAuth();
  const { values: v, bind } = useFormFields({
    name: '',
    baseCurrency: defaultCurrency ?? userProfile?.preferences.currency ?? 'USD',
    fiscalYearStartMonth: '1',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: (body: unknown) => api.post<MyCompany>('/orgs', body),
    onSuccess: onCreated,
  });

  /** A field's name, value, change handler and the problem found with it. */
  const field = (name: keyof typeof v) => ({ name, ...bind(name), error: errors[name] });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = {
      name: v.name,
      baseCurrency: v.baseCurrency,
      fiscalYearStartMonth: Number(v.fiscalYearStartMonth),
      timeZone: browserTimeZone(),
    };
    const parsed = createCompanySchema.safeParse(input);
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message])));
      return;
    }
    setErrors({});
    create.mutate(input);
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {create.error ? (
        <Alert>
          {create.error instanceof ApiError
            ? create.error.message
            : 'Could not create the company. Please try again.'}
        </Alert>
      ) : null}
      <TextField
        label="Company name"
        autoFocus
        autoComplete="organization"
        {...field('name')}
        placeholder="Acme Trading Ltd"
      />
      <SelectField
        label="Base currency"
        {...field('baseCurrency')}
        options={currencyOptions()}
        hint="Your books are kept in this currency. It cannot be changed later."
      />
      <SelectField label="Fiscal year starts in" {...field('fiscalYearStartMonth')} options={MONTH_OPTIONS} />
      <Button type="submit" busy={create.isPending} block>
        {create.isPending ? 'Creating...' : submitLabel}
      </Button>
    </form>
  );
};

export const CreateCompanyOnboarding = ({
  onCreated,
  defaultCurrency,
}: {
  onCreated: (c: MyCompany) => void;
  defaultCurrency?: string;
}) => (
  <div className="mx-auto w-full max-w-lg py-10">
    <div className="mb-6 flex items-center gap-3">
      <span className="inline-flex h-12 w-12 items-center justify-center rounded-xl bg-brand-100 text-brand-700 dark:bg-brand-900/60 dark:text-brand-200">
        <Building2 className="h-6 w-6" aria-hidden="true" />
      </span>
      <div>
        <h1 className="text-2xl font-bold text-slate-900 dark:text-white">Set up your company</h1>
        <p className="text-sm text-slate-500 dark:text-slate-400">
          Kontor keeps the books per company. We will set up a standard chart of accounts for you.
        </p>
      </div>
    </div>
    <Card className="p-6">
      <CreateCompanyForm onCreated={onCreated} defaultCurrency={defaultCurrency} />
    </Card>
  </div>
);

import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { MyCompany } from '../../../shared/companies.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card, CardHeader } from '../../components/ui/Card.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { useCompanies, useCompany } from '../../lib/company.tsx';
import { MONTH_OPTIONS } from '../../lib/format.ts';

export const CompanySettings = () => {
  const { company, can } = useCompany();
  const { refresh } = useCompanies();
  const editable = can('manage_settings');
  const [name, setName] = useState(company.name);
  const [fiscalYearStartMonth, setFiscalYearStartMonth] = useState(String(company.fiscalYearStartMonth));
  const [country, setCountry] = useState(company.country ?? '');
  const [timeZone, setTimeZone] = useState(company.timeZone);
  const save = useMutation({
    mutationFn: (body: unknown) => api.patch<MyCompany>(`/orgs/${company.id}`, body),
    onSuccess: () => refresh(),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({
      name,
      fiscalYearStartMonth: Number(fiscalYearStartMonth),
      country: country.trim() || null,
      timeZone,
    });
  };
  return (
    <Card>
      <CardHeader
        title="Company"
        description={
          editable
            ? 'How your company appears and when its fiscal year starts.'
            : 'Only owners, admins and accountants can change these.'
        }
      />
      <form onSubmit={submit} className="grid gap-5 p-5 sm:grid-cols-2" noValidate>
        <div className="sm:col-span-2">
          {save.error ? (
            <Alert>
              {save.error instanceof ApiError ? save.error.message : 'Could not save. Please try again.'}
            </Alert>
          ) : null}
          {save.isSuccess ? <Alert tone="success">Company settings saved.</Alert> : null}
        </div>
        <TextField
          label="Company name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          disabled={!editable}
        />
        <TextField
          label="Base currency"
          value={company.baseCurrency}
          disabled
          hint="Set when the company was created."
        />
        <SelectField
          label="Fiscal year starts in"
          value={fiscalYearStartMonth}
          onChange={(e) => setFiscalYearStartMonth(e.target.value)}
          options={MONTH_OPTIONS}
          disabled={!editable}
        />
        <TextField
          label="Country (two-letter code)"
          value={country}
          maxLength={2}
          onChange={(e) => setCountry(e.target.value.toUpperCase())}
          disabled={!editable}
          placeholder="US"
        />
        <TextField
          label="Time zone"
          value={timeZone}
          onChange={(e) => setTimeZone(e.target.value)}
          disabled={!editable}
        />
        {editable ? (
          <div className="flex items-end justify-end sm:col-span-2">
            <Button type="submit" busy={save.isPending}>
              Save changes
            </Button>
          </div>
        ) : null}
      </form>
    </Card>
  );
};

import { type FormEvent, useEffect, useState } from 'react';
import type { UserProfile } from '../../../../shared/auth/profile.ts';
import {
  type ProfileDetails,
  type ProfileDetailsErrors,
  profileDetailsPatch,
  validateProfileDetails,
} from '../../../../shared/auth/profile-details.ts';
import { useAuth } from '../../../auth/AuthProvider.tsx';
import { TextField } from '../../../components/ui/Field.tsx';
import { Form } from '../../../components/ui/Form.tsx';
import { ApiError, api, errorText } from '../../../lib/api.ts';
import { useFormFields } from '../../../lib/useFormFields.ts';
import { Success } from '../security/Section.tsx';

// Names, display name, phone and job title, checked field by field with the server's rules
// (shared/auth/profile-details.ts) before saving; a refusal from the server lands on its field.

const detailsOf = (p: UserProfile | null): ProfileDetails => ({
  firstName: p?.firstName ?? '',
  lastName: p?.lastName ?? '',
  displayName: p?.displayName ?? '',
  phone: p?.phone ?? '',
  role: p?.role ?? '',
});

const FIELDS = ['firstName', 'lastName', 'displayName', 'phone', 'role'] as const;

/** The server's field messages (400 validation_failed details) for this form's fields. */
const serverFieldErrors = (error: unknown): ProfileDetailsErrors => {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return {};
  const errors: ProfileDetailsErrors = {};
  for (const d of error.details as { field?: string; message?: string }[]) {
    const field = FIELDS.find((f) => d.field === f);
    if (field && d.message) errors[field] = d.message;
  }
  return errors;
};

export const ProfileDetailsForm = () => {
  const { userProfile: profile, refreshProfile } = useAuth();
  const { values, set, bind } = useFormFields(detailsOf(profile));
  const [errors, setErrors] = useState<ProfileDetailsErrors>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const loadedFor = profile?.uid ?? null;

  // The profile arrives after the page: fill the form once per user.
  // biome-ignore lint/correctness/useExhaustiveDependencies: filled when the user changes, not on every save
  useEffect(() => {
    if (profile) set(detailsOf(profile));
  }, [loadedFor]);

  const field = (key: keyof ProfileDetails) => ({
    ...bind(key),
    error: errors[key] ?? null,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      bind(key).onChange(e);
      if (errors[key]) setErrors((current) => ({ ...current, [key]: undefined }));
      setDone(null);
    },
  });

  const submit = async (_event: FormEvent<HTMLFormElement>) => {
    if (busy) return;
    setDone(null);
    setProblem(null);
    const found = validateProfileDetails(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setProblem('Please correct the fields marked below.');
      return;
    }
    setBusy(true);
    try {
      const saved = profileDetailsPatch(values);
      await api.patch('/me/profile', saved);
      await refreshProfile();
      set(saved);
      setDone('Profile saved.');
    } catch (error) {
      const fromServer = serverFieldErrors(error);
      setErrors(fromServer);
      setProblem(
        Object.keys(fromServer).length > 0 ? 'Please correct the fields marked below.' : errorText(error),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Success message={done} />
      <Form onSubmit={submit} error={problem} busy={busy} submitLabel={busy ? 'Saving...' : 'Save profile'}>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="First name" autoComplete="given-name" required {...field('firstName')} />
          <TextField label="Last name" autoComplete="family-name" required {...field('lastName')} />
          <TextField
            label="Display name"
            autoComplete="nickname"
            hint="How your name shows in Kontor. Left empty, your first and last name."
            {...field('displayName')}
          />
          <TextField label="Job title" autoComplete="organization-title" {...field('role')} />
          <TextField label="Phone" type="tel" autoComplete="tel" inputMode="tel" {...field('phone')} />
        </div>
      </Form>
    </>
  );
};

import { type FormEvent, useEffect, useMemo, useState } from 'react';
import type { Theme, UserProfile } from '../../../shared/auth/profile.ts';
import {
  DATE_FORMATS,
  type DateFormat,
  LANGUAGES,
  dateFormatExample,
  formatterFor,
} from '../../../shared/format.ts';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card, CardError, CardHeader } from '../../components/ui/Card.tsx';
import { SelectField } from '../../components/ui/Field.tsx';
import { ApiError, api, errorText } from '../../lib/api.ts';
import { browserTimeZone, currencyOptions } from '../../lib/format.ts';
import { type ThemeMode, useTheme } from '../../lib/theme.tsx';
import { useAction } from '../../lib/useAction.ts';

// Settings → Preferences: the signed-in user's theme, language, display currency, date
// format and time zone (SPEC section 3). Theme applies and saves at once; the rest is saved
// with the form and from then on every screen, PDF, email and notification made for (or by)
// this user writes dates and amounts with it (docs/formatting.md).

const THEME_CHOICES: { value: Theme; label: string; hint: string }[] = [
  { value: 'light', label: 'Light', hint: 'Always light' },
  { value: 'dark', label: 'Dark', hint: 'Always dark' },
  { value: 'system', label: 'System', hint: "Follows this device's setting" },
];

/** Every IANA time zone this browser knows, UTC first (Chromium leaves it out of its list). */
const timeZoneOptions = (current: string) => {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const all = ['UTC', ...zones.filter((z) => z !== 'UTC')];
  if (current && !all.includes(current)) all.unshift(current);
  return all.map((z) => ({ value: z, label: z.replace(/_/g, ' ') }));
};

type Fields = { language: string; currency: string; dateFormat: DateFormat; timezone: string };

const fieldsOf = (p: UserProfile): Fields => ({
  language: p.preferences.language,
  currency: p.preferences.currency,
  dateFormat: p.preferences.dateFormat,
  timezone: p.timezone,
});

/** The API's field messages ("timezone", "preferences.dateFormat") by field name. */
const fieldErrors = (error: unknown): Partial<Record<keyof Fields, string>> => {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return {};
  const out: Partial<Record<keyof Fields, string>> = {};
  for (const d of error.details as { field?: string; message?: string }[]) {
    const name = String(d.field ?? '')
      .split('.')
      .pop() as keyof Fields;
    if (name && d.message) out[name] = d.message;
  }
  return out;
};

const ThemePicker = () => {
  const { userProfile, refreshProfile } = useAuth();
  const { mode, setMode } = useTheme();
  const { busy, error, run } = useAction();
  const choose = (next: ThemeMode) =>
    run(async () => {
      setMode(next); // applies at once on this device (stored under 'theme')
      if (userProfile?.preferences.theme !== next) {
        await api.patch('/me/profile', { preferences: { theme: next } });
        await refreshProfile();
      }
    });
  return (
    <fieldset className="sm:col-span-2" aria-busy={busy}>
      <legend className="text-sm font-medium text-slate-700 dark:text-slate-300">Theme</legend>
      {error ? <Alert>{error}</Alert> : null}
      <div className="mt-2 grid gap-2 sm:grid-cols-3">
        {THEME_CHOICES.map((choice) => (
          <label
            key={choice.value}
            className={`flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border px-3 py-2 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${
              mode === choice.value
                ? 'border-brand-600 bg-brand-50 text-brand-900 dark:border-brand-400 dark:bg-brand-950/40 dark:text-brand-100'
                : 'border-slate-300 text-slate-700 dark:border-slate-700 dark:text-slate-300'
            }`}
          >
            <input
              type="radio"
              name="theme"
              value={choice.value}
              checked={mode === choice.value}
              onChange={() => void choose(choice.value)}
              className="h-4 w-4 accent-brand-600"
            />
            <span>
              <span className="block font-medium">{choice.label}</span>
              <span className="block text-xs text-slate-600 dark:text-slate-300">{choice.hint}</span>
            </span>
          </label>
        ))}
      </div>
      <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
        Applies at once and is saved to your profile; the header's switch changes it on this device only.
      </p>
    </fieldset>
  );
};

const PreferencesForm = ({ profile }: { profile: UserProfile }) => {
  const { refreshProfile } = useAuth();
  const [v, setV] = useState<Fields>(() => fieldsOf(profile));
  const [saved, setSaved] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<keyof Fields, string>>>({});
  const { busy, error, setError, run } = useAction();
  const set = (patch: Partial<Fields>) => {
    setV((current) => ({ ...current, ...patch }));
    setSaved(false);
  };
  const zones = useMemo(() => timeZoneOptions(v.timezone), [v.timezone]);
  const currencies = useMemo(() => currencyOptions(), []);
  const preview = formatterFor({ dateFormat: v.dateFormat, language: v.language, timeZone: v.timezone });
  const browserZone = browserTimeZone();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    const ok = await run(
      async () => {
        try {
          await api.patch('/me/profile', {
            timezone: v.timezone,
            preferences: { language: v.language, currency: v.currency, dateFormat: v.dateFormat },
          });
        } catch (e) {
          setErrors(fieldErrors(e));
          throw e;
        }
        await refreshProfile();
      },
      {
        message: (e) =>
          e instanceof ApiError && e.status === 400 ? 'Please check the fields below.' : errorText(e),
      },
    );
    setSaved(ok);
    if (!ok) return;
    setError(null);
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="grid gap-5 p-5 sm:grid-cols-2" noValidate>
      <ThemePicker />
      <div className="sm:col-span-2" aria-live="polite">
        {error ? <Alert>{error}</Alert> : null}
        {saved ? <Alert tone="success">Preferences saved. Dates and amounts now follow them.</Alert> : null}
      </div>
      <SelectField
        label="Language"
        name="language"
        value={v.language}
        onChange={(e) => set({ language: e.target.value })}
        options={LANGUAGES.map((l) => ({ value: l.code, label: l.name }))}
        error={errors.language}
        hint="Kontor is in English only for now. Numbers follow the US style: 1,234.56, with the currency symbol first."
      />
      <SelectField
        label="Display currency"
        name="currency"
        value={v.currency}
        onChange={(e) => set({ currency: e.target.value })}
        options={currencies}
        error={errors.currency}
        hint="The base currency a new company you create starts with. Amounts are never converted to it: each shows in its own currency (a company's books in its base currency)."
      />
      <SelectField
        label="Date format"
        name="dateFormat"
        value={v.dateFormat}
        onChange={(e) => set({ dateFormat: e.target.value as DateFormat })}
        options={DATE_FORMATS.map((f) => ({ value: f, label: `${f} (${dateFormatExample(f)})` }))}
        error={errors.dateFormat}
        hint="On every screen, PDF and email. CSV files always use YYYY-MM-DD."
      />
      <div className="grid gap-1">
        <SelectField
          label="Time zone"
          name="timezone"
          value={v.timezone}
          onChange={(e) => set({ timezone: e.target.value })}
          options={zones}
          error={errors.timezone}
          hint="Times of day (sign-ins, history, emails) show in this zone."
        />
        {browserZone !== v.timezone ? (
          <button
            type="button"
            onClick={() => set({ timezone: browserZone })}
            className="min-h-11 self-start rounded-lg px-2 text-left text-sm font-medium text-brand-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-300"
          >
            Use this device's zone ({browserZone.replace(/_/g, ' ')})
          </button>
        ) : null}
      </div>
      <div className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700 sm:col-span-2 dark:bg-slate-800/60 dark:text-slate-300">
        <p className="font-medium text-slate-900 dark:text-white">Preview</p>
        <dl className="mt-1 grid gap-x-4 gap-y-1 sm:grid-cols-[auto_1fr]">
          <dt className="text-slate-500 dark:text-slate-400">A date</dt>
          <dd>{preview.date('2026-11-21')}</dd>
          <dt className="text-slate-500 dark:text-slate-400">Now</dt>
          <dd>{preview.dateTime(Date.now())}</dd>
          <dt className="text-slate-500 dark:text-slate-400">An amount</dt>
          <dd>{preview.amount(123456789, v.currency)}</dd>
        </dl>
      </div>
      <div className="flex items-end justify-end sm:col-span-2">
        <Button type="submit" busy={busy}>
          Save preferences
        </Button>
      </div>
    </form>
  );
};

export const PreferencesSettings = () => {
  const { userProfile, currentUser, refreshProfile } = useAuth();
  const { error, run } = useAction();
  const profile = userProfile && currentUser && userProfile.uid === currentUser.id ? userProfile : null;
  // The profile normally arrives with the session; read it here when it has not.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per missing profile
  useEffect(() => {
    if (!profile) void run(refreshProfile);
  }, [profile === null]);
  return (
    <Card>
      <CardHeader
        title="Preferences"
        description="How Kontor looks and how it writes dates, times and amounts for you."
      />
      {profile ? (
        <PreferencesForm key={profile.uid} profile={profile} />
      ) : error ? (
        <CardError message={error} onRetry={() => void run(refreshProfile)} />
      ) : (
        <div className="p-5">
          <Spinner label="Loading your preferences..." />
        </div>
      )}
    </Card>
  );
};

export default PreferencesSettings;

import { Fragment, type ReactNode, createContext, useContext, useEffect, useMemo, useRef } from 'react';
import {
  DEFAULT_FORMAT_PREFERENCES,
  type FormatPreferences,
  type Formatter,
  defaultFormatter,
  formatterFor,
} from '../../shared/format.ts';
import { useAuth } from './AuthProvider.tsx';
import { installFormatter } from '../lib/format.ts';
import { isThemeMode, storedThemeChoice, useTheme } from '../lib/theme.tsx';

// The signed-in user's display preferences, applied to the whole web app: every function of
// lib/format.ts writes with them from the moment the profile is known (the cached profile
// shows at once, then the fresh one), and signed-out pages use the defaults. docs/formatting.md.

type PreferencesValue = { prefs: FormatPreferences; format: Formatter; signedIn: boolean };

const PreferencesContext = createContext<PreferencesValue | null>(null);

/** The format preferences a profile implies (its date format, language and time zone). */
export const formatPreferencesOf = (
  profile: { timezone?: string; preferences?: { dateFormat?: string; language?: string } } | null,
): FormatPreferences =>
  profile
    ? {
        dateFormat: (profile.preferences?.dateFormat ??
          DEFAULT_FORMAT_PREFERENCES.dateFormat) as FormatPreferences['dateFormat'],
        language: profile.preferences?.language ?? DEFAULT_FORMAT_PREFERENCES.language,
        timeZone: profile.timezone ?? DEFAULT_FORMAT_PREFERENCES.timeZone,
      }
    : DEFAULT_FORMAT_PREFERENCES;

const DEFAULT_SIGNATURE = `${DEFAULT_FORMAT_PREFERENCES.dateFormat}|${DEFAULT_FORMAT_PREFERENCES.language}|${DEFAULT_FORMAT_PREFERENCES.timeZone}`;

/** What the pages were drawn with: the defaults until a profile with other preferences is known. */
const drawnWith = ({ user, signature }: { user: string | null; signature: string | null }) =>
  signature === null || signature === DEFAULT_SIGNATURE ? 'defaults' : `${user}:${signature}`;

export const PreferencesProvider = ({ children }: { children: ReactNode }) => {
  const { currentUser, userProfile } = useAuth();
  const { setMode } = useTheme();
  const profile = currentUser && userProfile?.uid === currentUser.id ? userProfile : null;
  const prefs = formatPreferencesOf(profile);
  const signature = `${prefs.dateFormat}|${prefs.language}|${prefs.timeZone}`;
  // Set during render so that the children of this very render already write with them.
  const signedIn = profile !== null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the signature stands for prefs
  const format = useMemo(() => (signedIn ? formatterFor(prefs) : defaultFormatter), [signature, signedIn]);
  installFormatter(format);

  // Pages drawn before the profile was known are drawn again once, with its preferences;
  // later changes (saved in Settings → Preferences) show on every page drawn after them.
  const firstKnown = useRef<{ user: string | null; signature: string | null }>({
    user: null,
    signature: null,
  });
  const user = currentUser?.id ?? null;
  if (firstKnown.current.user !== user) firstKnown.current = { user, signature: null };
  if (profile && firstKnown.current.signature === null) firstKnown.current.signature = signature;

  // On a device where no theme was ever chosen, a theme the user chose in their profile
  // applies (the seed default 'light' is not a choice: the device's own setting stays).
  const profileTheme = profile?.preferences.theme;
  useEffect(() => {
    if (profileTheme && isThemeMode(profileTheme) && profileTheme !== 'light' && storedThemeChoice() === null)
      setMode(profileTheme);
  }, [profileTheme, setMode]);

  const value = useMemo(() => ({ prefs: format.prefs, format, signedIn }), [format, signedIn]);
  return (
    <PreferencesContext.Provider value={value}>
      <Fragment key={drawnWith(firstKnown.current)}>{children}</Fragment>
    </PreferencesContext.Provider>
  );
};

/** The preferences in use and the formatter built from them (defaults outside the provider). */
export const usePreferences = (): PreferencesValue => {
  const value = useContext(PreferencesContext);
  return value ?? { prefs: DEFAULT_FORMAT_PREFERENCES, format: defaultFormatter, signedIn: false };
};

import {
  DEFAULT_PREFERENCES,
  type Preferences,
  type ProfilePatch,
  type SecurityBlock,
  type SignupProfile,
  type UserProfile,
  fallbackDisplayName,
  isTheme,
  signupProfileSchema,
} from '../../../shared/auth/profile.ts';
import { notFound } from '../../../shared/errors.ts';
import { type FormatPreferences, isDateFormat } from '../../../shared/format.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import {
  type ProfileRow,
  type ProfileUpdate,
  findAuthUser,
  findProfileRow,
  insertProfileIfMissing,
  updateProfileRow,
} from './queries.ts';

// The user profile of SPEC section 3. Created with every default when the account is
// created (the sign-up payload merged in); a user who has none gets the minimal fallback
// profile on first read. Only the owner reads or writes it: every function takes the
// signed-in user's id from the session, never from the request.

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const mergePreferences = (stored: unknown): Preferences => {
  const p = (stored ?? {}) as Partial<Preferences>;
  return {
    ...DEFAULT_PREFERENCES,
    ...p,
    theme: isTheme(p.theme) ? p.theme : DEFAULT_PREFERENCES.theme,
    dateFormat: isDateFormat(p.dateFormat) ? p.dateFormat : DEFAULT_PREFERENCES.dateFormat,
    notifications: {
      email: { ...DEFAULT_PREFERENCES.notifications.email, ...p.notifications?.email },
      push: { ...DEFAULT_PREFERENCES.notifications.push, ...p.notifications?.push },
    },
  };
};

const mergeSecurity = (stored: unknown, twoFactorEnabled: boolean): SecurityBlock => {
  const s = (stored ?? {}) as Partial<SecurityBlock>;
  return {
    lastPasswordChange: s.lastPasswordChange ?? null,
    loginAlerts: s.loginAlerts ?? true,
    twoFactorSetupAt: twoFactorEnabled ? (s.twoFactorSetupAt ?? null) : null,
    // The auth user row is the source of truth for whether 2FA is on.
    twoFactorEnabled,
  };
};

const toProfile = (row: ProfileRow): UserProfile => ({
  uid: row.user_id,
  email: row.email,
  emailVerified: row.email_verified,
  photoURL: row.photo_url,
  createdAt: iso(row.created_at)!,
  lastLoginAt: iso(row.last_login_at),
  updatedAt: iso(row.updated_at)!,
  isActive: row.is_active,
  firstName: row.first_name,
  lastName: row.last_name,
  displayName: row.display_name,
  phone: row.phone,
  company: row.company,
  role: row.role,
  timezone: row.timezone,
  preferences: mergePreferences(row.preferences),
  security: mergeSecurity(row.security, row.two_factor_enabled === true),
});

/** The full profile written at sign-up: SPEC's defaults with the sign-up payload merged in. */
export const createSignupProfile = async (
  ctx: AppContext,
  user: { id: string; email: string; name: string; createdAt: Date },
  payload: unknown,
) => {
  const parsed = signupProfileSchema.safeParse(payload ?? {});
  const extra: Partial<SignupProfile> = parsed.success ? parsed.data : {};
  const now = ctx.now();
  const displayName =
    extra.displayName || `${extra.firstName ?? ''} ${extra.lastName ?? ''}`.trim() || user.name.trim();
  await insertProfileIfMissing(ctx.database.db, {
    userId: user.id,
    email: user.email.trim().toLowerCase(),
    firstName: extra.firstName ?? '',
    lastName: extra.lastName ?? '',
    displayName,
    phone: extra.phone ?? '',
    company: extra.company ?? '',
    role: extra.role ?? '',
    timezone: extra.timezone || 'UTC',
    preferences: DEFAULT_PREFERENCES,
    security: {
      twoFactorEnabled: false,
      lastPasswordChange: now.toISOString(),
      loginAlerts: true,
      twoFactorSetupAt: null,
    } satisfies SecurityBlock,
    createdAt: now,
    lastLoginAt: now,
  });
};

/** The minimal fallback profile (SPEC section 3), written only when none exists. */
const createFallbackProfile = async (db: Db, ctx: AppContext, userId: string) => {
  const user = await findAuthUser(db, userId);
  if (!user) throw notFound('No such user.');
  const now = ctx.now();
  await insertProfileIfMissing(db, {
    userId,
    email: user.email,
    firstName: '',
    lastName: '',
    displayName: fallbackDisplayName(user.name, user.email),
    phone: '',
    company: '',
    role: '',
    timezone: 'UTC',
    preferences: DEFAULT_PREFERENCES,
    security: { loginAlerts: true },
    createdAt: now,
    lastLoginAt: null,
  });
};

/** The signed-in user's profile; a missing one is created (fallback) and read again. */
export const getOwnProfile = async (ctx: AppContext, userId: string): Promise<UserProfile> => {
  const db = ctx.database.db;
  let row = await findProfileRow(db, userId);
  if (!row) {
    await createFallbackProfile(db, ctx, userId);
    row = await findProfileRow(db, userId);
  }
  if (!row) throw notFound('No profile for this user.');
  return toProfile(row);
};

/** The text fields a patch sets as they come, and their columns. */
const PATCH_COLUMNS = {
  firstName: 'first_name',
  lastName: 'last_name',
  displayName: 'display_name',
  phone: 'phone',
  company: 'company',
  role: 'role',
  timezone: 'timezone',
  photoURL: 'photo_url',
} as const satisfies Partial<Record<keyof ProfilePatch, keyof ProfileUpdate>>;
type TextColumn = (typeof PATCH_COLUMNS)[keyof typeof PATCH_COLUMNS];

/** Applies a validated patch; unknown theme values are ignored, as SPEC section 4 says. */
export const updateOwnProfile = async (
  ctx: AppContext,
  userId: string,
  patch: ProfilePatch,
): Promise<UserProfile> => {
  const current = await getOwnProfile(ctx, userId);
  const values: Parameters<typeof updateProfileRow>[2] = { updated_at: ctx.now() };
  for (const [field, column] of Object.entries(PATCH_COLUMNS) as [keyof typeof PATCH_COLUMNS, TextColumn][]) {
    const value = patch[field];
    if (value !== undefined) values[column] = value;
  }
  if (patch.preferences) {
    const { theme, notifications, ...rest } = patch.preferences;
    const next: Preferences = {
      ...current.preferences,
      ...rest,
      theme: isTheme(theme) ? theme : current.preferences.theme,
      notifications: {
        email: { ...current.preferences.notifications.email, ...notifications?.email },
        push: { ...current.preferences.notifications.push, ...notifications?.push },
      },
    };
    values.preferences = JSON.stringify(next);
  }
  if (patch.security) {
    values.security = JSON.stringify({ ...current.security, ...patch.security });
  }
  await updateProfileRow(ctx.database.db, userId, values);
  return getOwnProfile(ctx, userId);
};

/** Login merges lastLoginAt and updatedAt (SPEC section 4). */
export const recordLogin = async (ctx: AppContext, userId: string) => {
  const now = ctx.now();
  const res = await updateProfileRow(ctx.database.db, userId, { last_login_at: now, updated_at: now });
  if (Number(res.numUpdatedRows) === 0) {
    await createFallbackProfile(ctx.database.db, ctx, userId);
    await updateProfileRow(ctx.database.db, userId, { last_login_at: now, updated_at: now });
  }
};

/** Security-block facts the auth flows record (password change, 2FA on/off). */
export const recordSecurityEvent = async (
  ctx: AppContext,
  userId: string,
  event: 'password-changed' | 'two-factor-enabled' | 'two-factor-disabled',
) => {
  const current = await getOwnProfile(ctx, userId);
  const now = ctx.now().toISOString();
  const security = { ...current.security };
  if (event === 'password-changed') security.lastPasswordChange = now;
  if (event === 'two-factor-enabled') security.twoFactorSetupAt = now;
  if (event === 'two-factor-disabled') security.twoFactorSetupAt = null;
  await updateProfileRow(ctx.database.db, userId, {
    security: JSON.stringify(security),
    updated_at: ctx.now(),
  });
};

/**
 * The format preferences (date format, language, time zone) of a user, for what the server
 * writes for them or in their name: PDFs, emails, notifications. No user → null.
 */
export const formatPreferencesOfUser = async (
  ctx: AppContext,
  userId: string | null | undefined,
  db: Db = ctx.database.db,
): Promise<FormatPreferences | null> => {
  if (!userId) return null;
  const row = await findProfileRow(db, userId);
  if (!row) return null;
  const p = mergePreferences(row.preferences);
  return { dateFormat: p.dateFormat, language: p.language, timeZone: row.timezone };
};

export const loginAlertsEnabled = async (ctx: AppContext, userId: string) =>
  (await getOwnProfile(ctx, userId)).security.loginAlerts;

/** Brings the profile's 2FA facts in line with the auth user row after a 2FA change. */
export const syncTwoFactor = async (ctx: AppContext, userId: string) => {
  const user = await findAuthUser(ctx.database.db, userId);
  if (!user) return;
  await getOwnProfile(ctx, userId); // creates the fallback profile if there is none
  const enabled = user.twoFactorEnabled === true;
  const row = await findProfileRow(ctx.database.db, userId);
  const stored = (row?.security ?? {}) as { twoFactorSetupAt?: string | null };
  if (enabled && !stored.twoFactorSetupAt) await recordSecurityEvent(ctx, userId, 'two-factor-enabled');
  if (!enabled && stored.twoFactorSetupAt) await recordSecurityEvent(ctx, userId, 'two-factor-disabled');
};

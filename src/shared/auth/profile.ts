import { z } from 'zod';
import { PROFILE_MESSAGES, profileNameSchema, profilePhoneSchema } from './profile-details.ts';
import { DATE_FORMATS, LANGUAGES, isTimeZone } from '../format.ts';
import { isCurrencyCode } from '../money.ts';

// The user profile of SPEC section 3, its defaults, and what a user may change.

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];

/** Which notifications a user gets on one channel (email or push). */
const notificationChannelsSchema = z.object({
  transactions: z.boolean(),
  invoices: z.boolean(),
  payments: z.boolean(),
  security: z.boolean(),
});
export type NotificationChannels = z.infer<typeof notificationChannelsSchema>;

export type Preferences = {
  theme: Theme;
  language: string;
  currency: string;
  dateFormat: (typeof DATE_FORMATS)[number];
  notifications: { email: NotificationChannels; push: NotificationChannels };
};

export type SecurityBlock = {
  twoFactorEnabled: boolean;
  lastPasswordChange: string | null;
  loginAlerts: boolean;
  twoFactorSetupAt: string | null;
};

export type UserProfile = SignupProfile & {
  uid: string;
  email: string;
  emailVerified: boolean;
  photoURL: string;
  createdAt: string;
  lastLoginAt: string | null;
  updatedAt: string;
  isActive: boolean;
  preferences: Preferences;
  security: SecurityBlock;
};

export const DEFAULT_PREFERENCES: Preferences = {
  theme: 'light',
  language: 'en',
  currency: 'USD',
  dateFormat: 'MM/DD/YYYY',
  notifications: {
    email: { transactions: true, invoices: true, payments: true, security: true },
    push: { transactions: true, invoices: false, payments: true, security: true },
  },
};

/** displayName of the fallback profile: the display name, else the email's local part, else 'User'. */
export const fallbackDisplayName = (
  displayName: string | null | undefined,
  email: string | null | undefined,
) => displayName?.trim() || email?.split('@')[0]?.trim() || 'User';

const text = (max: number) => z.string().trim().max(max);

/** The profile part of the sign-up payload (SPEC section 3). */
export const signupProfileSchema = z.object({
  firstName: text(100).default(''),
  lastName: text(100).default(''),
  displayName: text(200).optional(),
  phone: text(40).default(''),
  company: text(200).default(''),
  role: text(100).default(''),
  timezone: text(64).default('UTC'),
});
/** A profile as sign-up stores it: every field of the payload, the display name filled in. */
export type SignupProfile = Required<z.output<typeof signupProfileSchema>>;

/** The sign-up payload the form sends: first and last name joined, browser time zone. */
export const buildSignupProfile = (firstName: string, lastName: string, timezone: string): SignupProfile => ({
  firstName: firstName.trim(),
  lastName: lastName.trim(),
  displayName: `${firstName.trim()} ${lastName.trim()}`.trim(),
  phone: '',
  company: '',
  role: '',
  timezone,
});

const LANGUAGE_CODES = LANGUAGES.map((l) => l.code) as [string, ...string[]];

/** An IANA time zone the runtime knows; anything else is refused with the name it was given. */
export const timeZoneSchema = z
  .string()
  .trim()
  .max(64)
  .superRefine((value, ctx) => {
    if (!isTimeZone(value))
      ctx.addIssue({
        code: 'custom',
        message: `Unknown time zone "${value}". Use an IANA name such as Europe/Berlin or America/New_York.`,
      });
  });

const channelsPatch = notificationChannelsSchema.partial().strict();

// Theme accepts any string so that an unknown value is ignored, not refused (SPEC section 4).
export const profilePatchSchema = z
  .object({
    // Names, phone and job title (role) as the Profile form checks them (profile-details.ts).
    firstName: profileNameSchema(PROFILE_MESSAGES.firstName),
    lastName: profileNameSchema(PROFILE_MESSAGES.lastName),
    displayName: text(200),
    phone: profilePhoneSchema,
    company: text(200),
    role: text(100),
    timezone: timeZoneSchema,
    photoURL: z.union([z.literal(''), z.url().max(2000)]),
    preferences: z
      .object({
        theme: z.string().max(32),
        language: z.enum(LANGUAGE_CODES, {
          error: `must be a language the app has: ${LANGUAGES.map((l) => `${l.code} (${l.name})`).join(', ')}`,
        }),
        currency: z
          .string()
          .regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 code such as USD')
          .refine(isCurrencyCode, 'is not a currency code this app knows (ISO 4217, such as USD or EUR)'),
        dateFormat: z.enum(DATE_FORMATS, { error: `must be one of ${DATE_FORMATS.join(', ')}` }),
        notifications: z.object({ email: channelsPatch, push: channelsPatch }).partial().strict(),
      })
      .partial()
      .strict(),
    security: z.object({ loginAlerts: z.boolean() }).partial().strict(),
  })
  .partial()
  .strict();

export type ProfilePatch = z.infer<typeof profilePatchSchema>;

export const isTheme = (value: unknown): value is Theme =>
  typeof value === 'string' && (THEMES as readonly string[]).includes(value);

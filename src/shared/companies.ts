import { z } from 'zod';

// Companies, members and invitations: what the browser and the server agree on.

export const ROLES = ['owner', 'admin', 'accountant', 'member', 'viewer'] as const;
export type RoleName = (typeof ROLES)[number];
export const INVITABLE_ROLES = ['admin', 'accountant', 'member', 'viewer'] as const;

export const ROLE_LABELS: Record<RoleName, string> = {
  owner: 'Owner',
  admin: 'Admin',
  accountant: 'Accountant',
  member: 'Member',
  viewer: 'Viewer',
};

export const ROLE_DESCRIPTIONS: Record<RoleName, string> = {
  owner: 'Full access, including members and company settings.',
  admin: 'Full access, including members and company settings.',
  accountant: 'Records, posts and approves entries; manages the lock date and chart of accounts.',
  member: 'Records and posts day-to-day work; cannot change settings.',
  viewer: 'Read-only access to the books and reports.',
};

const currencyCode = z
  .string()
  .trim()
  .toUpperCase()
  .refine((c) => /^[A-Z]{3}$/.test(c) && Intl.supportedValuesOf('currency').includes(c), {
    message: 'Choose a valid currency (ISO 4217 code such as USD or EUR).',
  });

const timeZone = z.string().refine(
  (tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  },
  { message: 'Choose a valid time zone, such as Europe/Berlin.' },
);

/** A two-letter ISO 3166 country code, upper-cased. */
const countryCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{2}$/, 'Country must be a two-letter code such as US or DE.');

export const companyNameSchema = z
  .string()
  .trim()
  .min(2, 'Company name must be at least 2 characters.')
  .max(120, 'Company name must be at most 120 characters.');

export const createCompanySchema = z.object({
  name: companyNameSchema,
  baseCurrency: currencyCode,
  fiscalYearStartMonth: z.coerce
    .number()
    .int()
    .min(1, 'Fiscal year start must be a month from 1 to 12.')
    .max(12, 'Fiscal year start must be a month from 1 to 12.')
    .default(1),
  country: countryCode.nullable().optional(),
  timeZone: timeZone.default('UTC'),
});
export type CreateCompanyInput = z.input<typeof createCompanySchema>;

export const updateCompanySchema = z
  .object({
    name: companyNameSchema,
    fiscalYearStartMonth: z.coerce.number().int().min(1).max(12),
    country: countryCode.nullable(),
    timeZone,
  })
  .partial()
  .refine((v) => Object.keys(v).length > 0, { message: 'Nothing to change.' });

export const companySchema = z.object({
  id: z.string(),
  name: z.string(),
  baseCurrency: z.string(),
  fiscalYearStartMonth: z.number(),
  country: z.string().nullable(),
  timeZone: z.string(),
  createdAt: z.string(),
});
export type Company = z.infer<typeof companySchema>;

export const myCompanySchema = companySchema.extend({
  role: z.enum(ROLES),
  permissions: z.array(z.string()),
});
export type MyCompany = z.infer<typeof myCompanySchema>;

export const memberSchema = z.object({
  userId: z.string(),
  name: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  joinedAt: z.string(),
});
export type Member = z.infer<typeof memberSchema>;

export const inviteSchema = z.object({
  email: z.string().trim().toLowerCase().email('Please enter a valid email address.'),
  role: z.enum(INVITABLE_ROLES, { error: 'Choose a role: admin, accountant, member or viewer.' }),
});

export const invitationSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  email: z.string(),
  role: z.enum(INVITABLE_ROLES),
  status: z.enum(['pending', 'accepted', 'declined', 'revoked']),
  invitedBy: z.string(),
  expiresAt: z.string(),
  createdAt: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const INVITATION_DAYS = 7;

export const companyListSchema = z.object({ companies: z.array(myCompanySchema) });
export const memberListSchema = z.object({ members: z.array(memberSchema) });
export const invitationListSchema = z.object({ invitations: z.array(invitationSchema) });
export const memberRoleChangeSchema = z.object({
  role: z.enum(ROLES, { error: 'Choose a role: owner, admin, accountant, member or viewer.' }),
});
export const memberRoleSchema = z.object({ userId: z.string(), role: z.enum(ROLES) });
export const invitationAnswerParamsSchema = z.object({
  invitationId: z.string().min(1),
  answer: z.enum(['accept', 'decline']),
});
export const invitationAnswerSchema = z.object({
  organizationId: z.string(),
  status: z.enum(['accepted', 'declined']),
});

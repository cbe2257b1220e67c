import type { SignupProfile } from '../../../shared/auth/profile.ts';
import type { Db } from '../../db/client.ts';

// SQL for user profiles. Every query is keyed by the user's id: a profile is read and
// written only by its owner, and the service passes the signed-in user's id.

/** The fields sign-up stores (names, phone, company, role, time zone) and the rest of a new row. */
export type ProfileInsert = SignupProfile & {
  userId: string;
  email: string;
  preferences: unknown;
  security: unknown;
  createdAt: Date;
  lastLoginAt: Date | null;
};

export const findProfileRow = (db: Db, userId: string) =>
  db
    .selectFrom('user_profiles')
    .innerJoin('user', 'user.id', 'user_profiles.user_id')
    .selectAll('user_profiles')
    .select(['user.emailVerified as email_verified', 'user.twoFactorEnabled as two_factor_enabled'])
    .where('user_profiles.user_id', '=', userId)
    .executeTakeFirst();

export type ProfileRow = NonNullable<Awaited<ReturnType<typeof findProfileRow>>>;

/** Inserts a profile unless one exists; returns whether it wrote. */
export const insertProfileIfMissing = async (db: Db, p: ProfileInsert) => {
  const res = await db
    .insertInto('user_profiles')
    .values({
      user_id: p.userId,
      email: p.email,
      first_name: p.firstName,
      last_name: p.lastName,
      display_name: p.displayName,
      phone: p.phone,
      company: p.company,
      role: p.role,
      timezone: p.timezone,
      preferences: JSON.stringify(p.preferences),
      security: JSON.stringify(p.security),
      created_at: p.createdAt,
      last_login_at: p.lastLoginAt,
      updated_at: p.createdAt,
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return res !== undefined;
};

export type ProfileUpdate = Partial<{
  first_name: string;
  last_name: string;
  display_name: string;
  phone: string;
  company: string;
  role: string;
  timezone: string;
  photo_url: string;
  email: string;
  preferences: string;
  security: string;
  last_login_at: Date;
  updated_at: Date;
}>;

export const updateProfileRow = (db: Db, userId: string, values: ProfileUpdate) =>
  db.updateTable('user_profiles').set(values).where('user_id', '=', userId).executeTakeFirst();

export const findAuthUser = (db: Db, userId: string) =>
  db
    .selectFrom('user')
    .select(['id', 'email', 'name', 'emailVerified', 'twoFactorEnabled', 'createdAt', 'banned'])
    .where('id', '=', userId)
    .executeTakeFirst();

import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { exactTimestamp } from '../../db/cursor.ts';
import type { Executor } from '../../db/transaction.ts';
import { adminExpression } from './guard.ts';

// SQL for the admin console's users: every user with their profile's last sign-in, their
// billing account's plan and whether they are an admin; their companies with role and size.

/** `%text%` for ILIKE with the text's own % and _ taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export const userRowsQuery = (ctx: AppContext, db: Executor) =>
  db
    .selectFrom('user')
    .leftJoin('user_profiles as p', 'p.user_id', 'user.id')
    .leftJoin('billing_accounts as b', 'b.user_id', 'user.id')
    .select([
      'user.id',
      'user.email',
      'user.name',
      'user.createdAt',
      'user.emailVerified',
      'user.twoFactorEnabled',
      'user.banned',
      'user.banReason',
      'p.last_login_at',
      'b.plan',
      'b.interval',
      'b.status',
      'b.trial_ends_at',
      'b.current_period_end',
      'b.cancel_at_period_end',
      'b.provider',
    ])
    .select(adminExpression(ctx).as('is_admin'))
    .select(exactTimestamp('user.createdAt').as('created_exact'));

export type UserRow = Awaited<ReturnType<ReturnType<typeof userRowsQuery>['executeTakeFirstOrThrow']>>;

export const findUserRow = (ctx: AppContext, db: Executor, userId: string) =>
  userRowsQuery(ctx, db).where('user.id', '=', userId).executeTakeFirst();

/**
 * The companies a user belongs to: role, members, and whether the user is the only one in
 * charge (no other owner or admin), which is what deleting the user deletes.
 */
export const selectUserCompanies = (db: Executor, userId: string) =>
  db
    .selectFrom('organization_members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .where('m.user_id', '=', userId)
    .select([
      'o.id',
      'o.name',
      'o.base_currency',
      'o.created_at',
      'm.role',
      'm.created_at as joined_at',
      sql<number>`(select count(*)::int from organization_members x where x.organization_id = o.id)`.as(
        'members',
      ),
      sql<number>`(select count(*)::int from organization_members x where x.organization_id = o.id and x.user_id <> ${userId} and x.role = 'owner')`.as(
        'other_owners',
      ),
      sql<number>`(select count(*)::int from organization_members x where x.organization_id = o.id and x.user_id <> ${userId} and x.role = 'admin')`.as(
        'other_admins',
      ),
    ])
    .orderBy('o.name')
    .orderBy('o.id')
    .execute();

export type UserCompanyRow = Awaited<ReturnType<typeof selectUserCompanies>>[number];

/** Deleting the user deletes the company: they own it and nobody else owns or runs it. */
export const goesWithUser = (c: UserCompanyRow) =>
  c.role === 'owner' && Number(c.other_owners) === 0 && Number(c.other_admins) === 0;

export const countLiveSessions = async (db: Executor, userId: string, now: Date) =>
  Number(
    (
      await db
        .selectFrom('session')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('userId', '=', userId)
        .where('expiresAt', '>', now)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** How much a company holds, for a user's export: row counts of its main tables. */
export const companyCounts = async (db: Executor, organizationId: string) => {
  const tables = [
    'accounts',
    'journal_entries',
    'customers',
    'invoices',
    'suppliers',
    'bills',
    'money_accounts',
    'bank_transactions',
  ] as const;
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
};

import type { z } from 'zod';
import type {
  AdminUserDetail,
  AdminUserRow,
  adminDeleteUserSchema,
  adminDisableSchema,
  adminUserQuerySchema,
} from '../../../shared/admin.ts';
import { AppError, badRequest, conflict, notFound } from '../../../shared/errors.ts';
import { disableUser, enableUser } from '../../auth/accounts.ts';
import { getAuth } from '../../auth/auth.ts';
import type { AppContext } from '../../context.ts';
import { decodeCursor, keysetPage } from '../../db/cursor.ts';
import { type Executor, inTransaction } from '../../db/transaction.ts';
import { recordAdminAction } from './actions.ts';
import { eraseCompany } from './erase.ts';
import { type AdminActor, activeAdminIds } from './guard.ts';
import {
  type UserRow,
  companyCounts,
  containsPattern,
  countLiveSessions,
  findUserRow,
  goesWithUser,
  selectUserCompanies,
  userRowsQuery,
} from './users-queries.ts';

// The admin console's users (docs/admin.md, "Users"): search, detail, disable and enable,
// a password reset link, an export of the user's data, and deletion after the admin types the
// user's email. An admin can neither disable nor delete themself, nor the last admin who can
// still sign in; a refusal changes nothing. Every change writes admin_audit_log in its transaction.

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

const toRow = (r: UserRow): AdminUserRow => ({
  id: r.id,
  email: r.email,
  name: r.name,
  createdAt: new Date(r.createdAt).toISOString(),
  lastLoginAt: iso(r.last_login_at),
  emailVerified: r.emailVerified === true,
  twoFactorEnabled: r.twoFactorEnabled === true,
  disabled: r.banned === true,
  isAdmin: r.is_admin === true,
  plan: r.plan ?? null,
  status: r.status ?? null,
});

export const listUsers = async (
  ctx: AppContext,
  _admin: AdminActor,
  q: z.output<typeof adminUserQuerySchema>,
) => {
  const after = decodeCursor(q.cursor, { createdAt: 'timestamp', id: 'string' });
  let query = userRowsQuery(ctx, ctx.database.db);
  if (q.q) {
    const pattern = containsPattern(q.q);
    query = query.where((eb) =>
      eb.or([eb('user.email', 'ilike', pattern), eb('user.name', 'ilike', pattern)]),
    );
  }
  if (q.status === 'disabled') query = query.where('user.banned', '=', true);
  if (q.status === 'active')
    query = query.where((eb) => eb.or([eb('user.banned', 'is', null), eb('user.banned', '=', false)]));
  const { page, nextCursor } = await keysetPage(query, {
    keys: [['user.createdAt', 'timestamptz'], ['user.id']],
    after: after ? [after.createdAt, after.id] : null,
    limit: q.limit,
    direction: 'desc',
  });
  return {
    users: page.map(toRow),
    nextCursor: nextCursor((r) => ({ createdAt: r.created_exact, id: r.id })),
  };
};

const findTarget = async (ctx: AppContext, db: Executor, id: string) => {
  const row = await findUserRow(ctx, db, id);
  if (!row) throw notFound('No user with this id.');
  return row;
};

export const getUserDetail = async (
  ctx: AppContext,
  _admin: AdminActor,
  { id }: { id: string },
  db: Executor = ctx.database.db,
): Promise<AdminUserDetail> => {
  const row = await findTarget(ctx, db, id);
  const companies = await selectUserCompanies(db, id);
  return {
    ...toRow(row),
    disabledReason: row.banned === true ? row.banReason : null,
    companies: companies.map((c) => ({
      id: c.id,
      name: c.name,
      role: c.role,
      members: Number(c.members),
      soleOwner: goesWithUser(c),
    })),
    billing:
      row.plan && row.interval && row.status && row.trial_ends_at
        ? {
            plan: row.plan,
            interval: row.interval,
            status: row.status,
            trialEndsAt: new Date(row.trial_ends_at).toISOString(),
            currentPeriodEnd: iso(row.current_period_end),
            cancelAtPeriodEnd: row.cancel_at_period_end === true,
            provider: row.provider ?? 'local',
          }
        : null,
    sessions: await countLiveSessions(db, id, ctx.now()),
  };
};

/** Refuses acting on yourself, or on the last admin who can still sign in (nothing changed). */
const refuseSelfOrLastAdmin = async (ctx: AppContext, admin: AdminActor, target: UserRow, doing: string) => {
  if (target.id === admin.id)
    throw conflict('admin_self', `You cannot ${doing} your own account: ask another admin.`);
  if (target.is_admin) {
    const others = (await activeAdminIds(ctx)).filter((id) => id !== target.id);
    if (others.length === 0)
      throw conflict('last_admin', `You cannot ${doing} the last platform admin: grant another admin first.`);
  }
};

const withDb = (ctx: AppContext, db: Executor): AppContext => ({ ...ctx, database: { ...ctx.database, db } });

export const disableAccount = async (
  ctx: AppContext,
  admin: AdminActor,
  { id, reason }: { id: string } & z.output<typeof adminDisableSchema>,
) => {
  const target = await findTarget(ctx, ctx.database.db, id);
  await refuseSelfOrLastAdmin(ctx, admin, target, 'disable');
  return inTransaction(ctx.database.db, async (trx) => {
    await disableUser(withDb(ctx, trx), id, reason);
    await recordAdminAction(trx, admin, 'user.disabled', ['user', id], { email: target.email, reason });
    return getUserDetail(ctx, admin, { id }, trx);
  });
};

export const enableAccount = async (ctx: AppContext, admin: AdminActor, { id }: { id: string }) => {
  const target = await findTarget(ctx, ctx.database.db, id);
  return inTransaction(ctx.database.db, async (trx) => {
    await enableUser(withDb(ctx, trx), id);
    await recordAdminAction(trx, admin, 'user.enabled', ['user', id], {
      email: target.email,
      wasDisabled: target.banned === true,
    });
    return getUserDetail(ctx, admin, { id }, trx);
  });
};

/** Sends the user Better Auth's reset mail, the same one "Forgot password" sends. */
export const sendResetLink = async (ctx: AppContext, admin: AdminActor, { id }: { id: string }) => {
  const target = await findTarget(ctx, ctx.database.db, id);
  await getAuth(ctx).api.requestPasswordReset({
    body: { email: target.email, redirectTo: `${ctx.config.publicUrl}/reset-password` },
  });
  await recordAdminAction(ctx.database.db, admin, 'user.reset_link_sent', ['user', id], {
    email: target.email,
  });
  return { sent: true as const };
};

/** Everything Kontor keeps about a user, as one JSON document (the export's file name is the route's). */
export const exportUserData = async (ctx: AppContext, admin: AdminActor, { id }: { id: string }) => {
  const db = ctx.database.db;
  const detail = await getUserDetail(ctx, admin, { id });
  const profile = await db
    .selectFrom('user_profiles')
    .select([
      'first_name',
      'last_name',
      'display_name',
      'phone',
      'company',
      'role',
      'timezone',
      'preferences',
      'created_at',
      'last_login_at',
    ])
    .where('user_id', '=', id)
    .executeTakeFirst();
  const billing = await db
    .selectFrom('billing_accounts')
    .selectAll()
    .where('user_id', '=', id)
    .executeTakeFirst();
  const billingInvoices = await db
    .selectFrom('billing_invoices')
    .select(['id', 'number', 'status', 'currency', 'amount_due', 'amount_paid', 'description', 'created_at'])
    .where('user_id', '=', id)
    .orderBy('created_at')
    .execute();
  const promoRedemptions = await db
    .selectFrom('promo_redemptions')
    .select(['code', 'kind', 'plan_access', 'redeemed_at'])
    .where('user_id', '=', id)
    .orderBy('redeemed_at')
    .execute();
  const companies = [];
  for (const c of await selectUserCompanies(db, id)) {
    companies.push({
      id: c.id,
      name: c.name,
      baseCurrency: c.base_currency,
      createdAt: iso(c.created_at),
      role: c.role,
      joinedAt: iso(c.joined_at),
      members: Number(c.members),
      soleOwner: goesWithUser(c),
      counts: await companyCounts(db, c.id),
    });
  }
  const { customer_id: _c, subscription_id: _s, ...billingKept } = billing ?? {};
  const document = {
    exportedAt: ctx.now().toISOString(),
    user: {
      id: detail.id,
      email: detail.email,
      name: detail.name,
      createdAt: detail.createdAt,
      emailVerified: detail.emailVerified,
      twoFactorEnabled: detail.twoFactorEnabled,
      disabled: detail.disabled,
      disabledReason: detail.disabledReason,
      lastLoginAt: detail.lastLoginAt,
    },
    profile: profile ?? null,
    billing: billing ? billingKept : null,
    billingInvoices,
    promoRedemptions,
    companies,
  };
  await recordAdminAction(db, admin, 'user.exported', ['user', id], { email: detail.email });
  return document;
};

/**
 * Deletes a user once the admin typed their email: the companies only they run are erased,
 * a company they own with an admin but no other owner passes to its longest-standing admin,
 * and shared companies keep going without them.
 */
export const deleteAccount = async (
  ctx: AppContext,
  admin: AdminActor,
  { id, confirmEmail }: { id: string } & z.output<typeof adminDeleteUserSchema>,
) => {
  const target = await findTarget(ctx, ctx.database.db, id);
  if (confirmEmail.toLowerCase() !== target.email.toLowerCase()) {
    throw badRequest(
      'confirm_email_mismatch',
      'The email typed does not match this user: type their email address exactly to confirm.',
    );
  }
  await refuseSelfOrLastAdmin(ctx, admin, target, 'delete');
  return inTransaction(ctx.database.db, async (trx) => {
    const companiesDeleted: { id: string; name: string }[] = [];
    for (const company of await selectUserCompanies(trx, id)) {
      if (goesWithUser(company)) {
        await eraseCompany(trx, company.id);
        companiesDeleted.push({ id: company.id, name: company.name });
        await recordAdminAction(trx, admin, 'company.deleted', ['company', company.id], {
          name: company.name,
          withUser: target.email,
        });
      } else if (company.role === 'owner' && Number(company.other_owners) === 0) {
        const heir = await trx
          .selectFrom('organization_members')
          .select('user_id')
          .where('organization_id', '=', company.id)
          .where('role', '=', 'admin')
          .where('user_id', '<>', id)
          .orderBy('created_at')
          .orderBy('user_id')
          .limit(1)
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('organization_members')
          .set({ role: 'owner' })
          .where('organization_id', '=', company.id)
          .where('user_id', '=', heir.user_id)
          .execute();
        await recordAdminAction(trx, admin, 'company.owner_promoted', ['company', company.id], {
          name: company.name,
          newOwner: heir.user_id,
          previousOwner: target.email,
        });
      }
    }
    await trx.deleteFrom('organization_members').where('user_id', '=', id).execute();
    await trx.deleteFrom('verification').where('value', '=', id).execute();
    const deleted = await trx.deleteFrom('user').where('id', '=', id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1)
      throw new AppError(409, 'user_changed', 'The user changed; try again.');
    await recordAdminAction(trx, admin, 'user.deleted', ['user', id], {
      email: target.email,
      name: target.name,
      companiesDeleted,
    });
    return { deleted: true as const, companiesDeleted };
  });
};

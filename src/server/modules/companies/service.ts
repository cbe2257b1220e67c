import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  type Company,
  type CreateCompanyInput,
  INVITATION_DAYS,
  type Invitation,
  type Member,
  type MyCompany,
  createCompanySchema,
  type invitationAnswerParamsSchema,
  type inviteSchema,
  type memberRoleChangeSchema,
  type updateCompanySchema,
} from '../../../shared/companies.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../../shared/errors.ts';
import type { SessionUser } from '../../auth/session.ts';
import { isEmailVerified, refuseUnverifiedInvitee, requireVerifiedSender } from '../../auth/verification.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import type { Role } from '../../db/types.ts';
import { recordAudit, recordMemberAudit } from '../audit/record.ts';
import { assertCompanyWithinLimit, assertWithinLimit } from '../billing/limits.ts';
import { initializeLedger } from '../ledger/accounts.ts';
import { fiscalYearOf } from '../ledger/dates.ts';
import { adoptChartMoneyAccounts } from '../wallet/queries.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { ROLE_PERMISSIONS } from '../../http/permissions.ts';
import { type InvitationSent, deliverInvitation } from './invitation-mail.ts';
import {
  countOwners,
  insertMember,
  selectCompaniesOfUser,
  selectCompany,
  selectInvitationById,
  selectInvitations,
  selectMember,
  selectMembers,
  selectPendingInvitationsForEmail,
} from './queries.ts';
import { emitWebhookEvent } from '../webhooks/emit.ts';

// Companies, members and invitations: the rules. Each change is one transaction with its
// audit row. Route-facing functions take `(ctx, member, input)` (the signed-in user's own:
// `(ctx, user, input)`), the path ids merged into the input.

type CompanyRow = NonNullable<Awaited<ReturnType<typeof selectCompany>>>;

const iso = (d: Date | string) => new Date(d).toISOString();

export const toCompany = (row: CompanyRow): Company => ({
  id: row.id,
  name: row.name,
  baseCurrency: row.base_currency,
  fiscalYearStartMonth: row.fiscal_year_start_month,
  country: row.country,
  timeZone: row.time_zone,
  createdAt: iso(row.created_at),
});

export const listMyCompanies = async (
  ctx: AppContext,
  user: SessionUser,
): Promise<{ companies: MyCompany[] }> => {
  const rows = await selectCompaniesOfUser(ctx.database.db, user.id);
  return {
    companies: rows.map((row) => ({
      ...toCompany(row),
      role: row.role,
      permissions: [...ROLE_PERMISSIONS[row.role]],
    })),
  };
};

export const createCompany = async (ctx: AppContext, user: SessionUser, input: CreateCompanyInput) => {
  const data = createCompanySchema.parse(input);
  const id = randomUUID();
  return ctx.database.db.transaction().execute(async (trx) => {
    // The creator owns it, so pays for it: their plan's company limit (402, nothing written).
    await assertWithinLimit(trx, { payerUserId: user.id, key: 'companies', adding: 1 }, ctx.now());
    const row = await trx
      .insertInto('organizations')
      .values({
        id,
        name: data.name,
        base_currency: data.baseCurrency,
        fiscal_year_start_month: data.fiscalYearStartMonth,
        country: data.country ?? null,
        time_zone: data.timeZone,
        created_by: user.id,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await insertMember(trx, id, user.id, 'owner');
    const company = toCompany(row);
    // The company's books exist from its first moment: standard chart and ledger settings.
    await initializeLedger(trx, {
      organizationId: id,
      baseCurrency: data.baseCurrency,
      fiscalYearStartMonth: data.fiscalYearStartMonth,
      actorUserId: user.id,
    });
    // Its bank, cash and card accounts are money accounts from the start (decision 0022),
    // opening with the fiscal year the company starts in (editable in the Wallet).
    const opening = fiscalYearOf(ctx.now().toISOString().slice(0, 10), data.fiscalYearStartMonth).start;
    await adoptChartMoneyAccounts(trx, id, opening, user.id);
    await recordAudit(trx, {
      organizationId: id,
      actorUserId: user.id,
      action: 'company.create',
      entityType: 'company',
      entityId: id,
      after: company,
    });
    return { ...company, role: 'owner' as const, permissions: [...ROLE_PERMISSIONS.owner] };
  });
};

export const getCompany = async (ctx: AppContext, member: MemberContext): Promise<MyCompany> => {
  const row = await selectCompany(ctx.database.db, member.organizationId);
  if (!row) throw notFound('Company not found.');
  return { ...toCompany(row), role: member.role, permissions: [...ROLE_PERMISSIONS[member.role]] };
};

export const updateCompany = async (
  ctx: AppContext,
  member: MemberContext,
  input: z.output<typeof updateCompanySchema>,
) =>
  ctx.database.db.transaction().execute(async (trx) => {
    const before = await selectCompany(trx, member.organizationId);
    if (!before) throw notFound('Company not found.');
    const row = await trx
      .updateTable('organizations')
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.fiscalYearStartMonth !== undefined
          ? { fiscal_year_start_month: input.fiscalYearStartMonth }
          : {}),
        ...(input.country !== undefined ? { country: input.country } : {}),
        ...(input.timeZone !== undefined ? { time_zone: input.timeZone } : {}),
        updated_at: ctx.now(),
      })
      .where('id', '=', member.organizationId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordMemberAudit(trx, member, 'company.update', ['company', member.organizationId], {
      before: toCompany(before),
      after: toCompany(row),
    });
    return { ...toCompany(row), role: member.role, permissions: [...ROLE_PERMISSIONS[member.role]] };
  });

export const listMembers = async (ctx: AppContext, member: MemberContext): Promise<{ members: Member[] }> => {
  const rows = await selectMembers(ctx.database.db, member.organizationId);
  return {
    members: rows.map((r) => ({
      userId: r.user_id,
      name: r.name,
      email: r.email,
      role: r.role,
      joinedAt: iso(r.created_at),
    })),
  };
};

const targetMember = async (trx: Db, actor: MemberContext, userId: string) => {
  const target = await selectMember(trx, actor.organizationId, userId);
  if (!target) throw notFound('That person is not a member of this company.');
  return target;
};

const keepAnOwner = async (trx: Db, organizationId: string) => {
  if ((await countOwners(trx, organizationId)) <= 1) {
    throw conflict('last_owner', 'A company needs at least one owner. Make someone else an owner first.');
  }
};

/** Only an owner may make or unmake owners; the last owner can never go. */
export const changeMemberRole = async (
  ctx: AppContext,
  actor: MemberContext,
  { userId, role }: z.output<typeof memberRoleChangeSchema> & { userId: string },
) =>
  ctx.database.db.transaction().execute(async (trx) => {
    const target = await targetMember(trx, actor, userId);
    if ((role === 'owner' || target.role === 'owner') && actor.role !== 'owner') {
      throw forbidden('Only an owner can make someone an owner or change an owner’s role.');
    }
    if (target.role === 'owner' && role !== 'owner') await keepAnOwner(trx, actor.organizationId);
    await trx
      .updateTable('organization_members')
      .set({ role })
      .where('organization_id', '=', actor.organizationId)
      .where('user_id', '=', userId)
      .execute();
    await recordMemberAudit(trx, actor, 'member.role_change', ['member', userId], {
      before: { role: target.role },
      after: { role },
    });
    return { userId, role };
  });

export const removeMember = async (ctx: AppContext, actor: MemberContext, { userId }: { userId: string }) =>
  ctx.database.db.transaction().execute(async (trx) => {
    const target = await targetMember(trx, actor, userId);
    if (target.role === 'owner' && actor.role !== 'owner')
      throw forbidden('Only an owner can remove an owner.');
    if (target.role === 'owner') await keepAnOwner(trx, actor.organizationId);
    await trx
      .deleteFrom('organization_members')
      .where('organization_id', '=', actor.organizationId)
      .where('user_id', '=', userId)
      .execute();
    await recordMemberAudit(trx, actor, 'member.remove', ['member', userId], {
      before: { role: target.role },
    });
  });

/** A member leaves a company themselves (the last owner cannot). */
export const leaveCompany = async (ctx: AppContext, member: MemberContext) =>
  removeMember(
    ctx,
    { ...member, role: member.role === 'owner' ? 'owner' : 'admin' },
    { userId: member.userId },
  );

type InvitationRow = NonNullable<Awaited<ReturnType<typeof selectInvitationById>>>;

const toInvitation = (row: InvitationRow, now: Date): Invitation => ({
  id: row.id,
  organizationId: row.organization_id,
  organizationName: row.organization_name,
  email: row.email,
  role: row.role,
  // An expired invitation is shown as revoked-by-time; the stored status stays as it was.
  status: row.status === 'pending' && new Date(row.expires_at) < now ? 'revoked' : row.status,
  invitedBy: row.invited_by,
  expiresAt: iso(row.expires_at),
  createdAt: iso(row.created_at),
});

export const inviteMember = async (
  ctx: AppContext,
  actor: MemberContext,
  input: z.output<typeof inviteSchema>,
): Promise<Invitation> =>
  ctx.database.db.transaction().execute(async (trx) => {
    // The invitation is mailed from Kontor in the inviter's name: their address must be theirs.
    await requireVerifiedSender(ctx, actor.userId, trx);
    const existingMember = await trx
      .selectFrom('organization_members as m')
      .innerJoin('user as u', 'u.id', 'm.user_id')
      .select('m.user_id')
      .where('m.organization_id', '=', actor.organizationId)
      .where((eb) => eb(eb.fn('lower', ['u.email']), '=', input.email))
      .executeTakeFirst();
    if (existingMember)
      throw conflict('already_member', `${input.email} is already a member of this company.`);
    const now = ctx.now();
    // A new invitation to the same address replaces a pending one.
    await trx
      .updateTable('organization_invitations')
      .set({ status: 'revoked', responded_at: now })
      .where('organization_id', '=', actor.organizationId)
      .where((eb) => eb(eb.fn('lower', ['email']), '=', input.email))
      .where('status', '=', 'pending')
      .execute();
    // Members and pending invitations count against the payer's plan (402, nothing written).
    await assertCompanyWithinLimit(
      trx,
      { organizationId: actor.organizationId, key: 'members', adding: 1 },
      now,
    );
    const id = randomUUID();
    await trx
      .insertInto('organization_invitations')
      .values({
        organization_id: actor.organizationId,
        id,
        email: input.email,
        role: input.role,
        invited_by: actor.userId,
        expires_at: new Date(now.getTime() + INVITATION_DAYS * 86_400_000),
      })
      .execute();
    const row = await selectInvitationById(trx, id);
    const invitation = toInvitation(row!, now);
    await recordMemberAudit(trx, actor, 'invitation.create', ['invitation', id], {
      after: { email: input.email, role: input.role },
    });
    const sent: InvitationSent = {
      invitation,
      acceptUrl: new URL(`/dashboard?invitation=${id}`, ctx.config.publicUrl).toString(),
    };
    await deliverInvitation(ctx, sent, trx);
    return invitation;
  });

export const listInvitations = async (ctx: AppContext, member: MemberContext) => {
  const rows = await selectInvitations(ctx.database.db, member.organizationId);
  return { invitations: rows.map((r) => toInvitation(r, ctx.now())) };
};

export const revokeInvitation = async (
  ctx: AppContext,
  actor: MemberContext,
  { invitationId }: { invitationId: string },
) =>
  ctx.database.db.transaction().execute(async (trx) => {
    const row = await selectInvitationById(trx, invitationId);
    if (!row || row.organization_id !== actor.organizationId) throw notFound('Invitation not found.');
    if (row.status !== 'pending')
      throw conflict('invitation_closed', 'This invitation is no longer pending.');
    await trx
      .updateTable('organization_invitations')
      .set({ status: 'revoked', responded_at: ctx.now() })
      .where('organization_id', '=', actor.organizationId)
      .where('id', '=', invitationId)
      .execute();
    await recordMemberAudit(trx, actor, 'invitation.revoke', ['invitation', invitationId]);
  });

export const listMyInvitations = async (ctx: AppContext, user: SessionUser) => {
  const rows = await selectPendingInvitationsForEmail(ctx.database.db, user.email);
  const now = ctx.now();
  return { invitations: rows.map((r) => toInvitation(r, now)).filter((i) => i.status === 'pending') };
};

/** Accept or decline: only the invited address may answer, once, before expiry. */
export const respondToInvitation = async (
  ctx: AppContext,
  user: SessionUser,
  { invitationId, answer }: z.output<typeof invitationAnswerParamsSchema>,
) =>
  ctx.database.db.transaction().execute(async (trx) => {
    const row = await selectInvitationById(trx, invitationId);
    if (!row || row.email.toLowerCase() !== user.email.toLowerCase()) throw notFound('Invitation not found.');
    // Signing up with an address proves nothing: only its verified owner may answer
    // (issue 11 §1), so nobody can take an invitation over by registering the address first.
    if (!(await isEmailVerified(trx, user.id))) throw refuseUnverifiedInvitee(row.email);
    const now = ctx.now();
    if (row.status !== 'pending')
      throw conflict('invitation_closed', 'This invitation has already been answered or withdrawn.');
    if (new Date(row.expires_at) < now) {
      throw new AppError(410, 'invitation_expired', 'This invitation has expired. Ask for a new one.');
    }
    // Joining takes the seat this invitation held: still within the payer's plan (a downgrade
    // since it was sent may have lowered it), and not while the payer's account is read-only.
    if (answer === 'accept' && !(await selectMember(trx, row.organization_id, user.id))) {
      await assertCompanyWithinLimit(
        trx,
        { organizationId: row.organization_id, key: 'members', adding: 1, excludeInvitationId: invitationId },
        now,
      );
    }
    await trx
      .updateTable('organization_invitations')
      .set({ status: answer === 'accept' ? 'accepted' : 'declined', responded_at: now })
      .where('organization_id', '=', row.organization_id)
      .where('id', '=', invitationId)
      .execute();
    if (answer === 'accept') {
      const existing = await selectMember(trx, row.organization_id, user.id);
      if (!existing) {
        await insertMember(trx, row.organization_id, user.id, row.role);
        await emitWebhookEvent(trx, { organizationId: row.organization_id, now }, 'member.joined', {
          userId: user.id,
          email: user.email,
          role: row.role,
        });
      }
    }
    await recordAudit(trx, {
      organizationId: row.organization_id,
      actorUserId: user.id,
      action: answer === 'accept' ? 'invitation.accept' : 'invitation.decline',
      entityType: 'invitation',
      entityId: invitationId,
      after: answer === 'accept' ? { userId: user.id, role: row.role } : undefined,
    });
    return {
      organizationId: row.organization_id,
      status: answer === 'accept' ? 'accepted' : 'declined',
    } as const;
  });

export const ensureValidRole = (role: string): Role => {
  const parsed = z.enum(['owner', 'admin', 'accountant', 'member', 'viewer']).safeParse(role);
  if (!parsed.success)
    throw badRequest('invalid_role', 'Choose a role: owner, admin, accountant, member or viewer.');
  return parsed.data;
};

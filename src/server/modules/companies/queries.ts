import type { Db } from '../../db/client.ts';
import type { Role } from '../../db/types.ts';

export const selectCompany = (db: Db, organizationId: string) =>
  db.selectFrom('organizations').selectAll().where('id', '=', organizationId).executeTakeFirst();

export const selectCompaniesOfUser = (db: Db, userId: string) =>
  db
    .selectFrom('organization_members as m')
    .innerJoin('organizations as o', 'o.id', 'm.organization_id')
    .selectAll('o')
    .select('m.role')
    .where('m.user_id', '=', userId)
    .orderBy('o.name')
    .execute();

export const selectMembers = (db: Db, organizationId: string) =>
  db
    .selectFrom('organization_members as m')
    .innerJoin('user as u', 'u.id', 'm.user_id')
    .select(['m.user_id', 'm.role', 'm.created_at', 'u.name', 'u.email'])
    .where('m.organization_id', '=', organizationId)
    .orderBy('m.created_at')
    .execute();

export const selectMember = (db: Db, organizationId: string, userId: string) =>
  db
    .selectFrom('organization_members')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

export const countOwners = async (db: Db, organizationId: string) => {
  const row = await db
    .selectFrom('organization_members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'owner')
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

export const insertMember = (db: Db, organizationId: string, userId: string, role: Role) =>
  db
    .insertInto('organization_members')
    .values({ organization_id: organizationId, user_id: userId, role })
    .execute();

/** Invitations with the name of the company they are to. */
const invitationsWithCompanyName = (db: Db) =>
  db
    .selectFrom('organization_invitations as i')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .selectAll('i')
    .select('o.name as organization_name');

export const selectInvitations = (db: Db, organizationId: string) =>
  invitationsWithCompanyName(db)
    .where('i.organization_id', '=', organizationId)
    .orderBy('i.created_at', 'desc')
    .execute();

export const selectPendingInvitationsForEmail = (db: Db, email: string) =>
  invitationsWithCompanyName(db)
    .where((eb) => eb(eb.fn('lower', ['i.email']), '=', email.toLowerCase()))
    .where('i.status', '=', 'pending')
    .orderBy('i.created_at', 'desc')
    .execute();

export const selectInvitationById = (db: Db, invitationId: string) =>
  invitationsWithCompanyName(db).where('i.id', '=', invitationId).executeTakeFirst();

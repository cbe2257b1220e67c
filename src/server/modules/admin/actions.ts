import type { Executor } from '../../db/transaction.ts';
import type { AdminActor } from './guard.ts';

// What platform admins did (admin_audit_log): written by every admin action that changes
// something, in the transaction of that change, so the row exists exactly when the change does.

export const ADMIN_ACTIONS = [
  'user.disabled',
  'user.enabled',
  'user.reset_link_sent',
  'user.exported',
  'user.deleted',
  'company.deleted',
  'company.owner_promoted',
  'promo.created',
  'promo.updated',
  'promo.expired',
  'contact.updated',
  'admin.granted',
  'admin.revoked',
  'job.retried',
] as const;
export type AdminAction = (typeof ADMIN_ACTIONS)[number];

export const recordAdminAction = async (
  db: Executor,
  admin: AdminActor,
  action: AdminAction,
  [targetType, targetId]: [string, string],
  details?: unknown,
) => {
  await db
    .insertInto('admin_audit_log')
    .values({
      admin_user_id: admin.id,
      admin_email: admin.email,
      action,
      target_type: targetType,
      target_id: targetId,
      details: details === undefined ? null : JSON.stringify(details),
    })
    .execute();
};

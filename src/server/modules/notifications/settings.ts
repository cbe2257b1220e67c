import type { NotificationSettings } from '../../../shared/notifications.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { recordMemberAudit } from '../audit/record.ts';
import { largeTransactionUnits } from './events.ts';
import { upsertLargeTransactionUnits } from './queries.ts';

// A company's notification setting: from how many whole units of its currency a bank line is a
// "large transaction" (default DEFAULT_LARGE_TRANSACTION_UNITS). Any member reads it; changing it
// needs manage_settings, and is audited as a company settings change.

export const getNotificationSettings = async (
  ctx: AppContext,
  member: MemberContext,
): Promise<NotificationSettings> => ({
  largeTransactionUnits: await largeTransactionUnits(ctx.database.db, member.organizationId),
});

export const updateNotificationSettings = (
  ctx: AppContext,
  member: MemberContext,
  input: NotificationSettings,
): Promise<NotificationSettings> =>
  inTransaction(ctx.database.db, async (trx) => {
    const before = await largeTransactionUnits(trx, member.organizationId);
    await upsertLargeTransactionUnits(trx, member.organizationId, input.largeTransactionUnits, ctx.now());
    await recordMemberAudit(trx, member, 'company.update', ['company', member.organizationId], {
      before: { largeTransactionUnits: before },
      after: { largeTransactionUnits: input.largeTransactionUnits },
    });
    return { largeTransactionUnits: input.largeTransactionUnits };
  });

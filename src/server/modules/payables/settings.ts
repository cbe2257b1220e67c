import type { z } from 'zod';
import type { PayablesSettings, payablesSettingsUpdateSchema } from '../../../shared/payables.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { recordMemberAudit } from '../audit/record.ts';
import { inMemberTransaction, loadCompany, sentColumns } from '../invoices/common.ts';
import { ensurePayablesSettings } from './bills-queries.ts';
import type { Executor } from './queries.ts';

// Payables settings: the approval threshold (a bill whose total in the base currency is above
// it waits for an accountant or admin; null: no bill does) and the bill number prefix. The row
// is created with its defaults the first time it is read.

export const selectPayablesSettings = async (
  db: Executor,
  organizationId: string,
): Promise<PayablesSettings> => {
  const [settings, company] = await Promise.all([
    ensurePayablesSettings(db, organizationId),
    loadCompany(db, organizationId),
  ]);
  return {
    approvalThreshold: settings.approval_threshold === null ? null : Number(settings.approval_threshold),
    billPrefix: settings.bill_prefix,
    nextBillNumber: settings.next_bill_number,
    baseCurrency: company.base_currency,
  };
};

export const getPayablesSettings = (ctx: AppContext, member: MemberContext) =>
  selectPayablesSettings(ctx.database.db, member.organizationId);

export const updatePayablesSettings = inMemberTransaction(
  async (trx, member, input: z.output<typeof payablesSettingsUpdateSchema>) => {
    const { organizationId } = member;
    const before = await selectPayablesSettings(trx, organizationId);
    await trx
      .updateTable('payables_settings')
      .set({
        ...sentColumns(input, { approvalThreshold: 'approval_threshold', billPrefix: 'bill_prefix' }),
        updated_at: new Date(),
      })
      .where('organization_id', '=', organizationId)
      .execute();
    const after = await selectPayablesSettings(trx, organizationId);
    await recordMemberAudit(trx, member, 'payables_settings.updated', ['payables_settings', organizationId], {
      before,
      after,
    });
    return after;
  },
);

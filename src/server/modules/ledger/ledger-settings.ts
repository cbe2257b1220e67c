import { badRequest, notFound } from '../../../shared/errors.ts';
import type { LedgerSettings } from '../../../shared/ledger.ts';
import { inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../audit/record.ts';
import { isIsoDate } from './dates.ts';
import { type Executor, selectSettings } from './queries.ts';

// The company's ledger settings: lock date and whether manual entries need approval.

export const getLedgerSettings = async (db: Executor, organizationId: string): Promise<LedgerSettings> => {
  const row = await selectSettings(db, organizationId);
  if (!row) throw notFound('Company not found.');
  return {
    lockDate: row.lock_date,
    approvalRequired: row.approval_required,
    baseCurrency: row.base_currency.trim(),
    fiscalYearStartMonth: row.fiscal_year_start_month,
  };
};

/** Changes the lock date or approval setting; the row lock makes a racing posting wait or see it. */
export const updateLedgerSettings = (
  db: Executor,
  organizationId: string,
  actorUserId: string | null,
  input: { lockDate?: string | null; approvalRequired?: boolean },
) =>
  inTransaction(db, async (trx) => {
    if (input.lockDate !== undefined && input.lockDate !== null && !isIsoDate(input.lockDate)) {
      throw badRequest('invalid_date', 'Use a real calendar date in the form YYYY-MM-DD.');
    }
    const locked = await trx
      .selectFrom('ledger_settings')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .forUpdate()
      .executeTakeFirst();
    if (!locked) throw notFound('Company not found.');
    const before = await getLedgerSettings(trx, organizationId);
    await trx
      .updateTable('ledger_settings')
      .set({
        ...(input.lockDate !== undefined ? { lock_date: input.lockDate } : {}),
        ...(input.approvalRequired !== undefined ? { approval_required: input.approvalRequired } : {}),
        updated_at: new Date(),
      })
      .where('organization_id', '=', organizationId)
      .execute();
    const after = await getLedgerSettings(trx, organizationId);
    const changes = [
      ['lockDate', 'ledger.lock_date_changed'],
      ['approvalRequired', 'ledger.settings_changed'],
    ] as const;
    for (const [field, action] of changes) {
      if (before[field] === after[field]) continue;
      await recordAudit(trx, {
        organizationId,
        actorUserId,
        action,
        entityType: 'ledger_settings',
        entityId: organizationId,
        before: { [field]: before[field] },
        after: { [field]: after[field] },
      });
    }
    return after;
  });

import { randomUUID } from 'node:crypto';
import { initializeLedger } from './accounts.ts';
import type { Executor } from './queries.ts';

// Test helpers: a company row with its ledger set up, without going through the HTTP API.

export const createTestOrganization = async (
  db: Executor,
  options: { baseCurrency?: string; fiscalYearStartMonth?: number; name?: string } = {},
) => {
  const id = randomUUID();
  const baseCurrency = options.baseCurrency ?? 'USD';
  const fiscalYearStartMonth = options.fiscalYearStartMonth ?? 1;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('organizations')
      .values({
        id,
        name: options.name ?? `Test company ${id.slice(0, 6)}`,
        base_currency: baseCurrency,
        fiscal_year_start_month: fiscalYearStartMonth,
        created_by: 'test-user',
      })
      .execute();
    await initializeLedger(trx, {
      organizationId: id,
      baseCurrency,
      fiscalYearStartMonth,
      actorUserId: 'test-user',
    });
  });
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'system_key', 'code'])
    .where('organization_id', '=', id)
    .execute();
  const byKey = Object.fromEntries(accounts.filter((a) => a.system_key).map((a) => [a.system_key!, a.id]));
  const byCode = Object.fromEntries(accounts.map((a) => [a.code, a.id]));
  return {
    id,
    baseCurrency,
    accounts: byKey as Record<string, string>,
    accountsByCode: byCode as Record<string, string>,
  };
};

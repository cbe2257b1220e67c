import type { Transaction } from 'kysely';
import type { Company } from '../../../shared/companies.ts';
import type { Database } from '../../db/types.ts';

// What other modules set up for a new company, inside the same transaction that creates
// it (the ledger's chart of accounts, for one). Modules register at import time.

export type CompanyCreated = { company: Company; actorUserId: string };
type Hook = (trx: Transaction<Database>, event: CompanyCreated) => Promise<void>;

const hooks: Hook[] = [];

export const onCompanyCreated = (hook: Hook) => {
  hooks.push(hook);
};

export const runCompanyCreatedHooks = async (trx: Transaction<Database>, event: CompanyCreated) => {
  for (const hook of hooks) await hook(trx, event);
};

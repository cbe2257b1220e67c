import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.ts';

// The dedupe key of a bank line: date|amount|normalised description, then #occurrence, so the
// same line in a re-imported file is found again and two equal lines on one day stay apart.

export const normalizeDescription = (description: string) =>
  description.trim().toLowerCase().replace(/\s+/g, ' ');

export const dedupePrefix = (date: string, amount: number, description: string) =>
  `${date}|${amount}|${normalizeDescription(description)}`;

export const countDedupePrefix = async (
  db: Executor,
  organizationId: string,
  moneyAccountId: string,
  prefix: string,
) => {
  const row = await db
    .selectFrom('bank_transactions')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organization_id', '=', organizationId)
    .where('money_account_id', '=', moneyAccountId)
    .where('dedupe_key', 'like', `${prefix.replace(/[\\%_]/g, '\\$&')}#%`)
    .executeTakeFirstOrThrow();
  return row.n;
};

/** The next free dedupe key for one line recorded by hand (or by a document) in an account. */
export const nextDedupeKey = async (
  db: Executor,
  organizationId: string,
  moneyAccountId: string,
  line: { date: string; amount: number; description: string },
) => {
  const prefix = dedupePrefix(line.date, line.amount, line.description);
  return `${prefix}#${(await countDedupePrefix(db, organizationId, moneyAccountId, prefix)) + 1}`;
};

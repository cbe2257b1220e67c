import { sql } from 'kysely';
import { expect } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import type { TestPayables } from './payables.ts';
import { moneyAccountMismatches } from './transactions.ts';

// Checks the paying tests run after every money step: the books balance, accounts payable in
// the ledger equals what the open bills still owe less the supplier credit not yet used (both
// in base), every money account's ledger balance equals its register, and a snapshot of what a
// refused request must leave unchanged.

/**
 * Accounts payable in the ledger (credit minus debit: what is owed is positive), the open
 * bills' balance_base, the issued credits' base left (total_base less the credit_base of live
 * applications and the amount_base of live refunds) and the trial balance's difference.
 */
export const payablesPosition = async (
  database: DatabaseHandle,
  organizationId: string,
  payableId: string,
) => {
  const { rows } = await sql<{ ledger: string; bills: string; credits: string; trial: string }>`
    select (select coalesce(sum(credit - debit), 0) from journal_lines
             where organization_id = ${organizationId} and account_id = ${payableId})::text as ledger,
           (select coalesce(sum(balance_base), 0) from bills
             where organization_id = ${organizationId} and status in ('open', 'partially_paid'))::text as bills,
           (select coalesce(sum(c.total_base
               - coalesce((select sum(a.credit_base) from supplier_credit_allocations a
                            where a.organization_id = c.organization_id and a.credit_id = c.id and a.reversed_at is null), 0)
               - coalesce((select sum(r.amount_base) from supplier_credit_refunds r
                            where r.organization_id = c.organization_id and r.credit_id = c.id and r.reversed_at is null), 0)), 0)
              from supplier_credits c
             where c.organization_id = ${organizationId} and c.status = 'issued')::text as credits,
           (select coalesce(sum(debit - credit), 0) from journal_lines
             where organization_id = ${organizationId})::text as trial`.execute(database.db);
  const r = rows[0]!;
  return {
    ledger: Number(r.ledger),
    bills: Number(r.bills),
    credits: Number(r.credits),
    trialBalance: Number(r.trial),
  };
};

/** After a money step: the books balance, AP = open bills − unused credits, wallets = ledger. */
export const expectBooksAgree = async (fixture: TestPayables) => {
  const p = await payablesPosition(fixture.t.database, fixture.company.id, fixture.fx.payableId);
  expect(p.trialBalance).toBe(0);
  expect(p.ledger, JSON.stringify(p)).toBe(p.bills - p.credits);
  expect(await moneyAccountMismatches(fixture.t.database.db, fixture.company.id)).toEqual([]);
  return p;
};

/** One account's balance, debits minus credits, over its posted lines (base currency). */
export const accountBalance = async (database: DatabaseHandle, organizationId: string, accountId: string) => {
  const { rows } = await sql<{ n: string }>`
    select coalesce(sum(debit - credit), 0)::text as n from journal_lines
     where organization_id = ${organizationId} and account_id = ${accountId}`.execute(database.db);
  return Number(rows[0]!.n);
};

const COUNTED = [
  'journal_entries',
  'journal_lines',
  'bank_transactions',
  'bill_payments',
  'bill_payment_batches',
  'supplier_credits',
  'supplier_credit_allocations',
  'supplier_credit_refunds',
  'bill_events',
  'bill_tax_postings',
  'audit_log',
] as const;

/**
 * What a refused request must not change: the rows of every table a money step writes, the
 * company's bills (status and figures) and credits, and the trial balance per account.
 */
export const moneySnapshot = async (database: DatabaseHandle, organizationId: string) => {
  const counts: Record<string, number> = {};
  for (const table of COUNTED) {
    const { rows } = await sql<{ n: string }>`
      select count(*)::text as n from ${sql.table(table)} where organization_id = ${organizationId}`.execute(
      database.db,
    );
    counts[table] = Number(rows[0]!.n);
  }
  const bills = await database.db
    .selectFrom('bills')
    .select(['id', 'status', 'amount_paid', 'amount_credited', 'balance_base', 'updated_at'])
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .execute();
  const credits = await database.db
    .selectFrom('supplier_credits')
    .select(['id', 'status', 'amount_applied', 'amount_refunded'])
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .execute();
  const { rows: balances } = await sql<{ account_id: string; n: string }>`
    select account_id, sum(debit - credit)::text as n from journal_lines
     where organization_id = ${organizationId} group by account_id order by account_id`.execute(database.db);
  return { counts, bills, credits, balances };
};

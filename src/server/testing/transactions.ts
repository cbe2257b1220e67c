import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import type { Executor } from '../db/transaction.ts';

// Assertions and fixtures shared by the wallet, transactions and import tests.

export const statementFixture = (name: string) =>
  fs.readFileSync(
    path.join(
      path.dirname(fileURLToPath(import.meta.url)),
      '..',
      'modules',
      'statement-import',
      'fixtures',
      name,
    ),
    'utf8',
  );

/**
 * Every money account whose ledger balance (in the account's own currency: what the wallet
 * shows) differs from its opening balance plus its bank transactions; [] when all agree.
 */
export const moneyAccountMismatches = async (db: Executor, organizationId: string) => {
  const result = await sql<{ id: string; from_transactions: number; from_ledger: number }>`
    select m.id,
           m.opening_balance + coalesce((select sum(t.amount) from bank_transactions t
                                          where t.organization_id = m.organization_id and t.money_account_id = m.id), 0) as from_transactions,
           coalesce((select sum(case when l.currency is null then l.debit - l.credit
                                     when l.debit > 0 then l.amount else -l.amount end)
                       from journal_lines l
                      where l.organization_id = m.organization_id and l.account_id = m.ledger_account_id), 0) as from_ledger
      from money_accounts m
     where m.organization_id = ${organizationId}`.execute(db);
  return result.rows
    .map((r) => ({
      id: r.id,
      fromTransactions: Number(r.from_transactions),
      fromLedger: Number(r.from_ledger),
    }))
    .filter((r) => r.fromTransactions !== r.fromLedger);
};

/** Debits minus credits over every posted line of the company: zero when the books balance. */
export const trialBalanceDifference = async (db: Executor, organizationId: string) => {
  const result = await sql<{ diff: number }>`
    select coalesce(sum(debit - credit), 0)::bigint as diff from journal_lines where organization_id = ${organizationId}`.execute(
    db,
  );
  return Number(result.rows[0]?.diff ?? 0);
};

export const countRows = async (
  db: Executor,
  table: 'bank_transactions' | 'journal_entries' | 'statement_imports',
  organizationId: string,
) => {
  const result = await sql<{
    n: number;
  }>`select count(*)::int as n from ${sql.table(table)} where organization_id = ${organizationId}`.execute(
    db,
  );
  return Number(result.rows[0]?.n ?? 0);
};

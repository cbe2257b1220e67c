import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { expect } from 'vitest';
import type { Reconciliation } from '../../shared/transactions.ts';
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

/** One ledger account's balance, debits minus credits over its posted lines (base currency). */
export const ledgerAccountBalance = async (db: Executor, organizationId: string, accountId: string) => {
  const rows = await db
    .selectFrom('journal_lines')
    .select(['debit', 'credit'])
    .where('organization_id', '=', organizationId)
    .where('account_id', '=', accountId)
    .execute();
  return rows.reduce((s, r) => s + Number(r.debit) - Number(r.credit), 0);
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

/**
 * Reconciles an account through the API as the reconciliation page does: starts at the
 * statement's date and balance, ticks the lines and finishes; each step must succeed. Gives the
 * finished reconciliation.
 */
export const reconcileTestLines = async (
  client: { post: (url: string, body?: unknown) => Promise<{ status: number; body: any }> },
  statement: { moneyAccountId: string; statementDate: string; statementBalance: number },
  transactionIds: string[],
): Promise<Reconciliation> => {
  const rec = await client.post('/reconciliations', statement);
  expect(rec.status, JSON.stringify(rec.body)).toBe(201);
  const ticked = await client.post(`/reconciliations/${rec.body.id}/tick`, { transactionIds, ticked: true });
  expect(ticked.status, JSON.stringify(ticked.body)).toBe(200);
  const done = await client.post(`/reconciliations/${rec.body.id}/finish`);
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return done.body;
};

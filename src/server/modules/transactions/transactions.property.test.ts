import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvMappingSchema, transactionUpdateSchema } from '../../../shared/transactions.ts';
import { loadServerConfig } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { createTestDatabase } from '../../testing/db.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { createTestCompanyInDatabase } from '../../testing/companies.ts';
import { commitStatement } from '../statement-import/service.ts';
import {
  finishReconciliation,
  startReconciliation,
  tickTransactions,
  undoLastReconciliation,
} from './reconciliation.ts';
import { bulkCategorize } from './categorize.ts';
import { deleteTransaction, recordTransaction, updateTransaction } from './service.ts';
import { countRows, moneyAccountMismatches, trialBalanceDifference } from '../../testing/transactions.ts';
import { createTransfer } from '../transfers/service.ts';
import { setExchangeRate } from '../wallet/rates.ts';
import { createMoneyAccount } from '../wallet/service.ts';
import { AppError } from '../../../shared/errors.ts';

// Random sequences of imports, categorisations, splits, edits, deletions, transfers and
// reconciliations (with undo) keep every money account's balance equal to its ledger account
// and to its opening balance plus its transactions, and the trial balance at zero; importing
// the same file again adds nothing.

let database: DatabaseHandle;
let ctx: AppContext;

beforeAll(async () => {
  database = await createTestDatabase();
  ctx = {
    config: loadServerConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent' }),
    database,
    now: () => new Date('2026-11-21T12:00:00Z'),
  };
});
afterAll(async () => {
  await database?.close();
});

const day = (n: number) => `2026-0${1 + Math.floor(n / 28)}-${String(1 + (n % 28)).padStart(2, '0')}`;

const csvOf = (rows: { day: number; cents: number; text: string }[]) =>
  [
    'Date,Description,Amount',
    ...rows.map(
      (r) =>
        `${day(r.day)},${r.text},${r.cents < 0 ? '-' : ''}${Math.floor(Math.abs(r.cents) / 100)}.${String(Math.abs(r.cents) % 100).padStart(2, '0')}`,
    ),
  ].join('\n');

// Only what differs from the schema's defaults (comma, header row, signed amount column).
const MAPPING = csvMappingSchema.parse({
  dateColumn: 0,
  descriptionColumn: 1,
  amountColumn: 2,
  dateFormat: 'YYYY-MM-DD',
});

const amount = fc.integer({ min: -500_000, max: 500_000 }).filter((n) => n !== 0);
const statementRow = fc.record({
  day: fc.integer({ min: 0, max: 200 }),
  cents: amount,
  text: fc.constantFrom('COFFEE SHOP', 'AWS', 'CLIENT PAYMENT', 'RENT', 'FUEL'),
});

type Op =
  | { kind: 'import'; rows: { day: number; cents: number; text: string }[]; account: number }
  | { kind: 'record'; account: number; cents: number; day: number }
  | { kind: 'categorize'; pick: number; category: number }
  | { kind: 'bulk'; picks: number[]; category: number }
  | { kind: 'split'; pick: number; cut: number }
  | { kind: 'edit'; pick: number; cents: number; day: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'transfer'; from: number; to: number; cents: number; day: number }
  | { kind: 'reconcile'; account: number; picks: number[] }
  | { kind: 'undo'; account: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('import' as const),
    rows: fc.array(statementRow, { minLength: 1, maxLength: 8 }),
    account: fc.nat(2),
  }),
  fc.record({
    kind: fc.constant('record' as const),
    account: fc.nat(2),
    cents: amount,
    day: fc.integer({ min: 0, max: 200 }),
  }),
  fc.record({ kind: fc.constant('categorize' as const), pick: fc.nat(), category: fc.nat(3) }),
  fc.record({
    kind: fc.constant('bulk' as const),
    picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
    category: fc.nat(3),
  }),
  fc.record({ kind: fc.constant('split' as const), pick: fc.nat(), cut: fc.integer({ min: 1, max: 99 }) }),
  fc.record({
    kind: fc.constant('edit' as const),
    pick: fc.nat(),
    cents: amount,
    day: fc.integer({ min: 0, max: 200 }),
  }),
  fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant('transfer' as const),
    from: fc.nat(2),
    to: fc.nat(2),
    cents: fc.integer({ min: 1, max: 300_000 }),
    day: fc.integer({ min: 0, max: 200 }),
  }),
  fc.record({
    kind: fc.constant('reconcile' as const),
    account: fc.nat(2),
    picks: fc.array(fc.nat(), { maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('undo' as const), account: fc.nat(2) }),
);

/** Business refusals (locked, reconciled, transfer legs) are expected; anything else is a bug. */
const tolerate = async (fn: () => Promise<unknown>) => {
  try {
    await fn();
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
  }
};

describe('wallet and transactions keep the books balanced', () => {
  it('under random imports, categorisations, splits, edits, transfers and reconciliations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 3, maxLength: 10 }), async (ops) => {
        const org = await createTestCompanyInDatabase(database.db, { baseCurrency: 'USD' });
        const member: MemberContext = { organizationId: org.id, userId: 'prop-user', role: 'owner' };
        await setExchangeRate(ctx, member, { currency: 'EUR', date: '2025-12-01', rate: '1.0825' });
        const accounts = [
          await createMoneyAccount(ctx, member, {
            name: 'Checking',
            kind: 'bank',
            currency: 'USD',
            institution: '',
            openingBalance: 1_000_000,
            openingDate: '2025-12-31',
          }),
          await createMoneyAccount(ctx, member, {
            name: 'Card',
            kind: 'credit_card',
            currency: 'USD',
            institution: '',
            openingBalance: -20_000,
            openingDate: '2025-12-31',
          }),
          await createMoneyAccount(ctx, member, {
            name: 'Euro',
            kind: 'bank',
            currency: 'EUR',
            institution: '',
            openingBalance: 50_000,
            openingDate: '2025-12-31',
          }),
        ];
        const categories = [
          org.accountsByCode['4000']!,
          org.accountsByCode['6400']!,
          org.accountsByCode['6800']!,
          org.accountsByCode['3100']!,
        ];
        const ids = async () =>
          await database.db
            .selectFrom('bank_transactions')
            .select(['id', 'amount'])
            .where('organization_id', '=', org.id)
            .orderBy('id')
            .execute();
        const pickId = async (n: number) => {
          const all = await ids();
          return all.length === 0 ? null : all[n % all.length]!;
        };
        for (const o of ops) {
          if (o.kind === 'import') {
            const content = csvOf(o.rows);
            const input = {
              moneyAccountId: accounts[o.account]!.id,
              fileName: 's.csv',
              content,
              mapping: MAPPING,
              applyRules: true,
            };
            // A line dated inside a completed reconciliation refuses the whole file, changing nothing.
            const start = await countRows(database.db, 'bank_transactions', org.id);
            try {
              await commitStatement(ctx, member, input);
            } catch (error) {
              if (!(error instanceof AppError) || error.code !== 'statement_invalid') throw error;
              expect(await countRows(database.db, 'bank_transactions', org.id)).toBe(start);
              continue;
            }
            const before = await countRows(database.db, 'bank_transactions', org.id);
            const again = await commitStatement(ctx, member, input);
            expect(again.imported).toBe(0);
            expect(await countRows(database.db, 'bank_transactions', org.id)).toBe(before);
          } else if (o.kind === 'record') {
            await tolerate(() =>
              recordTransaction(ctx, member, {
                moneyAccountId: accounts[o.account]!.id,
                date: day(o.day),
                description: 'Manual',
                amount: o.cents,
              }),
            );
          } else if (o.kind === 'categorize') {
            const tx = await pickId(o.pick);
            if (tx)
              await tolerate(() =>
                updateTransaction(ctx, member, { id: tx.id, categoryAccountId: categories[o.category]! }),
              );
          } else if (o.kind === 'bulk') {
            const picked = (await Promise.all(o.picks.map(pickId))).filter((t) => t !== null);
            if (picked.length)
              await tolerate(() =>
                bulkCategorize(ctx, member, {
                  transactionIds: picked.map((t) => t!.id),
                  categoryAccountId: categories[o.picks.length % 4]!,
                }),
              );
          } else if (o.kind === 'split') {
            const tx = await pickId(o.pick);
            if (tx && Math.abs(tx.amount) >= 2) {
              const first = Math.trunc((tx.amount * o.cut) / 100) || Math.sign(tx.amount);
              const second = tx.amount - first;
              if (second !== 0) {
                const body = transactionUpdateSchema.parse({
                  splits: [
                    { categoryAccountId: categories[0], amount: first },
                    { categoryAccountId: categories[1], amount: second },
                  ],
                });
                await tolerate(() => updateTransaction(ctx, member, { ...body, id: tx.id }));
              }
            }
          } else if (o.kind === 'edit') {
            const tx = await pickId(o.pick);
            if (tx)
              await tolerate(() =>
                updateTransaction(ctx, member, {
                  id: tx.id,
                  amount: o.cents,
                  date: day(o.day),
                  categoryAccountId: categories[2]!,
                }),
              );
          } else if (o.kind === 'delete') {
            const tx = await pickId(o.pick);
            if (tx) await tolerate(() => deleteTransaction(ctx, member, { id: tx.id }));
          } else if (o.kind === 'transfer') {
            if (o.from !== o.to) {
              const from = accounts[o.from]!;
              const to = accounts[o.to]!;
              await tolerate(() =>
                createTransfer(ctx, member, {
                  fromAccountId: from.id,
                  toAccountId: to.id,
                  date: day(o.day),
                  amount: o.cents,
                  memo: '',
                  ...(from.currency !== to.currency
                    ? { rate: from.currency === 'EUR' ? '1.08' : '0.92' }
                    : {}),
                }),
              );
            }
          } else if (o.kind === 'reconcile') {
            const account = accounts[o.account]!;
            await tolerate(async () => {
              const rec = await startReconciliation(ctx, member, {
                moneyAccountId: account.id,
                statementDate: '2026-12-31',
                statementBalance: 0,
              });
              const candidates = await database.db
                .selectFrom('bank_transactions')
                .select(['id', 'amount'])
                .where('organization_id', '=', org.id)
                .where('money_account_id', '=', account.id)
                .where('status', '<>', 'reconciled')
                .orderBy('id')
                .execute();
              const picked = [
                ...new Set(
                  o.picks
                    .map((p) => candidates[p % Math.max(1, candidates.length)])
                    .filter((c) => c !== undefined),
                ),
              ];
              const cleared = rec.openingBalance + picked.reduce((s, c) => s + c!.amount, 0);
              await database.db
                .updateTable('reconciliations')
                .set({ statement_balance: cleared })
                .where('organization_id', '=', org.id)
                .where('id', '=', rec.id)
                .execute();
              if (picked.length)
                await tickTransactions(ctx, member, {
                  id: rec.id,
                  transactionIds: picked.map((c) => c!.id),
                  ticked: true,
                });
              await finishReconciliation(ctx, member, { id: rec.id });
            });
          } else {
            await tolerate(() =>
              undoLastReconciliation(ctx, member, { moneyAccountId: accounts[o.account]!.id }),
            );
          }
          expect(await moneyAccountMismatches(database.db, org.id)).toEqual([]);
          expect(await trialBalanceDifference(database.db, org.id)).toBe(0);
        }
      }),
      { numRuns: 12, ...(process.env.PROPERTY_SEED ? { seed: Number(process.env.PROPERTY_SEED) } : {}) },
    );
  }, 240_000);
});

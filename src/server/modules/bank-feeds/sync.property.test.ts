import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BankConnection } from '../../../shared/bank-feeds.ts';
import { companyCalls } from '../../testing/api.ts';
import { createScriptedBank, feedLine } from '../../testing/bank-feeds.ts';
import { type TestCompany, createTestCompany } from '../../testing/companies.ts';
import { addTestMoneyAccount } from '../../testing/money.ts';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import { moneyAccountMismatches, trialBalanceDifference } from '../../testing/transactions.ts';
import type { FeedTransaction } from './provider.ts';
import { syncConnection } from './sync.ts';

// Property (issue 18): whatever sequence of sync pages a bank sends — lines added, pending
// lines posting under a new id, amounts and dates changed, lines removed, split over pages in
// any way — the ledger stays balanced and the account's bank lines are exactly the bank's
// posted set (pending lines never in the books, nothing twice).

const t = setUpTestApp();
const { ok } = companyCalls(() => t.app);

type Op =
  | { kind: 'add'; amount: number; day: number; pending: boolean }
  | { kind: 'post'; index: number; tip: number }
  | { kind: 'modify'; index: number; amount: number; day: number }
  | { kind: 'remove'; index: number };

const amount = fc.integer({ min: -500_000, max: 500_000 }).filter((n) => n !== 0);
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('add' as const),
    amount,
    day: fc.integer({ min: 1, max: 28 }),
    pending: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('post' as const), index: fc.nat(), tip: fc.integer({ min: 0, max: 500 }) }),
  fc.record({
    kind: fc.constant('modify' as const),
    index: fc.nat(),
    amount,
    day: fc.integer({ min: 1, max: 28 }),
  }),
  fc.record({ kind: fc.constant('remove' as const), index: fc.nat() }),
);

describe('bank-feed sync pages (property)', () => {
  let company: TestCompany;
  beforeAll(async () => {
    t.clock.set('2026-11-20T12:00:00Z');
    company = await createTestCompany(t.app);
  });

  it('leaves the ledger balanced and the bank lines equal to the posted set', {
    timeout: 300_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(op, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 4 }),
        async (rounds, pageSize) => {
          const bank = createScriptedBank(t.ctx.now);
          const connection = await ok<BankConnection>(company, 'POST', '/bank-feeds/connections', {
            publicToken: `demo-public:demo-us:${randomBytes(8).toString('hex')}`,
          });
          const feed = connection.accounts.find((a) => a.type === 'depository')!;
          const checking = `${(await t.database.db.selectFrom('bank_feed_connections').select('item_id').where('id', '=', connection.id).executeTakeFirstOrThrow()).item_id}-checking`;
          const money = await addTestMoneyAccount(t.app, company, {
            name: `Feed ${connection.id.slice(0, 8)}`,
            openingDate: '2026-01-01',
          });
          await ok(company, 'PUT', `/bank-feeds/connections/${connection.id}/accounts/${feed.id}`, {
            target: 'existing',
            moneyAccountId: money.id,
          });
          const book = new Map<string, FeedTransaction>();
          let n = 0;
          for (const round of rounds) {
            const changes: {
              added: FeedTransaction[];
              modified: FeedTransaction[];
              removed: { id: string; accountId: string }[];
            }[] = [];
            for (const o of round) {
              const live = [...book.values()];
              const page = {
                added: [] as FeedTransaction[],
                modified: [] as FeedTransaction[],
                removed: [] as { id: string; accountId: string }[],
              };
              if (o.kind === 'add') {
                n += 1;
                const tx = feedLine(
                  checking,
                  `x${n}`,
                  `2026-10-${String(o.day).padStart(2, '0')}`,
                  o.amount,
                  `LINE ${n}`,
                  { pending: o.pending },
                );
                book.set(tx.id, tx);
                page.added.push(tx);
              } else if (live.length > 0) {
                const target = live[o.index % live.length]!;
                if (o.kind === 'post' && target.pending) {
                  n += 1;
                  const posted = {
                    ...target,
                    id: `x${n}`,
                    pending: false,
                    pendingId: target.id,
                    amount: target.amount - o.tip || 1,
                  };
                  book.delete(target.id);
                  book.set(posted.id, posted);
                  page.added.push(posted);
                  page.removed.push({ id: target.id, accountId: checking });
                } else if (o.kind === 'modify') {
                  const changed = {
                    ...target,
                    amount: o.amount,
                    date: `2026-10-${String(o.day).padStart(2, '0')}`,
                  };
                  book.set(target.id, changed);
                  page.modified.push(changed);
                } else if (o.kind === 'remove') {
                  book.delete(target.id);
                  page.removed.push({ id: target.id, accountId: checking });
                }
              }
              changes.push(page);
            }
            for (let at = 0; at < changes.length; at += pageSize) {
              const slice = changes.slice(at, at + pageSize);
              bank.push({
                added: slice.flatMap((p) => p.added),
                modified: slice.flatMap((p) => p.modified),
                removed: slice.flatMap((p) => p.removed),
                hasMore: at + pageSize < changes.length,
              });
            }
            await syncConnection(
              t.ctx,
              { organizationId: company.id, connectionId: connection.id },
              { provider: bank },
            );
            const lines = await t.database.db
              .selectFrom('bank_transactions')
              .select(['date', 'amount'])
              .where('organization_id', '=', company.id)
              .where('money_account_id', '=', money.id)
              .execute();
            const got = lines.map((l) => `${l.date} ${Number(l.amount)}`).sort();
            const want = [...book.values()]
              .filter((tx) => !tx.pending)
              .map((tx) => `${tx.date} ${tx.amount}`)
              .sort();
            expect(got).toEqual(want);
            expect(await trialBalanceDifference(t.database.db, company.id)).toBe(0);
            expect(await moneyAccountMismatches(t.database.db, company.id)).toEqual([]);
          }
        },
      ),
      { numRuns: 5, seed: 20261128 },
    );
  });
});

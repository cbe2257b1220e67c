import { beforeAll, describe, expect, it } from 'vitest';
import type { MoneyAccount } from '../../../shared/wallet.ts';
import { setUpTestCompany } from '../../testing/api.ts';

// A completed reconciliation closes its period (issue 13): a statement import may not add a
// line dated on or before the last completed reconciliation's statement date of that money
// account. The file is refused naming the line(s) and the date (the import rule: refuse,
// never drop silently), and nothing is imported; rows already in the account stay duplicates,
// so re-importing an overlapping statement still works. PGlite by default, PostgreSQL with
// TEST_DATABASE_URL.

const fx = setUpTestCompany({ now: '2026-11-25T12:00:00Z' });
const { call, ok } = fx;
let checking: MoneyAccount;

beforeAll(async () => {
  checking = await ok<MoneyAccount>('POST', '/wallet/accounts', {
    kind: 'bank',
    currency: fx.company.baseCurrency,
    openingDate: '2026-10-01',
    name: 'Checking',
  });
});

const csv = (rows: string[]) => ['Date,Description,Amount', ...rows].join('\n');
const importInput = async (content: string) => {
  const sniff = await ok('POST', '/statement-imports/sniff', { moneyAccountId: checking.id, content });
  return { moneyAccountId: checking.id, fileName: 'statement.csv', content, mapping: sniff.suggestedMapping };
};

const state = async () => ({
  lines: await fx.t.database.db
    .selectFrom('bank_transactions')
    .select(['id', 'date', 'amount'])
    .where('organization_id', '=', fx.company.id)
    .where('money_account_id', '=', checking.id)
    .orderBy('id')
    .execute(),
  entries: Number(
    (
      await fx.t.database.db
        .selectFrom('journal_entries')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('organization_id', '=', fx.company.id)
        .executeTakeFirstOrThrow()
    ).n,
  ),
  imports: (await ok('GET', `/statement-imports?moneyAccountId=${checking.id}`)).imports?.length,
});

const OCTOBER = ['2026-10-02,Opening deposit,1000.00', '2026-10-20,Office rent,-400.00'];

describe('statement import into a reconciled period', () => {
  it('refuses new lines on or before the last reconciliation, naming the lines and the date; nothing changes', async () => {
    const first = await ok('POST', '/statement-imports', await importInput(csv(OCTOBER)));
    expect(first.imported).toBe(2);
    // Reconcile October: both lines ticked, the statement agrees at 600.00.
    const rec = await ok('POST', '/reconciliations', {
      moneyAccountId: checking.id,
      statementDate: '2026-10-31',
      statementBalance: 60_000,
    });
    const ids = (await state()).lines.map((l) => l.id);
    await ok('POST', `/reconciliations/${rec.id}/tick`, { transactionIds: ids, ticked: true });
    await ok('POST', `/reconciliations/${rec.id}/finish`);

    const before = await state();
    // The November statement repeats October's lines (duplicates, fine) but also brings a
    // line of October that was never imported (line 4) and one on the statement date (line 5).
    const late = csv([
      ...OCTOBER,
      '2026-10-25,Bank fee,-5.00',
      '2026-10-31,Interest,0.12',
      '2026-11-03,Customer payment,250.00',
    ]);
    const input = await importInput(late);
    for (const url of ['/statement-imports/preview', '/statement-imports']) {
      const res = await call('POST', url, input);
      expect(res.status, url).toBe(400);
      expect(res.body.error.code).toBe('statement_invalid');
      expect(res.body.error.message).toMatch(/line 4: 2026-10-25 is on or before 2026-10-31/);
      expect(res.body.error.message).toMatch(/line 5: 2026-10-31 is on or before 2026-10-31/);
      expect(res.body.error.message).toMatch(/Checking's last completed reconciliation/);
      expect(res.body.error.details.errors.map((e: { line: number }) => e.line)).toEqual([4, 5]);
    }
    expect(await state()).toEqual(before);

    // Without those lines the same statement imports: October's rows are duplicates, the
    // November line is new.
    const fixed = await ok(
      'POST',
      '/statement-imports',
      await importInput(csv([...OCTOBER, '2026-11-03,Customer payment,250.00'])),
    );
    expect(fixed.imported).toBe(1);
    expect(fixed.duplicates).toBe(2);
    expect((await state()).lines).toHaveLength(before.lines.length + 1);
  });
});

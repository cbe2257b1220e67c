import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../testing/app.ts';
import { addTestMember, createTestCompany } from '../../testing/companies.ts';
import { testDatabaseKind } from '../../testing/db.ts';
import { api, setUpInvoicing } from '../../testing/invoices.ts';
import { AUDIT_ACTIONS } from './actions.ts';
import type { AuditInput } from './record.ts';

// The audit actions are one typed list: no action twice, and every row a real flow writes
// names an action of the list (the type makes a new call site add its action there).

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
  t.clock.set('2026-03-10T12:00:00Z');
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe(`audit actions (${testDatabaseKind()})`, () => {
  it('lists each action once, each spelt module.verb', () => {
    expect(new Set(AUDIT_ACTIONS).size).toBe(AUDIT_ACTIONS.length);
    for (const action of AUDIT_ACTIONS) expect(action).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
  });

  it('refuses an action outside the list at type-check time', () => {
    // @ts-expect-error 'journal_entry.postd' is not an audit action: `tsc` fails if recordAudit takes any string
    const misspelt: AuditInput['action'] = 'journal_entry.postd';
    expect(new Set<string>(AUDIT_ACTIONS).has(misspelt)).toBe(false);
  });

  it('records only listed actions through a flow across companies, ledger, wallet, transactions and invoices', async () => {
    const company = await createTestCompany(t.app, { name: 'Audit Actions Ltd' });
    await addTestMember(t.app, company, 'accountant');
    const fx = await setUpInvoicing(t.app, t.database, company);
    const client = api(t.app, company);
    const expectStatus = (res: { status: number; body: unknown }, status: number) =>
      expect(res.status, JSON.stringify(res.body)).toBe(status);

    const entry = await client.post('/journal-entries', {
      date: '2026-02-10',
      memo: 'Consulting',
      lines: [
        { accountId: fx.bankId, debit: 10_000 },
        { accountId: fx.receivableId, credit: 10_000 },
      ],
    });
    expectStatus(entry, 201);
    expectStatus(await client.post(`/journal-entries/${entry.body.id}/reverse`, { date: '2026-02-11' }), 201);

    const money = await client.post('/wallet/accounts', {
      kind: 'bank',
      currency: 'USD',
      openingDate: '2026-01-31',
      name: 'Checking',
    });
    expectStatus(money, 201);
    const tx = await client.post('/transactions', {
      moneyAccountId: money.body.id,
      date: '2026-02-03',
      description: 'Lunch',
      amount: -2_350,
    });
    expectStatus(tx, 201);

    const invoice = await client.post('/invoices', {
      customerId: fx.customerId,
      issueDate: '2026-03-01',
      lines: [{ itemId: fx.itemId, quantity: '2', unitPrice: 12_500, taxRateIds: [fx.taxRateId] }],
    });
    expectStatus(invoice, 201);
    expectStatus(await client.post(`/invoices/${invoice.body.id}/send`), 200);
    expectStatus(
      await client.post(`/invoices/${invoice.body.id}/payments`, {
        date: '2026-03-05',
        amount: 1_000,
        depositAccountId: fx.bankId,
      }),
      201,
    );

    const rows = await t.database.db
      .selectFrom('audit_log')
      .select('action')
      .distinct()
      .where('organization_id', '=', company.id)
      .execute();
    const recorded = rows.map((r) => r.action).sort();
    const listed = new Set<string>(AUDIT_ACTIONS);
    expect(recorded.filter((a) => !listed.has(a))).toEqual([]);
    expect(recorded).toEqual(
      expect.arrayContaining([
        'company.create',
        'invitation.create',
        'invitation.accept',
        'ledger.initialized',
        'customer.created',
        'tax_rate.created',
        'item.created',
        'journal_entry.posted',
        'journal_entry.reversed',
        'money_account.created',
        'bank_transaction.created',
        'invoice.created',
        'invoice.sent',
        'invoice.payment_recorded',
      ]),
    );
  });
});

import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerConfig } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { createTestCompanyInDatabase } from '../../testing/companies.ts';
import { createTestDatabase } from '../../testing/db.ts';
import { balancesOn } from '../../testing/invoices.ts';
import { createTaxRate } from '../invoices/catalog.ts';
import { toBase } from '../invoices/common.ts';
import { submitBillDocument } from './approval.ts';
import { voidBill } from './bill-posting.ts';
import { getBill } from './bill-read.ts';
import { createBillDocument } from './bills.ts';
import { actorOf } from './documents.ts';
import { insertPayablesRow } from './queries.ts';

// For random bills (1-4 lines over two expense accounts, decimal quantities, discounts, simple,
// compound and inclusive taxes, base or foreign currency at odd rates), submitted and some
// voided: the bill's entry balances, its accounts payable credit equals the bill's total_base
// (= its total at its rate), its debits per account equal the lines' net and tax in base
// within the rounding the split allows, the purchase-tax rows equal the tax debited, and
// after every bill the payable account equals the open bills' balance_base and the trial
// balance is zero.

let database: DatabaseHandle;
let ctx: AppContext;
let member: MemberContext;
let organizationId: string;
let taxes: Record<'vat' | 'qst' | 'gst', string>;
let suppliers: { usd: string; eur: string };
let accounts: string[];
let payableId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const org = await createTestCompanyInDatabase(database.db, { baseCurrency: 'USD' });
  organizationId = org.id;
  ctx = {
    config: loadServerConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent' }),
    database,
    now: () => new Date('2026-06-01T12:00:00Z'),
  };
  member = { organizationId, userId: 'property-user', role: 'owner' };
  const rate = async (name: string, percent: string, inclusive: boolean, compound: boolean) =>
    (await createTaxRate(ctx, member, { name, percent, inclusive, compound })).id;
  taxes = {
    vat: await rate('VAT', '20', false, false),
    qst: await rate('QST', '9.975', false, true),
    gst: await rate('GST incl.', '15', true, false),
  };
  const byCode = async (code: string) =>
    (
      await database.db
        .selectFrom('accounts')
        .select(['id'])
        .where('organization_id', '=', organizationId)
        .where('code', '=', code)
        .executeTakeFirstOrThrow()
    ).id;
  accounts = [await byCode('6500'), await byCode('5000'), await byCode('1500')];
  payableId = (
    await database.db
      .selectFrom('accounts')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('system_key', '=', 'accounts_payable')
      .executeTakeFirstOrThrow()
  ).id;
  const supplier = (name: string, currency: string) =>
    insertPayablesRow(database.db, 'suppliers', organizationId, {
      name,
      currency,
      default_account_id: accounts[0]!,
      default_tax_rate_id: null,
      created_at: new Date(),
      updated_at: new Date(),
    });
  suppliers = { usd: await supplier('Dollar Supplies', 'USD'), eur: await supplier('Euro Teile', 'EUR') };
}, 60_000);

afterAll(async () => {
  await database?.close();
});

const decimal = (max: number, places: number) =>
  fc
    .tuple(fc.integer({ min: 0, max }), fc.integer({ min: 0, max: 10 ** places - 1 }))
    .map(([w, f]) => (f === 0 ? String(w) : `${w}.${String(f).padStart(places, '0')}`));

const lineArb = fc.record({
  quantity: decimal(20, 3).filter((q) => q !== '0'),
  unitPrice: fc.integer({ min: 0, max: 500_000 }),
  discountPercent: fc.oneof(fc.constant('0'), decimal(50, 2)),
  taxSet: fc.constantFrom<('vat' | 'qst' | 'gst')[]>([], ['vat'], ['vat', 'qst'], ['gst']),
  account: fc.integer({ min: 0, max: 2 }),
});

const billArb = fc.record({
  foreign: fc.boolean(),
  rate: fc.constantFrom('1.1', '0.9137', '1.23456', '0.0071'),
  lines: fc.array(lineArb, { minLength: 1, maxLength: 4 }),
  void: fc.boolean(),
});

const checkBooks = async () => {
  const b = await balancesOn(database, organizationId);
  expect(b.sum).toBe(0);
  const { rows } = await sql<{ open: string }>`
    select coalesce(sum(balance_base), 0)::text as open from bills
     where organization_id = ${organizationId} and status in ('open', 'partially_paid')`.execute(database.db);
  expect(0 - (b.byId.get(payableId) ?? 0)).toBe(Number(rows[0]!.open));
};

describe('bill postings (property)', () => {
  it('balance, credit payable with total_base and keep AP equal to the open bills', async () => {
    await fc.assert(
      fc.asyncProperty(billArb, async (spec) => {
        const actor = actorOf(ctx, member);
        const id = await inTransaction(database.db, (trx) =>
          createBillDocument(trx, actor, {
            supplierId: spec.foreign ? suppliers.eur : suppliers.usd,
            reference: '',
            issueDate: '2026-05-20',
            notes: '',
            ...(spec.foreign ? { exchangeRate: spec.rate } : {}),
            lines: spec.lines.map((l) => ({
              description: 'Goods',
              quantity: l.quantity,
              unitPrice: l.unitPrice,
              discountPercent: l.discountPercent,
              taxRateIds: l.taxSet.map((t) => taxes[t]),
              accountId: accounts[l.account]!,
            })),
          }),
        );
        const draft = await getBill(database.db, organizationId, id, ctx.now());
        const expectedBase = toBase(draft.total, draft.currency, draft.exchangeRate, 'USD');
        if (expectedBase <= 0) {
          // Nothing to post: refused, and the bill stays a draft.
          await expect(
            inTransaction(database.db, (trx) => submitBillDocument(trx, actor, id, { canApprove: true })),
          ).rejects.toMatchObject({ status: 400 });
          await checkBooks();
          return;
        }
        await inTransaction(database.db, (trx) => submitBillDocument(trx, actor, id, { canApprove: true }));
        const bill = await getBill(database.db, organizationId, id, ctx.now());
        expect(bill.storedStatus).toBe('open');
        expect(bill.totalBase).toBe(expectedBase);
        expect(bill.balanceBase).toBe(expectedBase);
        const lines = await database.db
          .selectFrom('journal_lines')
          .select(['account_id', 'debit', 'credit', 'amount'])
          .where('organization_id', '=', organizationId)
          .where('entry_id', '=', bill.journalEntryId!)
          .execute();
        const debits = lines.reduce((s, l) => s + l.debit, 0);
        const credits = lines.reduce((s, l) => s + l.credit, 0);
        expect(debits).toBe(credits);
        const payable = lines.filter((l) => l.account_id === payableId);
        expect(payable).toHaveLength(1);
        expect(payable[0]!.credit).toBe(bill.totalBase);
        if (spec.foreign) expect(payable[0]!.amount).toBe(bill.total);
        // Each expense account is debited its lines' net, in base within the split's rounding.
        for (const [i, accountId] of accounts.entries()) {
          const net = bill.lines.filter((l) => l.accountId === accountId).reduce((s, l) => s + l.net, 0);
          const debited = lines.filter((l) => l.account_id === accountId).reduce((s, l) => s + l.debit, 0);
          const exact = toBase(net, bill.currency, bill.exchangeRate, 'USD');
          expect(Math.abs(debited - exact), `account ${i}`).toBeLessThanOrEqual(spec.lines.length + 3);
        }
        const taxRows = await database.db
          .selectFrom('bill_tax_postings')
          .select(['tax_base'])
          .where('organization_id', '=', organizationId)
          .where('document_id', '=', id)
          .execute();
        const taxDebited =
          debits -
          accounts.reduce(
            (s, a) => s + lines.filter((l) => l.account_id === a).reduce((t, l) => t + l.debit, 0),
            0,
          );
        expect(taxRows.reduce((s, r) => s + r.tax_base, 0)).toBe(taxDebited);
        await checkBooks();
        if (spec.void) {
          const voided = await voidBill(ctx, member, { billId: id, reason: '' });
          expect(voided.storedStatus).toBe('void');
          await checkBooks();
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});

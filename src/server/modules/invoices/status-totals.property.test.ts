import { addDollarAndEuroCustomers } from '../../testing/invoices.ts';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadServerConfig } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { createTestCompanyInDatabase } from '../../testing/companies.ts';
import { createTestDatabase } from '../../testing/db.ts';
import { createCreditNote, voidCreditNote } from './credit-notes.ts';
import { sendInvoice, voidInvoice } from './invoice-posting.ts';
import { readInvoice, selectInvoiceList } from './invoice-read.ts';
import { createInvoice, deleteInvoice, updateInvoice } from './invoices.ts';
import { deletePayment, recordPayment } from './payments.ts';
import { countStatusTotals, selectStatusTotals } from './queries-list.ts';

// The invoice list's totals by status come from counters the invoices table keeps by trigger
// (migration 20261129_3000, decision 0046). After every kind of change — a draft created,
// edited (dates, currency, lines) or deleted, sent, paid in part or in full, a payment removed,
// credited, a credit note voided, voided, and a change written straight in SQL — the counters
// must equal a recount of the invoices, for today and for other days (overdue moves with it).

let database: DatabaseHandle;
let org: Awaited<ReturnType<typeof createTestCompanyInDatabase>>;
let other: Awaited<ReturnType<typeof createTestCompanyInDatabase>>;
let customers: { usd: string; eur: string };
let ctx: AppContext;
let member: MemberContext;

beforeAll(async () => {
  database = await createTestDatabase();
  org = await createTestCompanyInDatabase(database.db, { baseCurrency: 'USD' });
  other = await createTestCompanyInDatabase(database.db, { baseCurrency: 'USD' });
  ctx = {
    config: loadServerConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent' }),
    database,
    now: () => new Date('2026-06-01T12:00:00Z'),
  };
  member = { organizationId: org.id, userId: 'totals-user', role: 'owner' };
  customers = await addDollarAndEuroCustomers(ctx, member);
}, 60_000);

afterAll(async () => {
  await database?.close();
});

const normalized = (rows: { status: string; count: number; total: number; amount_due: number }[]) =>
  rows
    .map((r) => ({
      status: r.status,
      count: Number(r.count),
      total: Number(r.total),
      amountDue: Number(r.amount_due),
    }))
    .sort((a, b) => a.status.localeCompare(b.status));

const expectCountersMatch = async () => {
  for (const today of ['2026-06-01', '2026-04-15', '2026-07-20', '2027-01-01']) {
    const filter = { status: 'all', today };
    expect(normalized(await selectStatusTotals(database.db, org.id, filter))).toEqual(
      normalized(await countStatusTotals(database.db, org.id, filter)),
    );
  }
};

const line = (unitPrice: number) => ({
  description: 'Work',
  quantity: '1',
  unitPrice,
  discountPercent: '0',
  taxRateIds: [],
});

const opArb = fc.oneof(
  fc.record({
    kind: fc.constant('edit' as const),
    days: fc.integer({ min: 0, max: 90 }),
    price: fc.integer({ min: 0, max: 90_000 }),
    foreign: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('send' as const) }),
  fc.record({ kind: fc.constant('delete' as const) }),
  fc.record({ kind: fc.constant('pay' as const), share: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('credit' as const), share: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('unpay' as const) }),
  fc.record({ kind: fc.constant('uncredit' as const) }),
  fc.record({ kind: fc.constant('void' as const) }),
  fc.record({ kind: fc.constant('sql_due' as const), days: fc.integer({ min: 0, max: 120 }) }),
);

const invoiceArb = fc.record({
  issueDay: fc.integer({ min: 1, max: 28 }),
  price: fc.integer({ min: 1, max: 90_000 }),
  foreign: fc.boolean(),
  ops: fc.array(opArb, { maxLength: 7 }),
});

describe('invoice status counters', () => {
  it('equal a recount after every kind of change', async () => {
    await fc.assert(
      fc.asyncProperty(invoiceArb, async (spec) => {
        const issueDate = `2026-05-${String(spec.issueDay).padStart(2, '0')}`;
        let current = await createInvoice(ctx, member, {
          customerId: spec.foreign ? customers.eur : customers.usd,
          issueDate,
          exchangeRate: spec.foreign ? '1.23456' : undefined,
          reference: '',
          notes: '',
          terms: '',
          lines: [line(spec.price)],
        });
        let deleted = false;
        await expectCountersMatch();
        for (const op of spec.ops) {
          if (deleted) break;
          const draft = current.storedStatus === 'draft';
          const open = current.storedStatus === 'sent' || current.storedStatus === 'partially_paid';
          if (op.kind === 'edit' && draft) {
            current = await updateInvoice(ctx, member, {
              invoiceId: current.id,
              dueDate: `2026-${op.days < 31 ? '06' : '07'}-${String(1 + (op.days % 28)).padStart(2, '0')}`,
              ...(op.foreign
                ? { customerId: customers.eur, exchangeRate: '0.9137' }
                : { customerId: customers.usd }),
              lines: [line(op.price)],
            });
          } else if (op.kind === 'send' && draft && current.total > 0) {
            current = await sendInvoice(ctx, member, { invoiceId: current.id, email: false });
          } else if (op.kind === 'delete' && draft) {
            await deleteInvoice(ctx, member, { invoiceId: current.id });
            deleted = true;
          } else if (op.kind === 'pay' && open) {
            await recordPayment(ctx, member, {
              invoiceId: current.id,
              date: '2026-05-29',
              amount: Math.max(1, Math.floor((current.amountDue * op.share) / 100)),
              depositAccountId: org.accounts.bank!,
              method: 'bank_transfer',
              reference: '',
              exchangeRate: current.currency === 'EUR' ? '1.3' : undefined,
            });
            current = await readInvoice(ctx, member, { invoiceId: current.id });
          } else if (op.kind === 'credit' && open) {
            current = await createCreditNote(ctx, member, {
              invoiceId: current.id,
              date: '2026-05-30',
              reason: '',
              lines: [line(Math.max(1, Math.floor((current.amountDue * op.share) / 100)))],
            });
          } else if (op.kind === 'unpay') {
            const p = current.payments.find((x) => !x.reversed);
            if (p) current = await deletePayment(ctx, member, { invoiceId: current.id, paymentId: p.id });
          } else if (op.kind === 'uncredit') {
            const n = current.creditNotes.find((x) => x.status === 'issued');
            if (n) current = await voidCreditNote(ctx, member, { invoiceId: current.id, creditNoteId: n.id });
          } else if (op.kind === 'void' && open && current.amountPaid === 0 && current.amountCredited === 0) {
            current = await voidInvoice(ctx, member, { invoiceId: current.id, reason: '' });
          } else if (op.kind === 'sql_due') {
            // Any writer, even a hand-written fix, keeps the counters: they follow the table.
            await sql`update invoices set due_date = issue_date + ${op.days}::int
                       where organization_id = ${org.id} and id = ${current.id}`.execute(database.db);
            current = await readInvoice(ctx, member, { invoiceId: current.id });
          } else {
            continue;
          }
          await expectCountersMatch();
        }
      }),
      { numRuns: 40 },
    );
    // The list answers the same totals either way, and another company's counters are its own.
    const list = await selectInvoiceList(
      database.db,
      org.id,
      { status: 'all', page: 1, pageSize: 25, sort: 'issueDate', order: 'desc' } as never,
      new Date('2026-06-01T12:00:00Z'),
    );
    const recount = await countStatusTotals(database.db, org.id, { status: 'all', today: '2026-06-01' });
    expect(list.totalsByStatus.all.count).toBe(recount.reduce((s, r) => s + Number(r.count), 0));
    expect(await selectStatusTotals(database.db, other.id, { status: 'all', today: '2026-06-01' })).toEqual(
      [],
    );
  }, 240_000);

  it('a statement changing many invoices at once, and deleting them, keeps them right', async () => {
    await sql`update invoices set due_date = due_date + 3 where organization_id = ${org.id} and status <> 'draft'`.execute(
      database.db,
    );
    await expectCountersMatch();
    await sql`delete from invoice_lines where organization_id = ${org.id} and document_id in
                (select id from invoices where organization_id = ${org.id} and status = 'draft')`.execute(
      database.db,
    );
    await sql`delete from invoices where organization_id = ${org.id} and status = 'draft'`.execute(
      database.db,
    );
    await expectCountersMatch();
  });
});

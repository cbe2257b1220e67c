import { BLANK_CUSTOMER } from '../../testing/invoices.ts';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.ts';
import { createTestApp } from '../../testing/app.ts';
import { type TestCompany, createTestCompany } from '../../testing/companies.ts';
import { api, balancesOn, setUpInvoicing, systemAccount } from '../../testing/invoices.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { createCreditNote, voidCreditNote } from './credit-notes.ts';
import { creditPool } from './credit-pool.ts';
import { refundCustomerCredit } from './credit-refunds.ts';
import { applyCredit } from './credit.ts';
import { createCustomer } from './customers.ts';
import { sendInvoice } from './invoice-posting.ts';
import { createInvoice } from './invoices.ts';
import { deletePayment, recordPayment } from './payments.ts';
import { agingReport } from './reports.ts';
import { customerStatement } from './statement.ts';

// Random sequences of invoices, payments and overpayments, credit applications, refunds
// (some asking for more than the credit), credit notes (some larger than what is due),
// payment removals and credit-note voids, over base- and foreign-currency customers. After
// every step: the trial balance is zero; per customer and currency, open invoices' amount due
// less the credit held equals the statement's closing balance; the Customer credit account
// per customer equals the credit entries' base amounts; no credit is negative and used-up
// credit carries no base amount; receivables aging equals the ledger; no invoice has
// more paid and credited than its total. A refused step is a 4xx that posts nothing.

let t: Awaited<ReturnType<typeof createTestApp>>;
let company: TestCompany;
let moneyAccountId: string;
let bankLedgerId: string;
let creditAccountId: string;
const user = () => company.owner.id;
const member = (): MemberContext => ({ organizationId: company.id, userId: user(), role: 'owner' });

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set('2026-06-01T12:00:00Z');
  company = await createTestCompany(t.app, { name: 'Credit Property Co' });
  await setUpInvoicing(t.app, t.database, company);
  const client = api(t.app, company);
  const m = await client.post('/wallet/accounts', {
    name: 'Checking',
    kind: 'bank',
    currency: 'USD',
    openingDate: '2026-01-01',
    openingBalance: 10_000_000,
  });
  expect(m.status, JSON.stringify(m.body)).toBe(201);
  moneyAccountId = m.body.id ?? m.body.account?.id;
  const row = await client.get(`/wallet/accounts/${moneyAccountId}`);
  bankLedgerId = row.body.ledgerAccountId ?? row.body.account?.ledgerAccountId;
  creditAccountId = await systemAccount(t.database, company.id, 'customer_credit');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

/** A percentage, often exactly 100 (using all of what is there is where rounding shows). */
const shareArb = (max: number) => fc.oneof(fc.constant(100), fc.integer({ min: 1, max }));
const invoiceArb = fc.record({
  kind: fc.constant('invoice' as const),
  customer: fc.nat(2),
  amount: fc.integer({ min: 1, max: 200_000 }),
});
// Weighted towards the steps that create and use credit, so every run moves some.
const opArb = fc.oneof(
  { arbitrary: invoiceArb, weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      invoice: fc.nat(),
      share: fc.oneof(shareArb(200), fc.integer({ min: 101, max: 200 })),
      rate: fc.constantFrom(undefined, '1.05', '1.2345'),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('apply' as const), invoice: fc.nat(), share: shareArb(100) }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      customer: fc.nat(),
      share: shareArb(150),
      rate: fc.constantFrom(undefined, '0.98', '1.3'),
    }),
    weight: 3,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('note' as const),
      invoice: fc.nat(),
      share: fc.integer({ min: 1, max: 130 }),
    }),
    weight: 2,
  },
  { arbitrary: fc.record({ kind: fc.constant('unpay' as const), invoice: fc.nat() }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('unnote' as const), invoice: fc.nat() }), weight: 1 },
  {
    arbitrary: fc.record({
      kind: fc.constant('crossApply' as const),
      invoice: fc.nat(),
      customer: fc.nat(2),
    }),
    weight: 1,
  },
);

const journalCount = async () =>
  Number(
    (
      await t.database.db
        .selectFrom('journal_entries')
        .select(sql<number>`count(*)::int`.as('n'))
        .where('organization_id', '=', company.id)
        .executeTakeFirstOrThrow()
    ).n,
  );

/** How often each step went through or was refused (printed, to see what a run covered). */
const tally: Record<string, number> = {};
/** Runs a step that may be refused; a refusal must be a 4xx and post nothing. */
const attempt = async <T>(
  what: string,
  step: () => Promise<T>,
  mustRefuse = false,
): Promise<T | undefined> => {
  const before = await journalCount();
  try {
    const result = await step();
    tally[what] = (tally[what] ?? 0) + 1;
    if (mustRefuse) throw new Error('expected a refusal');
    return result;
  } catch (error) {
    if (!(error instanceof AppError) || error.status < 400 || error.status >= 500) throw error;
    tally[`${what}: ${error.code}`] = (tally[`${what}: ${error.code}`] ?? 0) + 1;
    expect(await journalCount()).toBe(before);
    return undefined;
  }
};

const checkInvariants = async (customers: { id: string; currency: string }[]) => {
  const b = await balancesOn(t.database, company.id);
  expect(b.sum).toBe(0);
  expect(b.totals.debit).toBe(b.totals.credit);
  const over = await t.database.db
    .selectFrom('invoices')
    .select(['id'])
    .where('organization_id', '=', company.id)
    .where(sql<boolean>`amount_paid + amount_credited > total`)
    .execute();
  expect(over).toEqual([]);
  const ledgerByContact = await t.database.db
    .selectFrom('journal_lines')
    .select(['contact_id', sql<number>`sum(credit - debit)::bigint`.as('n')])
    .where('organization_id', '=', company.id)
    .where('account_id', '=', creditAccountId)
    .groupBy('contact_id')
    .execute();
  const entriesByCustomer = await t.database.db
    .selectFrom('customer_credit_entries')
    .select(['customer_id', sql<number>`sum(amount_base)::bigint`.as('n')])
    .where('organization_id', '=', company.id)
    .groupBy('customer_id')
    .execute();
  // Receivables aging equals the receivable account, also on a day before credit was applied.
  for (const asOf of ['2999-12-31', '2026-05-11']) {
    const aging = await agingReport(t.database.db, company.id, asOf);
    expect(aging.totals.total).toBe(aging.ledgerBalance);
  }
  const ledgerMap = new Map(ledgerByContact.map((r) => [r.contact_id, Number(r.n)]));
  for (const e of entriesByCustomer) expect(ledgerMap.get(e.customer_id) ?? 0).toBe(Number(e.n));
  for (const c of customers) {
    const pool = await creditPool(t.database.db, company.id, c.id, c.currency);
    expect(pool.amount).toBeGreaterThanOrEqual(0);
    // Used-up credit leaves nothing behind on the liability account (residues go to FX).
    if (pool.amount === 0) expect(pool.base).toBe(0);
    const s = await customerStatement(
      t.database.db,
      company.id,
      c.id,
      { currency: c.currency, to: '2999-12-31' },
      t.clock.now(),
    );
    expect(s.openInvoices - pool.amount).toBe(s.closingBalance);
    expect(s.creditHeld).toBe(pool.amount);
  }
};

describe('customer credit keeps the ledger, the credit and the statement in agreement', () => {
  it('for random payments, overpayments, applications, refunds and credit notes', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        // Two invoices per customer to start with, so credit from one has another to settle.
        fc
          .array(fc.integer({ min: 1, max: 200_000 }), { minLength: 6, maxLength: 6 })
          .map((amounts) =>
            amounts.map((amount, i) => ({ kind: 'invoice' as const, customer: i % 3, amount })),
          ),
        fc.array(opArb, { minLength: 4, maxLength: 16, size: 'large' }),
        async (first, rest) => {
          const ops = [...first, ...rest];
          run += 1;
          const customers = [
            { id: '', currency: 'USD', rate: undefined as string | undefined },
            { id: '', currency: 'USD', rate: undefined },
            { id: '', currency: 'EUR', rate: '1.1' },
          ];
          for (const [i, c] of customers.entries()) {
            c.id = (
              await createCustomer(t.ctx, member(), {
                ...BLANK_CUSTOMER,
                name: `Run ${run} customer ${i}`,
                ...(c.currency === 'EUR' ? { currency: 'EUR' } : {}),
              })
            ).id;
          }
          const invoices: { id: string; customer: number }[] = [];
          const current = async (n: number) => {
            const inv = invoices[n % invoices.length]!;
            const row = await t.database.db
              .selectFrom('invoices')
              .selectAll()
              .where('organization_id', '=', company.id)
              .where('id', '=', inv.id)
              .executeTakeFirstOrThrow();
            return { ...inv, row, customerRow: customers[inv.customer]! };
          };
          for (const op of ops) {
            if (op.kind === 'invoice') {
              const c = customers[op.customer]!;
              const draft = await createInvoice(t.ctx, member(), {
                customerId: c.id,
                issueDate: '2026-05-01',
                exchangeRate: c.rate,
                reference: '',
                notes: '',
                terms: '',
                lines: [
                  {
                    description: 'Work',
                    quantity: '1',
                    unitPrice: op.amount,
                    discountPercent: '0',
                    taxRateIds: [],
                  },
                ],
              });
              await sendInvoice(t.ctx, member(), { invoiceId: draft.id, email: false });
              invoices.push({ id: draft.id, customer: op.customer });
            } else if (invoices.length === 0) {
              continue;
            } else if (op.kind === 'pay') {
              const { row, customerRow } = await current(op.invoice);
              const amount = Math.max(1, Math.floor((Number(row.amount_due || row.total) * op.share) / 100));
              const open = row.status === 'sent' || row.status === 'partially_paid';
              await attempt(
                'pay',
                () =>
                  recordPayment(t.ctx, member(), {
                    invoiceId: row.id,
                    date: '2026-05-10',
                    amount,
                    depositAccountId: bankLedgerId,
                    method: 'bank_transfer',
                    reference: '',
                    exchangeRate: customerRow.currency === 'EUR' ? op.rate : undefined,
                    keepExcessAsCredit: true,
                  }),
                !open,
              );
            } else if (op.kind === 'apply') {
              // An open invoice of a customer holding credit in its currency.
              const candidates = [];
              for (let n = 0; n < invoices.length; n++) {
                const x = await current(n);
                if (x.row.status !== 'sent' && x.row.status !== 'partially_paid') continue;
                const p = await creditPool(
                  t.database.db,
                  company.id,
                  x.customerRow.id,
                  x.customerRow.currency,
                );
                if (p.amount > 0) candidates.push({ ...x, pool: p });
              }
              if (candidates.length === 0) continue;
              const { row, customerRow, pool } = candidates[op.invoice % candidates.length]!;
              const amount = Math.floor((Math.min(pool.amount, Number(row.amount_due)) * op.share) / 100);
              if (amount <= 0) continue;
              await attempt('apply', () =>
                applyCredit(t.ctx, member(), {
                  customerId: customerRow.id,
                  invoiceId: row.id,
                  amount,
                  date: '2026-05-12',
                }),
              );
            } else if (op.kind === 'crossApply') {
              const { row, customerRow } = await current(op.invoice);
              const other = customers[op.customer]!;
              if (other.id === customerRow.id) continue;
              await attempt(
                'crossApply',
                () =>
                  applyCredit(t.ctx, member(), {
                    customerId: other.id,
                    invoiceId: row.id,
                    amount: 1,
                    date: '2026-05-12',
                  }),
                true,
              );
            } else if (op.kind === 'refund') {
              // One of the customers holding credit.
              const holding = [];
              for (const x of customers) {
                const p = await creditPool(t.database.db, company.id, x.id, x.currency);
                if (p.amount > 0) holding.push({ ...x, pool: p });
              }
              if (holding.length === 0) continue;
              const { pool, ...c } = holding[op.customer % holding.length]!;
              const amount = Math.floor((pool.amount * op.share) / 100);
              if (amount <= 0) continue;
              await attempt(
                'refund',
                () =>
                  refundCustomerCredit(t.ctx, member(), {
                    customerId: c.id,
                    currency: c.currency,
                    amount,
                    date: '2026-05-15',
                    moneyAccountId,
                    reference: '',
                    exchangeRate: c.currency === 'EUR' ? op.rate : undefined,
                  }),
                amount > pool.amount,
              );
            } else if (op.kind === 'note') {
              const { row } = await current(op.invoice);
              const amount = Math.max(1, Math.floor((Number(row.total) * op.share) / 200));
              await attempt('note', () =>
                createCreditNote(t.ctx, member(), {
                  invoiceId: row.id,
                  date: '2026-05-11',
                  reason: '',
                  lines: [
                    {
                      description: 'Credit',
                      quantity: '1',
                      unitPrice: amount,
                      discountPercent: '0',
                      taxRateIds: [],
                    },
                  ],
                }),
              );
            } else if (op.kind === 'unpay') {
              const { row } = await current(op.invoice);
              const p = await t.database.db
                .selectFrom('invoice_payments')
                .select('id')
                .where('organization_id', '=', company.id)
                .where('invoice_id', '=', row.id)
                .where('reversal_entry_id', 'is', null)
                .executeTakeFirst();
              if (p)
                await attempt('unpay', () =>
                  deletePayment(t.ctx, member(), { invoiceId: row.id, paymentId: p.id }),
                );
            } else if (op.kind === 'unnote') {
              const { row } = await current(op.invoice);
              const n = await t.database.db
                .selectFrom('credit_notes')
                .select('id')
                .where('organization_id', '=', company.id)
                .where('invoice_id', '=', row.id)
                .where('status', '=', 'issued')
                .executeTakeFirst();
              if (n)
                await attempt('unnote', () =>
                  voidCreditNote(t.ctx, member(), { invoiceId: row.id, creditNoteId: n.id }),
                );
            }
            await checkInvariants(customers);
          }
        },
      ),
      // A fixed seed (PROPERTY_SEED to try others): with a random one the coverage check below
      // failed on the odd run where no application came up.
      {
        numRuns: Number(process.env.PROPERTY_RUNS ?? 15),
        seed: Number(process.env.PROPERTY_SEED ?? 20261125),
      },
    );
    // The run did reach every kind of step (a generator that stopped doing so would pass idly).
    for (const step of ['pay', 'apply', 'refund', 'note'])
      expect(tally[step] ?? 0, JSON.stringify(tally)).toBeGreaterThan(0);
    expect(
      Object.keys(tally).some((k) => k.startsWith('crossApply:')),
      JSON.stringify(tally),
    ).toBe(true);
  }, 600_000);
});

import { addDollarAndEuroCustomers } from '../../testing/invoices.ts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../db/client.ts';
import { createTestDatabase } from '../../testing/db.ts';
import { createTestCompanyInDatabase } from '../../testing/companies.ts';
import { loadServerConfig } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { createTaxRate } from './catalog.ts';
import { createCreditNote, voidCreditNote } from './credit-notes.ts';
import { sendInvoice, voidInvoice } from './invoice-posting.ts';
import { readInvoice } from './invoice-read.ts';
import { createInvoice } from './invoices.ts';
import { deletePayment, recordPayment } from './payments.ts';
import { agingReport, taxReport } from './reports.ts';
import { balancesOn } from '../../testing/invoices.ts';

// For random invoices (lines, decimal quantities, discounts, simple, compound and inclusive
// taxes, base and foreign currency) and random partial payments, payment removals, credit
// notes and voids: the receivable balance equals the sum of open invoice balances, the tax
// payable account equals the tax report, the aging total equals the ledger, and the trial
// balance stays at zero.

let database: DatabaseHandle;
let org: Awaited<ReturnType<typeof createTestCompanyInDatabase>>;
let taxes: { vat: string; qst: string; gst: string };
let customers: { usd: string; eur: string };
const user = 'property-user';
let ctx: AppContext;
let member: MemberContext;

beforeAll(async () => {
  database = await createTestDatabase();
  org = await createTestCompanyInDatabase(database.db, { baseCurrency: 'USD' });
  ctx = {
    config: loadServerConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent' }),
    database,
    now: () => new Date('2026-06-01T12:00:00Z'),
  };
  member = { organizationId: org.id, userId: user, role: 'owner' };
  taxes = {
    vat: (
      await createTaxRate(ctx, member, {
        name: 'VAT',
        percent: '20',
        inclusive: false,
        compound: false,
      })
    ).id,
    qst: (
      await createTaxRate(ctx, member, {
        name: 'QST',
        percent: '9.975',
        inclusive: false,
        compound: true,
      })
    ).id,
    gst: (
      await createTaxRate(ctx, member, {
        name: 'GST incl.',
        percent: '15',
        inclusive: true,
        compound: false,
      })
    ).id,
  };
  customers = await addDollarAndEuroCustomers(ctx, member);
}, 60_000);

afterAll(async () => {
  await database?.close();
});

const decimal = (max: number, places: number) =>
  fc
    .tuple(fc.integer({ min: 0, max }), fc.integer({ min: 0, max: 10 ** places - 1 }))
    .map(([w, f]) => (f === 0 ? String(w) : `${w}.${String(f).padStart(places, '0')}`));

const lineArb = fc.record({
  description: fc.constant('Work'),
  quantity: decimal(20, 3).filter((q) => q !== '0'),
  unitPrice: fc.integer({ min: 0, max: 500_000 }),
  discountPercent: fc.oneof(fc.constant('0'), decimal(50, 2)),
  taxSet: fc.constantFrom<string[]>([], ['vat'], ['vat', 'qst'], ['gst']),
});

const opArb = fc.oneof(
  fc.record({ kind: fc.constant('pay' as const), share: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('credit' as const), share: fc.integer({ min: 1, max: 100 }) }),
  fc.record({ kind: fc.constant('unpay' as const) }),
  fc.record({ kind: fc.constant('uncredit' as const) }),
  fc.record({ kind: fc.constant('void' as const) }),
);

const invoiceArb = fc.record({
  foreign: fc.boolean(),
  rate: fc.constantFrom('1.1', '0.9137', '1.23456'),
  payRate: fc.constantFrom(undefined, '1.05', '1.3'),
  send: fc.boolean(),
  lines: fc.array(lineArb, { minLength: 1, maxLength: 4 }),
  ops: fc.array(opArb, { maxLength: 5 }),
});

const checkInvariants = async () => {
  const b = await balancesOn(database, org.id);
  expect(b.sum).toBe(0);
  expect(b.totals.debit).toBe(b.totals.credit);
  const open = await database.db
    .selectFrom('invoices')
    .select(['balance_base', 'amount_due', 'status', 'currency'])
    .where('organization_id', '=', org.id)
    .execute();
  const openSum = open
    .filter((i) => i.status === 'sent' || i.status === 'partially_paid')
    .reduce((s, i) => s + i.balance_base, 0);
  expect(b.byId.get(org.accounts.accounts_receivable!) ?? 0).toBe(openSum);
  for (const i of open) {
    if (i.status === 'paid' || i.status === 'void') expect(i.balance_base).toBe(0);
    if (i.status === 'paid') expect(i.amount_due).toBe(0);
  }
  const tax = await taxReport(database.db, org.id, '2000-01-01', '2999-12-31');
  expect(tax.totals.tax + (b.byId.get(org.accounts.sales_tax_payable!) ?? 0)).toBe(0);
  // As of today and as of past dates (between the payments and the credit notes, before both).
  for (const asOf of ['2999-12-31', '2026-05-20', '2026-05-10']) {
    const aging = await agingReport(database.db, org.id, asOf);
    expect(aging.totals.total).toBe(aging.ledgerBalance);
  }
};

describe('invoicing keeps the ledger and the documents in agreement', () => {
  it('for random invoices, payments, credit notes and voids', async () => {
    await fc.assert(
      fc.asyncProperty(invoiceArb, async (spec) => {
        const taxIds = (set: string[]) => set.map((k) => taxes[k as keyof typeof taxes]);
        const invoice = await createInvoice(ctx, member, {
          customerId: spec.foreign ? customers.eur : customers.usd,
          issueDate: '2026-05-01',
          exchangeRate: spec.foreign ? spec.rate : undefined,
          reference: '',
          notes: '',
          terms: '',
          lines: spec.lines.map((l) => ({ ...l, taxRateIds: taxIds(l.taxSet) })),
        });
        let current = invoice;
        if (spec.send && invoice.total > 0) {
          current = await sendInvoice(ctx, member, { invoiceId: invoice.id, email: false });
          for (const op of spec.ops) {
            const open = current.storedStatus === 'sent' || current.storedStatus === 'partially_paid';
            if (op.kind === 'pay' && open) {
              const amount = Math.max(1, Math.floor((current.amountDue * op.share) / 100));
              await recordPayment(ctx, member, {
                invoiceId: current.id,
                date: '2026-05-20',
                amount,
                depositAccountId: org.accounts.bank!,
                method: 'bank_transfer',
                reference: '',
                exchangeRate: spec.foreign ? spec.payRate : undefined,
              });
              current = await readInvoice(ctx, member, { invoiceId: current.id });
            } else if (op.kind === 'credit' && open) {
              const amount = Math.max(1, Math.floor((current.amountDue * op.share) / 100));
              current = await createCreditNote(ctx, member, {
                invoiceId: current.id,
                date: '2026-05-21',
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
              });
            } else if (op.kind === 'unpay') {
              const p = current.payments.find((x) => !x.reversed);
              if (p) current = await deletePayment(ctx, member, { invoiceId: current.id, paymentId: p.id });
            } else if (op.kind === 'uncredit') {
              const n = current.creditNotes.find((x) => x.status === 'issued');
              if (n)
                current = await voidCreditNote(ctx, member, { invoiceId: current.id, creditNoteId: n.id });
            } else if (
              op.kind === 'void' &&
              open &&
              current.amountPaid === 0 &&
              current.amountCredited === 0
            ) {
              current = await voidInvoice(ctx, member, { invoiceId: current.id, reason: '' });
            }
            expect(current.amountDue).toBe(
              current.storedStatus === 'void'
                ? 0
                : current.total - current.amountPaid - current.amountCredited,
            );
          }
        }
        await checkInvariants();
      }),
      { numRuns: 40 },
    );
  }, 240_000);
});

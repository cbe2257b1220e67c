import { sql } from 'kysely';
import { beforeAll, expect } from 'vitest';
import type { BillInput } from '../../shared/payables.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { insertPayablesRow } from '../modules/payables/queries.ts';
import type { TestCompany } from './companies.ts';
import {
  type InvoicingFixture,
  type TestInvoicing,
  type api,
  setUpTestInvoicing,
  systemAccount,
} from './invoices.ts';

// Test helpers for payables: setUpTestInvoicing's company (its chart, a tax rate, an item)
// plus a supplier (USD, 30 days, Office supplies as its default account, no default tax),
// the accounts bills post to, and one-call bills: a draft (createTestBill), an open one
// (createOpenTestBill: submitted as the owner, who may approve) and approving one.

export type PayablesFixture = InvoicingFixture & {
  supplierId: string;
  /** 6500 Office supplies: the supplier's default account. */
  expenseAccountId: string;
  /** 6200 Rent, another expense account. */
  rentAccountId: string;
  payableId: string;
  exchangeGainLossId: string;
};

export type TestPayables = Omit<TestInvoicing, 'fx'> & { fx: PayablesFixture };

const accountByCode = async (database: DatabaseHandle, organizationId: string, code: string) =>
  (
    await database.db
      .selectFrom('accounts')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('code', '=', code)
      .executeTakeFirstOrThrow()
  ).id;

/**
 * Adds a supplier straight to the database (no dependence on the supplier routes): `name`,
 * the company's base currency unless `currency` is given, 30 days' terms, a default account.
 */
export const addTestSupplier = async (
  database: DatabaseHandle,
  company: TestCompany,
  values: {
    name?: string;
    currency?: string;
    paymentTermsDays?: number;
    defaultAccountId?: string | null;
    defaultTaxRateId?: string | null;
    archived?: boolean;
  } = {},
) => {
  const now = new Date();
  return insertPayablesRow(database.db, 'suppliers', company.id, {
    name: values.name ?? 'Paper Supply Co',
    currency: values.currency ?? company.baseCurrency,
    payment_terms_days: values.paymentTermsDays ?? 30,
    default_account_id:
      values.defaultAccountId === undefined
        ? await accountByCode(database, company.id, '6500')
        : values.defaultAccountId,
    default_tax_rate_id: values.defaultTaxRateId ?? null,
    archived_at: values.archived ? now : null,
    created_at: now,
    updated_at: now,
  });
};

export const setUpPayables = async (
  database: DatabaseHandle,
  company: TestCompany,
  fx: InvoicingFixture,
): Promise<PayablesFixture> => ({
  ...fx,
  supplierId: await addTestSupplier(database, company),
  expenseAccountId: await accountByCode(database, company.id, '6500'),
  rentAccountId: await accountByCode(database, company.id, '6200'),
  payableId: await systemAccount(database, company.id, 'accounts_payable'),
  exchangeGainLossId: await systemAccount(database, company.id, 'exchange_gain_loss'),
});

/**
 * Registers the file's hooks for payables tests (filled in beforeAll): setUpTestInvoicing's
 * app at `now` (default 2026-03-10), its company, customer, tax rate and item, and
 * setUpPayables's supplier and accounts; `client` calls the company's routes as its owner.
 */
export const setUpTestPayables = (options: { name: string; now?: string }): TestPayables => {
  const fixture = setUpTestInvoicing(options) as unknown as TestPayables;
  // Runs after setUpTestInvoicing's beforeAll (hooks run in the order registered).
  beforeAllPayables(fixture);
  return fixture;
};

const beforeAllPayables = (fixture: TestPayables) =>
  beforeAll(async () => {
    fixture.fx = await setUpPayables(fixture.t.database, fixture.company, fixture.fx);
  }, 60_000);

/** A bill body: the fixture's supplier, 2026-03-01, one 100.00 line on the default account. */
export const testBillBody = (fx: PayablesFixture, overrides: Partial<BillInput> = {}): BillInput => ({
  supplierId: fx.supplierId,
  issueDate: '2026-03-01',
  lines: [{ description: 'Paper', quantity: '1', unitPrice: 10_000 }],
  ...overrides,
});

type Client = ReturnType<typeof api>;

/** Records a draft bill through the API (it must be created); answers the bill. */
export const createTestBill = async (
  client: Client,
  fx: PayablesFixture,
  overrides: Partial<BillInput> = {},
) => {
  const res = await client.post('/bills', testBillBody(fx, overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

/** Approves a bill awaiting approval as the client (who needs 'approve'); answers the bill. */
export const approveTestBill = async (client: Client, billId: string) => {
  const res = await client.post(`/bills/${billId}/approve`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

/**
 * An OPEN bill in one call: recorded and submitted by the client (the owner by default, who
 * may approve, so it opens whatever the threshold); answers the bill.
 */
export const createOpenTestBill = async (
  client: Client,
  fx: PayablesFixture,
  overrides: Partial<BillInput> = {},
) => {
  const bill = await createTestBill(client, fx, overrides);
  const res = await client.post(`/bills/${bill.id}/submit`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.storedStatus).toBe('open');
  return res.body;
};

/**
 * The accounts payable balance (credit minus debit, so what is owed is positive) and the sum
 * of the open bills' balance_base: the two must agree after every step.
 */
export const payablesAgreement = async (
  database: DatabaseHandle,
  organizationId: string,
  payableId: string,
) => {
  const { rows } = await sql<{ ledger: string; bills: string; trial: string }>`
    select (select coalesce(sum(credit - debit), 0) from journal_lines
             where organization_id = ${organizationId} and account_id = ${payableId})::text as ledger,
           (select coalesce(sum(balance_base), 0) from bills
             where organization_id = ${organizationId} and status in ('open', 'partially_paid'))::text as bills,
           (select coalesce(sum(debit - credit), 0) from journal_lines
             where organization_id = ${organizationId})::text as trial`.execute(database.db);
  return {
    ledger: Number(rows[0]!.ledger),
    bills: Number(rows[0]!.bills),
    trialBalance: Number(rows[0]!.trial),
  };
};

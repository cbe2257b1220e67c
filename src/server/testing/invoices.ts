import { afterAll, beforeAll } from 'vitest';
import type { App } from '../app.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { createTestApp } from './app.ts';
import { type TestCompany, createTestCompany } from './companies.ts';
import type { AppContext } from '../context.ts';
import type { MemberContext } from '../http/tenancy.ts';
import { createCustomer } from '../modules/invoices/customers.ts';
import { initializeLedger } from '../modules/ledger/accounts.ts';
import { trialBalance } from '../modules/ledger/reports.ts';
import { verifyTestUser } from './users.ts';

// Test helpers for invoicing: a company with its chart of accounts, a customer, a tax rate
// and an item, created through the real API.

/** The ledger module sets a new company's chart up; do it here if that hook is not wired yet. */
export const ensureLedger = async (database: DatabaseHandle, company: TestCompany) => {
  const existing = await database.db
    .selectFrom('ledger_settings')
    .select('organization_id')
    .where('organization_id', '=', company.id)
    .executeTakeFirst();
  if (existing) return;
  await database.db.transaction().execute((trx) =>
    initializeLedger(trx, {
      organizationId: company.id,
      baseCurrency: company.baseCurrency,
      fiscalYearStartMonth: 1,
      actorUserId: company.owner.id,
    }),
  );
};

export const systemAccount = async (database: DatabaseHandle, organizationId: string, key: string) => {
  const row = await database.db
    .selectFrom('accounts')
    .select(['id'])
    .where('organization_id', '=', organizationId)
    .where('system_key', '=', key)
    .executeTakeFirstOrThrow();
  return row.id;
};

/** Debit-minus-credit balance of every account on `asOf`, by account id. */
export const balancesOn = async (database: DatabaseHandle, organizationId: string, asOf = '2999-12-31') => {
  const tb = await trialBalance(database.db, organizationId, { to: asOf });
  return {
    byId: new Map(tb.rows.map((r) => [r.accountId, r.closingBalance])),
    sum: tb.rows.reduce((s, r) => s + r.closingBalance, 0),
    totals: tb.totals,
  };
};

export const api = (app: App, company: TestCompany, cookie = company.owner.cookie) => {
  const call = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const res = await app.inject({
      method,
      url: `/api/orgs/${company.id}${path}`,
      headers: { cookie, ...headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    return { status: res.statusCode, body: res.body ? (safeJson(res.body) as any) : undefined, raw: res };
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, payload?: unknown, headers?: Record<string, string>) =>
      call('POST', path, payload ?? {}, headers),
    patch: (path: string, payload: unknown) => call('PATCH', path, payload),
    delete: (path: string) => call('DELETE', path),
  };
};

const safeJson = (text: string) => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

export type InvoicingFixture = {
  customerId: string;
  taxRateId: string;
  itemId: string;
  bankId: string;
  receivableId: string;
  taxPayableId: string;
};

export const setUpInvoicing = async (
  app: App,
  database: DatabaseHandle,
  company: TestCompany,
): Promise<InvoicingFixture> => {
  await ensureLedger(database, company);
  const client = api(app, company);
  const customer = await client.post('/customers', {
    name: 'Northwind Traders',
    email: 'billing@northwind.example',
    paymentTermsDays: 14,
  });
  if (customer.status !== 201)
    throw new Error(`customer: ${customer.status} ${JSON.stringify(customer.body)}`);
  const tax = await client.post('/tax-rates', { name: 'VAT 20%', percent: '20' });
  if (tax.status !== 201) throw new Error(`tax: ${tax.status} ${JSON.stringify(tax.body)}`);
  const item = await client.post('/items', {
    name: 'Consulting hour',
    unitPrice: 12_500,
    taxRateId: tax.body.id,
  });
  if (item.status !== 201) throw new Error(`item: ${item.status} ${JSON.stringify(item.body)}`);
  return {
    customerId: customer.body.id,
    taxRateId: tax.body.id,
    itemId: item.body.id,
    bankId: await systemAccount(database, company.id, 'bank'),
    receivableId: await systemAccount(database, company.id, 'accounts_receivable'),
    taxPayableId: await systemAccount(database, company.id, 'sales_tax_payable'),
  };
};

export type TestInvoicing = {
  t: Awaited<ReturnType<typeof createTestApp>>;
  company: TestCompany;
  fx: InvoicingFixture;
  /** The company's routes as its owner. */
  client: ReturnType<typeof api>;
};

/**
 * Registers the file's hooks for invoicing tests through the API and hands back the fixture
 * (filled in beforeAll): an app with its clock at `now`, a company named `name` whose owner is
 * verified (emailing invoices needs a verified sender, issue 11 §1), and setUpInvoicing's
 * customer, tax rate and item.
 */
export const setUpTestInvoicing = (options: { name: string; now?: string }): TestInvoicing => {
  const fixture = {} as TestInvoicing;
  beforeAll(async () => {
    fixture.t = await createTestApp();
    fixture.t.clock.set(options.now ?? '2026-03-10T12:00:00Z');
    fixture.company = await createTestCompany(fixture.t.app, { name: options.name });
    await verifyTestUser(fixture.t.app, fixture.company.owner);
    fixture.fx = await setUpInvoicing(fixture.t.app, fixture.t.database, fixture.company);
    fixture.client = api(fixture.t.app, fixture.company);
  }, 60_000);
  afterAll(async () => {
    await fixture.t?.close();
  });
  return fixture;
};

/** Text drawn in an uncompressed pdfkit file: its strings are hex glyph runs inside TJ arrays. */
export const extractPdfText = (pdf: Buffer) => {
  const source = pdf.toString('latin1');
  const out: string[] = [];
  for (const m of source.matchAll(/\[([^\]]*)\]\s*TJ/g)) {
    const parts = [...m[1]!.matchAll(/<([0-9a-fA-F]+)>/g)].map((h) =>
      Buffer.from(h[1]!, 'hex').toString('latin1'),
    );
    out.push(parts.join(''));
  }
  return out.join('\n');
};

/** The customer fields a test does not care about (createCustomer's input but name and currency). */
export const BLANK_CUSTOMER = {
  company: '',
  email: '',
  phone: '',
  billingAddress: '',
  taxNumber: '',
  paymentTermsDays: 30,
  notes: '',
};

/** Two customers through the invoicing service: "Dollar Inc" (the base currency) and "Euro AG" (EUR). */
export const addDollarAndEuroCustomers = async (ctx: AppContext, member: MemberContext) => ({
  usd: (await createCustomer(ctx, member, { ...BLANK_CUSTOMER, name: 'Dollar Inc' })).id,
  eur: (await createCustomer(ctx, member, { ...BLANK_CUSTOMER, name: 'Euro AG', currency: 'EUR' })).id,
});

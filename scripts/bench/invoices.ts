import { performance } from 'node:perf_hooks';
import { type KyselyPlugin, sql } from 'kysely';
import { invoiceListQuerySchema } from '../../src/shared/invoices.ts';
import { selectInvoiceList as listInvoices } from '../../src/server/modules/invoices/invoice-read.ts';
import { selectStatusTotals } from '../../src/server/modules/invoices/queries-list.ts';
import { agingReport, taxReport } from '../../src/server/modules/invoices/reports.ts';
import { createTestCompanyInDatabase } from '../../src/server/testing/companies.ts';
import { flagArg, medianMs, numberArg, openBenchDatabase, postAnchorEntry } from './setup.ts';

// Invoices benchmark: fills one company with --total invoices (default 100,000) across
// --customers customers (default 2,000) — a realistic mix of drafts, sent, overdue, partially
// paid, paid and void, with their payments and tax postings — then times the invoice list
// (first page, each status chip, search, sort by amount due, a deep page), the totals by
// status, the receivables aging report and the sales tax report.
// The rows are written with set-based SQL (posting 100k entries one by one would take the
// benchmark's whole budget); the queries timed are the services the API calls.
// Runs on in-memory PGlite, or on PostgreSQL with DATABASE_URL (a fresh database, dropped after).
// Usage: node --import tsx scripts/bench/invoices.ts [--total 100000] [--customers 2000] [--json] [--keep]
// (--keep leaves the PostgreSQL database in place for EXPLAIN.)

const total = numberArg('total', 100_000);
const customerCount = numberArg('customers', 2_000);
const asJson = flagArg('json');

const main = async () => {
  const database = await openBenchDatabase('invoices', { pglite: 'memory', keep: flagArg('keep') });
  const db = database.db;
  try {
    const org = await createTestCompanyInDatabase(db, { baseCurrency: 'USD', name: 'Bench Co' });
    const orgId = org.id;
    // One real posted entry the generated invoices and payments point at (the ledger's own
    // benchmark covers posting volume).
    const entry = await postAnchorEntry(db, org, '2025-01-01');
    const taxAccount = org.accounts.sales_tax_payable!;
    await sql`insert into tax_rates (organization_id, id, name, percent, account_id) values (${orgId}, 'vat', 'VAT 20%', '20', ${taxAccount})`.execute(
      db,
    );

    const fillStart = performance.now();
    await sql`
      insert into customers (organization_id, id, name, company, email, currency, payment_terms_days)
      select ${orgId}, 'c' || g, 'Customer ' || g, 'Company ' || g || ' Ltd', 'ap' || g || '@example.com', 'USD', 30
        from generate_series(1, ${customerCount}) g`.execute(db);
    // Status by i % 20: 0-1 draft, 2 void, 3 partially paid, 4-7 sent, 8-19 paid.
    // Issue dates spread over two years back from 2026-06-30, so many sent ones are overdue.
    await sql`
      insert into invoices (organization_id, id, number, customer_id, issue_date, due_date, currency, status,
                            subtotal, tax_total, total, amount_paid, total_base, balance_base, journal_entry_id, sent_at)
      select ${orgId}, 'i' || g,
             case when g % 20 in (0, 1) then null else 'INV-' || lpad(g::text, 6, '0') end,
             'c' || (1 + g % ${customerCount}),
             d, d + 30, 'USD',
             case when g % 20 in (0, 1) then 'draft' when g % 20 = 2 then 'void' when g % 20 = 3 then 'partially_paid'
                  when g % 20 between 4 and 7 then 'sent' else 'paid' end,
             amt, amt / 5, amt + amt / 5,
             case when g % 20 = 3 then (amt + amt / 5) / 2 when g % 20 >= 8 then amt + amt / 5 else 0 end,
             case when g % 20 in (0, 1) then 0 else amt + amt / 5 end,
             case when g % 20 = 3 then (amt + amt / 5) - (amt + amt / 5) / 2 when g % 20 between 4 and 7 then amt + amt / 5 else 0 end,
             case when g % 20 in (0, 1) then null else ${entry.id} end,
             case when g % 20 in (0, 1) then null else now() end
        from (select g, date '2026-06-30' - (g % 730) as d, 5000 + ((g::bigint * 7919) % 500000)::int as amt
                from generate_series(1, ${total}) g) s`.execute(db);
    await sql`
      insert into invoice_payments (organization_id, id, invoice_id, date, amount, currency, amount_base, deposit_base,
                                    deposit_account_id, method, journal_entry_id)
      select i.organization_id, 'p' || i.id, i.id, i.issue_date + 10, i.amount_paid, 'USD', i.amount_paid, i.amount_paid,
             ${org.accounts.bank!}, 'bank_transfer', ${entry.id}
        from invoices i where i.organization_id = ${orgId} and i.amount_paid > 0`.execute(db);
    await sql`
      insert into invoice_tax_postings (organization_id, document_id, tax_rate_id, date, taxable_base, tax_base)
      select organization_id, id, 'vat', issue_date, subtotal, tax_total
        from invoices where organization_id = ${orgId} and status not in ('draft', 'void')`.execute(db);
    await sql`analyze`.execute(db);
    const fillMs = Math.round(performance.now() - fillStart);

    const now = new Date('2026-07-01T12:00:00Z');
    const q = (over: Record<string, unknown>) => invoiceListQuerySchema.parse(over);
    const results: { what: string; ms: number }[] = [];
    const measure = async (what: string, fn: () => Promise<unknown>) => {
      results.push({ what, ms: await medianMs(fn) });
    };
    await measure('list: first page, all, newest first (with totals by status)', () =>
      listInvoices(db, orgId, q({}), now),
    );
    await measure('list: the totals by status alone', () =>
      selectStatusTotals(db, orgId, { status: 'all', today: '2026-07-01' }),
    );
    // The queries the first page costs (a counting Kysely plugin).
    let queries = 0;
    const plugin: KyselyPlugin = {
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    await listInvoices(db.withPlugin(plugin), orgId, q({}), now);
    for (const status of ['draft', 'sent', 'partially_paid', 'paid', 'overdue', 'void']) {
      await measure(`list: chip ${status}`, () => listInvoices(db, orgId, q({ status }), now));
    }
    await measure('list: search "Customer 1234"', () =>
      listInvoices(db, orgId, q({ search: 'Customer 1234' }), now),
    );
    await measure('list: search invoice number "INV-004242"', () =>
      listInvoices(db, orgId, q({ search: 'INV-004242' }), now),
    );
    await measure('list: sort by amount due', () =>
      listInvoices(db, orgId, q({ sort: 'amountDue', order: 'desc' }), now),
    );
    await measure('list: page 2000 of 25', () => listInvoices(db, orgId, q({ page: 2000 }), now));
    await measure('aging report (today)', () => agingReport(db, orgId, '2026-07-01'));
    await measure('aging report (as of a year ago)', () => agingReport(db, orgId, '2025-07-01'));
    await measure('sales tax report (one quarter)', () => taxReport(db, orgId, '2026-04-01', '2026-06-30'));

    const aging = await agingReport(db, orgId, '2026-07-01');
    const summary = {
      database: database.kind,
      invoices: total,
      customers: customerCount,
      fillMs,
      firstPageQueries: queries,
      agingCustomers: aging.rows.length,
      agingTotal: aging.totals.total,
      results,
    };
    if (asJson) {
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    } else {
      process.stdout.write(
        `${database.kind}: ${total} invoices, ${customerCount} customers (filled in ${fillMs} ms); ` +
          `the first page costs ${queries} queries\n` +
          results.map((r) => `  ${r.what.padEnd(62)} ${String(r.ms).padStart(8)} ms`).join('\n') +
          '\n',
      );
    }
  } finally {
    await database.close();
  }
};

await main();

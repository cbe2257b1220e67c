import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { billListQuerySchema } from '../../src/shared/payables.ts';
import { selectBillList, selectBillTotals } from '../../src/server/modules/payables/bills-list.ts';
import { createTestCompanyInDatabase } from '../../src/server/testing/companies.ts';
import { flagArg, medianMs, numberArg, openBenchDatabase, postAnchorEntry } from './setup.ts';

// Bills benchmark: fills one company with --total bills (default 100,000) across --suppliers
// suppliers (default 2,000) — a mix of drafts, bills awaiting approval, open (many overdue),
// partially paid, paid and void — then times the bill list the API's GET /bills answers
// (selectBillList, the service the route calls): the first page, each status filter, a
// supplier, a text search, the payment run's "due by" order, a page twenty pages deep, and the
// totals per status (GET /bills/totals).
// The bills are written straight into the bills table with set-based SQL (generate_series):
// this measures the list's reading, not posting (the ledger's benchmark covers posting volume),
// so the posted ones all point at one anchor entry and have no lines, payments or tax rows.
// Runs on in-memory PGlite, or on PostgreSQL with DATABASE_URL (a fresh database, dropped after).
// Usage: node --import tsx scripts/bench/bills.ts [--total 100000] [--suppliers 2000] [--json] [--keep]

const total = numberArg('total', 100_000);
const supplierCount = numberArg('suppliers', 2_000);
const asJson = flagArg('json');

const main = async () => {
  const database = await openBenchDatabase('bills', { pglite: 'memory', keep: flagArg('keep') });
  const db = database.db;
  try {
    const org = await createTestCompanyInDatabase(db, { baseCurrency: 'USD', name: 'Bench Co' });
    const orgId = org.id;
    const entry = await postAnchorEntry(db, org, '2025-01-01');

    const fillStart = performance.now();
    await sql`
      insert into suppliers (organization_id, id, name, company, email, currency, payment_terms_days)
      select ${orgId}, 's' || g, 'Supplier ' || g, 'Vendor ' || g || ' Ltd', 'ar' || g || '@example.com', 'USD', 30
        from generate_series(1, ${supplierCount}) g`.execute(db);
    // Status by g % 20: 0 draft, 1 awaiting approval, 2 void, 3 partially paid, 4-7 open, 8-19 paid.
    // Issue dates spread over two years back from 2026-06-30, so many open ones are overdue.
    await sql`
      insert into bills (organization_id, id, number, supplier_id, reference, issue_date, due_date, currency, status,
                         subtotal, tax_total, total, amount_paid, total_base, balance_base, journal_entry_id)
      select ${orgId}, 'b' || g, 'BILL-' || lpad(g::text, 6, '0'), 's' || (1 + g % ${supplierCount}), 'SUP-' || g,
             d, d + 30, 'USD',
             case when g % 20 = 0 then 'draft' when g % 20 = 1 then 'awaiting_approval' when g % 20 = 2 then 'void'
                  when g % 20 = 3 then 'partially_paid' when g % 20 between 4 and 7 then 'open' else 'paid' end,
             amt, amt / 5, amt + amt / 5,
             case when g % 20 = 3 then (amt + amt / 5) / 2 when g % 20 >= 8 then amt + amt / 5 else 0 end,
             case when g % 20 in (0, 1) then 0 else amt + amt / 5 end,
             case when g % 20 = 3 then (amt + amt / 5) - (amt + amt / 5) / 2 when g % 20 between 4 and 7 then amt + amt / 5 else 0 end,
             case when g % 20 in (0, 1) then null else ${entry.id} end
        from (select g, date '2026-06-30' - (g % 730) as d, 5000 + (g * 7919) % 500000 as amt
                from generate_series(1, ${total}) g) s`.execute(db);
    await sql`analyze`.execute(db);
    const fillMs = Math.round(performance.now() - fillStart);

    const now = new Date('2026-07-01T12:00:00Z');
    const q = (over: Record<string, unknown>) => billListQuerySchema.parse(over);
    const results: { what: string; ms: number }[] = [];
    const measure = async (what: string, fn: () => Promise<unknown>) => {
      results.push({ what, ms: await medianMs(fn, 7) });
    };
    await measure('GET /bills: first page (50), all, newest first', () =>
      selectBillList(db, orgId, q({}), now),
    );
    for (const status of [
      'draft',
      'awaiting_approval',
      'open',
      'partially_paid',
      'paid',
      'overdue',
      'void',
    ]) {
      await measure(`GET /bills: status ${status}`, () => selectBillList(db, orgId, q({ status }), now));
    }
    await measure('GET /bills: one supplier', () => selectBillList(db, orgId, q({ supplierId: 's42' }), now));
    await measure('GET /bills: search "Supplier 1234"', () =>
      selectBillList(db, orgId, q({ search: 'Supplier 1234' }), now),
    );
    await measure('GET /bills: search number "BILL-004242"', () =>
      selectBillList(db, orgId, q({ search: 'BILL-004242' }), now),
    );
    await measure('GET /bills: due by 2026-07-08 (payment run order)', () =>
      selectBillList(db, orgId, q({ dueBy: '2026-07-08' }), now),
    );
    let cursor: string | null = null;
    for (let i = 0; i < 20; i += 1) {
      cursor = (await selectBillList(db, orgId, q({ cursor: cursor ?? undefined }), now)).nextCursor;
    }
    const deep = cursor;
    await measure('GET /bills: the page after twenty pages (cursor)', () =>
      selectBillList(db, orgId, q({ cursor: deep ?? undefined }), now),
    );
    await measure('GET /bills/totals (counts and sums per status)', () => selectBillTotals(db, orgId, now));

    const first = results[0]!;
    const summary = {
      database: database.kind,
      bills: total,
      suppliers: supplierCount,
      fillMs,
      goalMs: 50,
      firstPageMs: first.ms,
      results,
    };
    if (asJson) {
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    } else {
      process.stdout.write(
        `${database.kind}: ${total} bills, ${supplierCount} suppliers (filled in ${fillMs} ms)\n` +
          results.map((r) => `  ${r.what.padEnd(62)} ${String(r.ms).padStart(8)} ms`).join('\n') +
          `\n  first page goal ≤ 50 ms: ${first.ms <= 50 ? 'met' : 'NOT met'}\n`,
      );
    }
  } finally {
    await database.close();
  }
};

await main();

import { performance } from 'node:perf_hooks';
import { sql } from 'kysely';
import { createTestCompanyInDatabase } from '../../src/server/testing/companies.ts';
import {
  suggestionsForStatement,
  suggestionsForTransaction,
} from '../../src/server/modules/matching/suggestions.ts';
import { commitStatement } from '../../src/server/modules/statement-import/service.ts';
import { selectOpenInvoicesForMatching } from '../../src/server/modules/invoices/bank-payments.ts';
import {
  benchContext,
  benchCsvMapping,
  benchOwner,
  createBenchCheckingAccount,
  flagArg,
  numberArg,
  openBenchDatabase,
  postAnchorEntry,
  timed,
} from './setup.ts';

// Matching benchmark (issue 13 §4): --invoices open invoices (default 10,000) of --customers
// customers (default 500), --payments payments recorded by hand (default 500), then a
// statement of --lines lines (default 1,000) imported through the real import service: a
// quarter pay an invoice's exact open amount, a quarter name an invoice number (part payments),
// a quarter name a customer, a quarter are other money in. Times suggestionsForStatement (what
// GET /statement-imports/:id/match-suggestions runs) and one line's suggestions, and counts how
// often the invoice a line was made from is the first suggestion.
// Invoices, customers and payments are written with set-based SQL (the invoices benchmark does
// the same); the statement is imported and the suggestions computed by the services the API calls.
// Runs on a fresh PGlite in a temp folder, or on PostgreSQL with DATABASE_URL (a fresh database).
// Usage: node --import tsx scripts/bench/matching.ts [--invoices 10000] [--lines 1000] [--json]

const invoiceCount = numberArg('invoices', 10_000);
const customerCount = numberArg('customers', 500);
const paymentCount = numberArg('payments', 500);
const lineCount = numberArg('lines', 1_000);
const asJson = flagArg('json');

const FIRST = [
  'Northwind',
  'Globex',
  'Initech',
  'Umbrella',
  'Hooli',
  'Vandelay',
  'Wonka',
  'Stark',
  'Wayne',
  'Tyrell',
  'Cyberdyne',
  'Soylent',
  'Acme',
  'Monarch',
  'Oscorp',
  'Aperture',
  'Gringotts',
  'Duff',
  'Krusty',
  'Pied',
];
const SECOND = [
  'Traders',
  'Systems',
  'Foods',
  'Logistics',
  'Studios',
  'Partners',
  'Labs',
  'Holdings',
  'Motors',
  'Textiles',
  'Media',
  'Energy',
  'Pharma',
  'Outfitters',
  'Robotics',
  'Imports',
  'Bakery',
  'Analytics',
  'Dynamics',
  'Piper',
  'Goods',
  'Works',
  'Farms',
  'Optics',
  'Marine',
];
const customerName = (g: number) =>
  `${FIRST[g % FIRST.length]} ${SECOND[Math.floor(g / FIRST.length) % SECOND.length]}`;

const main = async () => {
  const database = await openBenchDatabase('match', { pglite: 'folder' });
  try {
    const db = database.db;
    const ctx = benchContext(database);
    const org = await createTestCompanyInDatabase(db, { baseCurrency: 'USD', name: 'Bench Co' });
    const orgId = org.id;
    const member = benchOwner(org);
    const account = await createBenchCheckingAccount(ctx, member, {
      name: 'Bench checking',
      openingBalance: 0,
      openingDate: '2025-12-31',
    });
    const { ledger_account_id: bankLedger } = await db
      .selectFrom('money_accounts')
      .select('ledger_account_id')
      .where('organization_id', '=', orgId)
      .where('id', '=', account.id)
      .executeTakeFirstOrThrow();
    // One real entry the generated invoices and payments point at (foreign keys need one).
    const anchor = await postAnchorEntry(db, org, '2026-01-01');
    const fillStart = performance.now();
    const names = Array.from({ length: customerCount }, (_, i) => customerName(i + 1));
    await sql`
      insert into customers (organization_id, id, name, email, currency, payment_terms_days)
      select ${orgId}, 'c' || n.g, n.name, 'ap' || n.g || '@example.com', 'USD', 30
        from unnest(${names}::text[]) with ordinality as n(name, g)`.execute(db);
    // Open invoices: sent, or partly paid (every tenth), issued in the first half of 2026.
    await sql`
      insert into invoices (organization_id, id, number, customer_id, issue_date, due_date, currency, status,
                            subtotal, total, amount_paid, total_base, balance_base, journal_entry_id, sent_at)
      select ${orgId}, 'i' || g, 'INV-' || lpad(g::text, 6, '0'), 'c' || (1 + g % ${customerCount}),
             d, d + 30, 'USD', case when g % 10 = 0 then 'partially_paid' else 'sent' end,
             amt, amt, case when g % 10 = 0 then amt / 2 else 0 end,
             amt, case when g % 10 = 0 then amt - amt / 2 else amt end, ${anchor.id}, now()
        from (select g, date '2026-01-01' + (g % 150) as d, 5000 + (g * 7919) % 500000 as amt
                from generate_series(1, ${invoiceCount}) g) s`.execute(db);
    // Payments recorded by hand into the bank account in June, on other invoices (paid ones).
    await sql`
      insert into invoices (organization_id, id, number, customer_id, issue_date, due_date, currency, status,
                            subtotal, total, amount_paid, total_base, balance_base, journal_entry_id, sent_at)
      select ${orgId}, 'pi' || g, 'PAID-' || lpad(g::text, 6, '0'), 'c' || (1 + g % ${customerCount}),
             date '2026-05-01', date '2026-05-31', 'USD', 'paid', 1000 + g * 37, 1000 + g * 37, 1000 + g * 37,
             1000 + g * 37, 0, ${anchor.id}, now()
        from generate_series(1, ${paymentCount}) g`.execute(db);
    await sql`
      insert into invoice_payments (organization_id, id, invoice_id, date, amount, currency, amount_base, deposit_base,
                                    deposit_account_id, method, journal_entry_id)
      select ${orgId}, 'p' || g, 'pi' || g, date '2026-06-01' + (g % 28), 1000 + g * 37, 'USD', 1000 + g * 37,
             1000 + g * 37, ${bankLedger}, 'bank_transfer', ${anchor.id}
        from generate_series(1, ${paymentCount}) g`.execute(db);
    await sql`analyze`.execute(db);
    const fillMs = Math.round(performance.now() - fillStart);

    // The statement: what each line was made from, to score the ranking.
    const truth = new Map<string, string>();
    const rows = ['Date,Description,Amount,Transaction ID'];
    const dueOf = (g: number) => {
      const amt = 5000 + ((g * 7919) % 500000);
      return g % 10 === 0 ? amt - Math.floor(amt / 2) : amt;
    };
    const money = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
    for (let i = 0; i < lineCount; i++) {
      const date = `2026-06-${String(1 + (i % 28)).padStart(2, '0')}`;
      const g = 1 + ((i * 7) % invoiceCount);
      let description: string;
      let amount: number;
      if (i % 4 === 0) {
        description = `SEPA CREDIT TRF ${100000 + i}`;
        amount = dueOf(g);
        truth.set(`B${i}`, `i${g}`);
      } else if (i % 4 === 1) {
        description = `PAYMENT INV-${String(g).padStart(6, '0')} THANK YOU`;
        amount = Math.max(1, Math.floor(dueOf(g) / 3));
        truth.set(`B${i}`, `i${g}`);
      } else if (i % 4 === 2) {
        description = `TRANSFER FROM ${customerName(1 + (g % customerCount)).toUpperCase()}`;
        amount = 1234 + i;
      } else {
        description = `STRIPE PAYOUT ${i}`;
        amount = 777 + i * 13;
      }
      rows.push(`${date},${description},${money(amount)},B${i}`);
    }
    const mapping = benchCsvMapping();
    const imported = await timed(() =>
      commitStatement(ctx, member, {
        moneyAccountId: account.id,
        fileName: 'june.csv',
        content: `${rows.join('\n')}\n`,
        mapping,
        applyRules: false,
      }),
    );
    if (imported.result.imported !== lineCount) throw new Error(`imported ${imported.result.imported}`);
    const importId = imported.result.id!;

    await suggestionsForStatement(ctx, member, { importId, limit: 3 }); // warm-up
    const runs: number[] = [];
    let last: Awaited<ReturnType<typeof suggestionsForStatement>> | null = null;
    for (let r = 0; r < 5; r++) {
      const { ms, result } = await timed(() => suggestionsForStatement(ctx, member, { importId, limit: 3 }));
      runs.push(ms);
      last = result;
    }
    runs.sort((a, b) => a - b);
    const statementMs = runs[2]!;
    const worstMs = runs[4]!;

    const external = new Map(
      (
        await db
          .selectFrom('bank_transactions')
          .select(['id', 'external_id'])
          .where('organization_id', '=', orgId)
          .where('import_id', '=', importId)
          .execute()
      ).map((r) => [r.id, r.external_id!]),
    );
    let withTruth = 0;
    let firstRight = 0;
    let withSuggestion = 0;
    for (const line of last!.lines) {
      if (line.suggestions.length > 0) withSuggestion++;
      const expected = truth.get(external.get(line.transactionId)!);
      if (!expected) continue;
      withTruth++;
      if (line.suggestions[0]?.invoiceId === expected) firstRight++;
    }
    const reads: number[] = [];
    for (let r = 0; r < 5; r++)
      reads.push((await timed(() => selectOpenInvoicesForMatching(db, orgId, 'USD'))).ms);
    reads.sort((a, b) => a - b);
    const oneLine = last!.lines[1]!.transactionId;
    const single: number[] = [];
    for (let r = 0; r < 5; r++)
      single.push((await timed(() => suggestionsForTransaction(ctx, member, { id: oneLine }))).ms);
    single.sort((a, b) => a - b);

    const summary = {
      database: database.kind,
      openInvoices: invoiceCount,
      customers: customerCount,
      recordedPayments: paymentCount,
      statementLines: lineCount,
      fillMs,
      importMs: imported.ms,
      statementSuggestionsMedianMs: statementMs,
      statementSuggestionsWorstMs: worstMs,
      readingOpenInvoicesMedianMs: reads[2]!,
      oneLineSuggestionsMedianMs: single[2]!,
      linesWithSuggestions: withSuggestion,
      firstSuggestionRight: `${firstRight} of ${withTruth}`,
    };
    if (asJson) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    else
      process.stdout.write(
        `${database.kind}: ${lineCount} lines against ${invoiceCount} open invoices (${customerCount} customers, ${paymentCount} recorded payments; filled in ${fillMs} ms, statement imported in ${imported.ms} ms)\n` +
          `  suggestions for the whole statement: median ${statementMs} ms, worst of 5 ${worstMs} ms\n` +
          `  of which reading the open invoices:  median ${reads[2]} ms\n` +
          `  suggestions for one line:            median ${single[2]} ms\n` +
          `  lines with a suggestion: ${withSuggestion} of ${lineCount}; first suggestion is the invoice the line was made from: ${firstRight} of ${withTruth}\n`,
      );
  } finally {
    await database.close();
  }
};

await main();

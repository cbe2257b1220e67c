import { createHash, randomUUID } from 'node:crypto';
import { getHeapStatistics } from 'node:v8';
import { sql } from 'kysely';
import {
  type CsvSniff,
  type StatementImportProgress,
  type StatementImportResult,
  type StatementPreview,
  descriptionKey,
} from '../../../shared/transactions.ts';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../audit/record.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { collectGarbageBeforeLargeWork, LARGE_FILE_CHARACTERS, LARGE_ROW_COUNT } from '../../memory.ts';
import { inTransaction } from '../../db/transaction.ts';
import { emptyBankRowColumns, insertBankTransactionsInBulk } from '../bank-transactions/bulk.ts';
import { postEntriesInBulk, whileWriting } from '../ledger/bulk.ts';
import { newEntryId } from '../ledger/ids.ts';
import { entryForTransaction } from '../transactions/posting-context.ts';
import { updateMoneyAccountRow } from '../wallet/queries.ts';
import { sniffCsv } from './csv-sniff.ts';
import {
  type ImportInput,
  type PreparedRow,
  loadAccount,
  partRef,
  prepare,
  refuse,
  savedMappingOf,
  summaryOf,
} from './prepare.ts';
import { StatementParseError } from './types.ts';
import { notifyBankLinesAdded } from '../notifications/events.ts';
import { countImportedRows } from '../../http/metrics.ts';
import { emitWebhookEvent } from '../webhooks/emit.ts';

// Statement import: parse, mark duplicates, apply rules, show a preview; on commit, insert
// and post every new row in one database transaction, or nothing at all.
// The file is read and checked by prepare.ts.

export { refuse };

/** Rows posted per slice of a commit (entries, lines and bank rows of one slice in memory at once). */
const COMMIT_SLICE = 10_000;
/**
 * Peak memory (issue 12): V8 lets its old generation grow to a few times what is live before a
 * full collection, and each slice's objects live long enough (while the database writes the
 * slice) to be promoted there. A large import therefore collects when the heap has grown this
 * much past what was live after the last collection — while the database writes a slice, so on
 * PostgreSQL the pause overlaps the server's work. Needs --expose-gc (the server has it);
 * KONTOR_IMPORT_HEAP_HEADROOM_MB=0 turns it off (to measure it, docs/performance.md).
 */
const HEAP_HEADROOM = Number(process.env.KONTOR_IMPORT_HEAP_HEADROOM_MB ?? 96) * 2 ** 20;
const heapBound = () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  let floor = getHeapStatistics().used_heap_size;
  return () => {
    if (!gc || HEAP_HEADROOM <= 0) return;
    if (getHeapStatistics().used_heap_size > floor + HEAP_HEADROOM) {
      gc();
      floor = getHeapStatistics().used_heap_size;
    }
  };
};
/** From this many new rows, an import refreshes the planner's statistics of the tables it fills. */
const ANALYZE_FROM = 5000;

export const sniffStatement = async (
  ctx: AppContext,
  member: MemberContext,
  input: { moneyAccountId: string; content: string },
): Promise<CsvSniff> => {
  const money = await loadAccount(ctx.database.db, member.organizationId, input.moneyAccountId, false);
  try {
    return { ...sniffCsv(input.content), savedMapping: savedMappingOf(money.csv_mapping) };
  } catch (error) {
    if (error instanceof StatementParseError) throw refuse(error.errors);
    throw error;
  }
};

export const previewStatement = async (
  ctx: AppContext,
  member: MemberContext,
  input: ImportInput,
): Promise<StatementPreview> => {
  const { format, mapping, parts } = await prepare(ctx.database.db, member, input, false);
  const first = parts[0]!;
  const included = parts.filter((p) => p.money);
  const rows = included.flatMap((p) => p.rows.map((r) => ({ ...r, statement: p.index })));
  const fresh = rows.filter((r) => !r.duplicate);
  const summary = summaryOf(rows);
  return {
    format,
    statements: parts.map((p) => ({
      index: p.index,
      line: p.statement.line ?? 1,
      kind: p.statement.kind ?? (format === 'csv' ? 'CSV statement' : 'statement'),
      accountNumber: p.statement.accountNumber,
      currency: p.statement.currency,
      periodStart: p.statement.periodStart ?? null,
      periodEnd: p.statement.periodEnd ?? null,
      moneyAccountId: p.money?.id ?? null,
      ...summaryOf(p.rows),
      openingBalance: p.statement.openingBalance ?? null,
      closingBalance: p.statement.closingBalance,
      notices: p.notices,
    })),
    encoding: input.encoding ?? null,
    unreadable: input.unreadable ?? null,
    currency: first.statement.currency,
    accountNumber: first.statement.accountNumber,
    closingBalance: first.statement.closingBalance,
    ...summary,
    categorizedByRules: fresh.filter((r) => r.rule).length,
    rows: rows.slice(0, 500).map((r) => ({
      line: r.line,
      date: r.date,
      amount: r.amount,
      description: r.description,
      payee: r.rule?.set_payee ?? r.payee,
      externalId: r.externalId,
      duplicate: r.duplicate,
      ruleId: r.rule?.id ?? null,
      categoryAccountId: r.rule?.set_category_account_id ?? null,
      statement: r.statement,
    })),
    mapping,
    csvLayout: format === 'csv' ? (first.statement.csvLayout ?? null) : null,
  };
};

export const commitStatement = (
  ctx: AppContext,
  member: MemberContext,
  input: ImportInput,
  /** Called as rows are posted (after each slice), for the page's progress bar; awaited. */
  onProgress?: (done: number, total: number, phase: StatementImportProgress['phase']) => void | Promise<void>,
): Promise<StatementImportResult> =>
  inTransaction(ctx.database.db, async (trx) => {
    const started = performance.now();
    const { organizationId, userId } = member;
    // Large files: start from a collected heap, and collect the reading's garbage before posting
    // (peak memory, src/server/memory.ts).
    collectGarbageBeforeLargeWork(input.content.length >= LARGE_FILE_CHARACTERS);
    const { defaultMoney, format, mapping, parts, pc } = await prepare(trx, member, input, true);
    const unchosen = parts.filter((p) => !p.money && !p.chosen && p.statement.rows.length > 0);
    if (unchosen.length > 0) {
      throw refuse(
        unchosen.map((p) => ({
          line: p.statement.line ?? 1,
          reason: `choose the money account for ${partRef(p)}, or leave it out`,
        })),
      );
    }
    if (mapping) {
      await updateMoneyAccountRow(trx, organizationId, defaultMoney.id, {
        csv_mapping: JSON.stringify(mapping),
      });
    }
    const toPost = parts.reduce((n, p) => (p.money ? n + p.rows.filter((r) => !r.duplicate).length : n), 0);
    collectGarbageBeforeLargeWork(toPost >= LARGE_ROW_COUNT);
    const boundHeap = heapBound();
    let posted = 0;
    await onProgress?.(0, toPost, 'posting');
    const fileSha = createHash('sha256').update(input.content).digest('hex');
    const imports: NonNullable<StatementImportResult['imports']> = [];
    let totalImported = 0;
    let totalDuplicates = 0;
    let totalByRules = 0;
    for (const part of parts) {
      const money = part.money;
      if (!money) continue;
      const fresh = part.rows.filter((r) => !r.duplicate);
      const duplicates = part.rows.length - fresh.length;
      totalDuplicates += duplicates;
      if (fresh.length === 0) {
        imports.push({ index: part.index, id: null, moneyAccountId: money.id, imported: 0, duplicates });
        continue;
      }
      const importId = randomUUID();
      const byRules = fresh.filter((r) => r.rule).length;
      await trx
        .insertInto('statement_imports')
        .values({
          organization_id: organizationId,
          id: importId,
          money_account_id: money.id,
          file_name: input.fileName,
          format,
          file_sha256: fileSha,
          total_rows: part.rows.length,
          imported_rows: fresh.length,
          duplicate_rows: duplicates,
          rule_rows: byRules,
          created_by: userId,
        })
        .execute();
      // Posted in slices, so only one slice's entries, lines and bank rows are held at a time
      // (a 100,000-line statement otherwise keeps several copies of every row in memory). The
      // company's number row stays locked from the first slice, so the numbers are one range.
      // While the database writes one slice's bank rows, the next slice's entries are built.
      const entriesOf = (slice: PreparedRow[], ids: string[]) =>
        slice.map((r, i) =>
          entryForTransaction(pc, money, {
            id: ids[i]!,
            date: r.date,
            description: r.description,
            amount: r.amount,
            categoryKind: r.rule ? 'account' : 'none',
            categoryAccountId: r.rule?.set_category_account_id ?? null,
            splits: [],
            taxRate: r.rule?.set_tax_rate ?? null,
            rate: r.rate,
          }),
        );
      let pending: { written: Promise<unknown>; rows: number } | null = null;
      for (let at = 0; at < fresh.length; at += COMMIT_SLICE) {
        const slice = fresh.slice(at, at + COMMIT_SLICE);
        // Time-ordered ids (UUIDv7, the ledger's generator): the bank lines' primary key grows at
        // its right edge instead of taking random pages, which matters once a company holds
        // millions of lines and the index no longer fits in memory.
        const ids = slice.map(() => newEntryId());
        const entries = pending
          ? await whileWriting(pending.written, () => {
              boundHeap();
              return entriesOf(slice, ids);
            })
          : entriesOf(slice, ids);
        if (pending) {
          posted += pending.rows;
          await onProgress?.(posted, toPost, 'posting');
        }
        const entryIds = await postEntriesInBulk(
          trx,
          {
            organizationId,
            actorUserId: userId,
            audit: null,
            refreshStatistics: at === 0 && fresh.length >= ANALYZE_FROM,
          },
          entries,
        );
        const c = emptyBankRowColumns();
        for (let i = 0; i < slice.length; i += 1) {
          const r = slice[i]!;
          const rule = r.rule;
          c.id.push(ids[i]!);
          c.date.push(r.date);
          c.description.push(r.description);
          c.payee.push(rule?.set_payee ?? r.payee);
          c.amount.push(r.amount);
          c.status.push(rule ? 'categorized' : 'uncategorized');
          c.categoryKind.push(rule ? 'account' : 'none');
          c.categoryAccountId.push(rule?.set_category_account_id ?? null);
          c.taxRate.push(rule?.set_tax_rate ?? null);
          c.rate.push(r.rate);
          c.entryId.push(entryIds[i]!);
          c.externalId.push(r.externalId);
          c.dedupeKey.push(r.dedupeKey);
          c.descriptionKey.push(descriptionKey(r.description));
          c.ruleId.push(rule?.id ?? null);
        }
        pending = {
          written: insertBankTransactionsInBulk(
            trx,
            { organizationId, moneyAccountId: money.id, importId, createdBy: userId },
            c,
          ),
          rows: slice.length,
        };
      }
      if (pending) {
        await pending.written;
        posted += pending.rows;
        await onProgress?.(posted, toPost, 'posting');
      }
      const numbered = await trx
        .selectFrom('ledger_settings')
        .select('next_entry_number')
        .where('organization_id', '=', organizationId)
        .executeTakeFirstOrThrow();
      const lastNumber = Number(numbered.next_entry_number) - 1;
      await recordAudit(trx, {
        organizationId,
        actorUserId: userId,
        action: 'statement_import.posted',
        entityType: 'statement_import',
        entityId: importId,
        after: { entries: fresh.length, firstNumber: lastNumber - fresh.length + 1, lastNumber },
      });
      await recordAudit(trx, {
        organizationId,
        actorUserId: userId,
        action: 'statement_import.committed',
        entityType: 'statement_import',
        entityId: importId,
        after: {
          moneyAccountId: money.id,
          fileName: input.fileName,
          format,
          statement: part.index,
          accountNumber: part.statement.accountNumber,
          imported: fresh.length,
          duplicates,
          categorizedByRules: byRules,
        },
      });
      imports.push({
        index: part.index,
        id: importId,
        moneyAccountId: money.id,
        imported: fresh.length,
        duplicates,
      });
      // One `transactions.imported` webhook event per import, not one per line (docs/webhooks.md).
      if (importId)
        await emitWebhookEvent(trx, { organizationId, now: ctx.now() }, 'transactions.imported', {
          importId,
          moneyAccountId: money.id,
          imported: fresh.length,
          uncategorized: fresh.length - byRules,
        });
      totalImported += fresh.length;
      totalByRules += byRules;
    }
    await onProgress?.(posted, toPost, 'finishing');
    // Large lines, and "N transactions need a category", to the company's members.
    const importIds = imports.flatMap((i) => (i.id ? [i.id] : []));
    await notifyBankLinesAdded(ctx, trx, organizationId, {
      importIds,
      imported: totalImported,
      uncategorized: totalImported - totalByRules,
    });
    // A large import changes the table's shape at once; fresh statistics keep the list's plans on its indexes.
    if (totalImported >= ANALYZE_FROM) await sql`analyze bank_transactions`.execute(trx);
    // /metrics: rows posted and found duplicate (counted when the work is done, before the commit).
    countImportedRows(totalImported, totalDuplicates);
    return {
      id: imports.find((i) => i.id)?.id ?? null,
      imported: totalImported,
      duplicates: totalDuplicates,
      categorizedByRules: totalByRules,
      durationMs: Math.round(performance.now() - started),
      imports,
    };
  });

export const listImports = async (ctx: AppContext, member: MemberContext, moneyAccountId?: string) => {
  let q = ctx.database.db
    .selectFrom('statement_imports')
    .select([
      'id',
      'money_account_id',
      'file_name',
      'format',
      'total_rows',
      'imported_rows',
      'duplicate_rows',
      'created_at',
    ])
    .where('organization_id', '=', member.organizationId);
  if (moneyAccountId) q = q.where('money_account_id', '=', moneyAccountId);
  const rows = await q.orderBy('created_at', 'desc').limit(50).execute();
  return rows.map((r) => ({
    id: r.id,
    moneyAccountId: r.money_account_id,
    fileName: r.file_name,
    format: r.format,
    totalRows: r.total_rows,
    importedRows: r.imported_rows,
    duplicateRows: r.duplicate_rows,
    createdAt: new Date(r.created_at as Date).toISOString(),
  }));
};

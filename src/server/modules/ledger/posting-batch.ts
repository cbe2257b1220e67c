import { sql } from 'kysely';
import { AppError } from '../../../shared/errors.ts';
import { inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../audit/record.ts';
import { newEntryId } from './ids.ts';
import {
  checkDate,
  checkOpenPeriods,
  checkSource,
  loadSettingsOrThrow,
  takeNumbersInOpenPeriod,
} from './posting-checks.ts';
import { type PostJournalEntryInput, checkAccounts, normalizeLines } from './posting-lines.ts';
import type { Executor } from './queries.ts';

/**
 * Posts many entries of one company at once (bank-statement imports, data moves, the seed):
 * the same rules as postJournalEntry, one number range, multi-row inserts and one audit row
 * for the batch. All or nothing.
 */
export const postJournalEntries = (
  db: Executor,
  organizationId: string,
  entries: Omit<PostJournalEntryInput, 'organizationId'>[],
  actorUserId: string | null,
) =>
  inTransaction(db, async (trx) => {
    if (entries.length === 0)
      return { count: 0, firstNumber: null as number | null, lastNumber: null as number | null };
    const settings = await loadSettingsOrThrow(trx, organizationId);
    const normalized = entries.map((e, i) => {
      checkDate(e.date);
      checkSource(e.source);
      try {
        return normalizeLines(e.lines, settings.base_currency, { requireBalanced: true });
      } catch (error) {
        if (error instanceof AppError) error.message = `Entry ${i + 1} (${e.date}): ${error.message}`;
        throw error;
      }
    });
    await checkAccounts(trx, organizationId, settings.base_currency, normalized.flat(), {
      allowArchived: false,
    });
    const dates = entries.map((e) => e.date);
    await checkOpenPeriods(trx, organizationId, dates, settings.lock_date);
    const first = await takeNumbersInOpenPeriod(trx, organizationId, dates);
    const now = new Date();
    const rows = entries.map((e, i) => ({
      organization_id: organizationId,
      id: newEntryId(),
      number: first + i,
      date: e.date,
      memo: (e.memo ?? '').trim(),
      reference: e.reference?.trim() || null,
      source: e.source,
      source_id: e.sourceId ?? null,
      status: 'posted' as const,
      created_by: e.actorUserId ?? actorUserId,
      posted_by: e.actorUserId ?? actorUserId,
      posted_at: now,
    }));
    // unnest() over array parameters: one statement with a few parameters per chunk, far
    // cheaper to send and plan than a multi-row VALUES list with tens of thousands of them.
    for (let i = 0; i < rows.length; i += 5000) {
      const chunk = rows.slice(i, i + 5000);
      await sql`
        insert into journal_entries (organization_id, id, number, date, memo, reference, source, source_id, status,
                                     created_by, posted_by, posted_at)
        select ${organizationId}, u.id, u.number, u.date, u.memo, u.reference, u.source, u.source_id, 'posted',
               u.actor, u.actor, ${now}::timestamptz
          from unnest(${chunk.map((r) => r.id)}::text[], ${chunk.map((r) => r.number)}::bigint[],
                      ${chunk.map((r) => r.date)}::date[], ${chunk.map((r) => r.memo)}::text[],
                      ${chunk.map((r) => r.reference)}::text[], ${chunk.map((r) => r.source)}::text[],
                      ${chunk.map((r) => r.source_id)}::text[], ${chunk.map((r) => r.created_by)}::text[])
            as u(id, number, date, memo, reference, source, source_id, actor)`.execute(trx);
    }
    const lineRows = rows.flatMap((r, i) =>
      normalized[i]!.map((l, j) => ({ entry: r, lineNo: j + 1, line: l })),
    );
    for (let i = 0; i < lineRows.length; i += 20_000) {
      const chunk = lineRows.slice(i, i + 20_000);
      await sql`
        insert into journal_lines (organization_id, entry_id, line_no, account_id, date, entry_number, is_closing,
                                   debit, credit, currency, amount, rate, description, contact_id)
        select ${organizationId}, u.entry_id, u.line_no, u.account_id, u.date, u.entry_number, false,
               u.debit, u.credit, u.currency, u.amount, u.rate, u.description, u.contact_id
          from unnest(${chunk.map((x) => x.entry.id)}::text[], ${chunk.map((x) => x.lineNo)}::smallint[],
                      ${chunk.map((x) => x.line.accountId)}::text[], ${chunk.map((x) => x.entry.date)}::date[],
                      ${chunk.map((x) => x.entry.number)}::bigint[], ${chunk.map((x) => x.line.debit)}::bigint[],
                      ${chunk.map((x) => x.line.credit)}::bigint[], ${chunk.map((x) => x.line.currency)}::text[],
                      ${chunk.map((x) => x.line.amount)}::bigint[], ${chunk.map((x) => x.line.rate)}::numeric[],
                      ${chunk.map((x) => x.line.description)}::text[], ${chunk.map((x) => x.line.contactId)}::text[])
            as u(entry_id, line_no, account_id, date, entry_number, debit, credit, currency, amount, rate,
                 description, contact_id)`.execute(trx);
    }
    const result = {
      count: rows.length,
      firstNumber: first,
      lastNumber: first + rows.length - 1,
    };
    await recordAudit(trx, {
      organizationId,
      actorUserId,
      action: 'journal_entry.batch_posted',
      entityType: 'journal_entry',
      entityId: `${result.firstNumber}-${result.lastNumber}`,
      after: { ...result, sources: [...new Set(entries.map((e) => e.source))] },
    });
    return result;
  });

import { sql } from 'kysely';
import { badRequest } from '../../../shared/errors.ts';
import type { JournalEntry, JournalSourceName, JournalStatusName } from '../../../shared/ledger.ts';
import { loadEntry } from './posting.ts';
import type { Executor } from './queries.ts';

// Listing journal entries (newest first) for the Journal Entries screen, with keyset pages.

type ListCursor = { date: string; created: string; id: string };

export type ListEntriesQuery = {
  status?: JournalStatusName;
  source?: JournalSourceName;
  from?: string;
  to?: string;
  search?: string;
  limit: number;
  cursor?: string;
};

const decode = (cursor: string | undefined): ListCursor | null => {
  if (!cursor) return null;
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof v?.date === 'string' && typeof v?.created === 'string' && typeof v?.id === 'string') return v;
  } catch {
    // fall through
  }
  throw badRequest('invalid_cursor', 'The page cursor is not valid; start again from the first page.');
};

export const listEntries = async (
  db: Executor,
  organizationId: string,
  query: ListEntriesQuery,
): Promise<{ entries: JournalEntry[]; nextCursor: string | null }> => {
  const cursor = decode(query.cursor);
  let q = db.selectFrom('journal_entries').selectAll().where('organization_id', '=', organizationId);
  if (query.status) q = q.where('status', '=', query.status);
  if (query.source) q = q.where('source', '=', query.source);
  if (query.from) q = q.where('date', '>=', query.from);
  if (query.to) q = q.where('date', '<=', query.to);
  if (query.search) {
    const term = `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const asNumber = /^\d{1,15}$/.test(query.search.trim()) ? Number(query.search.trim()) : null;
    q = q.where((eb) =>
      eb.or([
        eb('memo', 'ilike', term),
        eb('reference', 'ilike', term),
        ...(asNumber !== null ? [eb('number', '=', asNumber)] : []),
      ]),
    );
  }
  if (cursor) {
    q = q.where(
      sql<boolean>`(date, created_at, id) < (${cursor.date}::date, ${cursor.created}::timestamptz, ${cursor.id})`,
    );
  }
  const rows = await q
    .orderBy('date', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const entries: JournalEntry[] = [];
  for (const row of page) entries.push(await loadEntry(db, organizationId, row.id, row));
  const last = page.at(-1);
  return {
    entries,
    nextCursor:
      rows.length > query.limit && last
        ? Buffer.from(
            JSON.stringify({
              date: last.date,
              created: new Date(last.created_at as Date).toISOString(),
              id: last.id,
            }),
          ).toString('base64url')
        : null,
  };
};

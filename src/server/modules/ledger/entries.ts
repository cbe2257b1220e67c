import type { JournalEntry, JournalSourceName, JournalStatusName } from '../../../shared/ledger.ts';
import { decodeCursor, exactTimestamp, keysetPage } from '../../db/cursor.ts';
import { loadEntries } from './entry-view.ts';
import type { Executor } from './queries.ts';

// Listing journal entries (newest first) for the Journal Entries screen, with keyset pages.
// The cursor keeps created_at as exact text with microseconds: a millisecond Date would sit
// before the stored value and skip every row created in the same millisecond (issue 11 §8).

export type ListEntriesQuery = {
  status?: JournalStatusName;
  source?: JournalSourceName;
  from?: string;
  to?: string;
  search?: string;
  limit: number;
  cursor?: string;
};

export const listEntries = async (
  db: Executor,
  organizationId: string,
  query: ListEntriesQuery,
): Promise<{ entries: JournalEntry[]; nextCursor: string | null }> => {
  const cursor = decodeCursor(query.cursor, { date: 'date', created: 'timestamp', id: 'string' });
  let q = db
    .selectFrom('journal_entries')
    .selectAll()
    .select(exactTimestamp('created_at').as('created_exact'))
    .where('organization_id', '=', organizationId);
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
  const { page, nextCursor } = await keysetPage(q, {
    keys: [['date', 'date'], ['created_at', 'timestamptz'], ['id']],
    after: cursor && [cursor.date, cursor.created, cursor.id],
    limit: query.limit,
    direction: 'desc',
  });
  const entries = await loadEntries(
    db,
    organizationId,
    page.map(({ created_exact: _, ...row }) => row),
  );
  return {
    entries,
    nextCursor: nextCursor((last) => ({ date: last.date, created: last.created_exact, id: last.id })),
  };
};

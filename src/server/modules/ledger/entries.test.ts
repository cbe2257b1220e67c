import { describe, expect, it } from 'vitest';
import { createTestCompanyInDatabase } from '../../testing/companies.ts';
import { countingQueries, testDatabaseKind } from '../../testing/db.ts';
import { debitCreditLines } from '../../testing/ledger.ts';
import { setUpTestDatabase } from '../../testing/per-file-app.ts';
import { createDraftEntry } from './drafts.ts';
import { listEntries } from './entries.ts';
import { loadEntry } from './entry-view.ts';
import { postJournalEntries, postJournalEntry, reverseJournalEntry } from './posting.ts';

const handle = setUpTestDatabase();

/** The database with every query counted (issue 20 §3: a list page costs a constant number). */
const counted = () => countingQueries(handle.db);

describe(`journal entry list (${testDatabaseKind()})`, () => {
  it('reads a page in the same number of queries at 10 and at 50 entries, each entry as loadEntry reads it', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const base = { source: 'manual' as const, actorUserId: 'u1' };
    await postJournalEntries(
      handle.db,
      org.id,
      Array.from({ length: 60 }, (_, i) => ({
        ...base,
        date: `2026-03-${String(1 + (i % 28)).padStart(2, '0')}`,
        memo: `Sale ${i}`,
        lines: debitCreditLines(org.accounts.bank!, org.accounts.sales!, 100 + i),
      })),
      'u1',
    );
    // Drafts and a reversal among them, on the newest dates so both pages hold each kind.
    for (let i = 0; i < 6; i += 1) {
      await createDraftEntry(handle.db, {
        organizationId: org.id,
        actorUserId: 'u1',
        date: `2026-04-0${1 + i}`,
        memo: `Draft ${i}`,
        lines: debitCreditLines(org.accounts.bank!, org.accounts.sales!, 7 + i),
      });
    }
    const reversed = await postJournalEntry(handle.db, {
      ...base,
      organizationId: org.id,
      date: '2026-04-03',
      lines: debitCreditLines(org.accounts.bank!, org.accounts.sales!, 55),
    });
    await reverseJournalEntry(handle.db, { organizationId: org.id, entryId: reversed.id, actorUserId: 'u1' });

    const counts: number[] = [];
    for (const limit of [10, 50]) {
      const { db, count } = counted();
      const page = await listEntries(db, org.id, { limit });
      counts.push(count.queries);
      expect(page.entries).toHaveLength(limit);
      expect(page.entries.some((e) => e.status === 'draft')).toBe(true);
      expect(page.entries.some((e) => e.reversedByEntryId !== null)).toBe(true);
      // Each entry as the single-entry read shows it: lines, reversal link, attachments.
      for (const entry of page.entries) {
        expect(entry).toEqual(await loadEntry(handle.db, org.id, entry.id));
        expect(entry.lines.length).toBeGreaterThanOrEqual(2);
      }
    }
    expect(counts[0]).toBe(counts[1]);
    expect(counts[0]).toBeGreaterThan(1);
    expect(counts[0]).toBeLessThanOrEqual(5);
  });
});

import { describe, expect, it } from 'vitest';
import { setFormatPreferences } from '../../lib/format.ts';
import { exportHref, ledgerPaths, newIdempotencyKey } from './ledgerApi.ts';

describe('ledger API paths', () => {
  it('builds export links under the company with the format last and empty values left out', () => {
    expect(exportHref('org-1', 'trial-balance', { from: undefined, to: '2026-11-21' }, 'csv')).toBe(
      '/api/orgs/org-1/reports/trial-balance?to=2026-11-21&dateFormat=MM%2FDD%2FYYYY&format=csv',
    );
    expect(
      exportHref(
        'org 2',
        'general-ledger',
        { accountId: 'a&b', from: '2026-01-01', to: '2026-12-31' },
        'pdf',
      ),
    ).toBe(
      '/api/orgs/org 2/reports/general-ledger?accountId=a%26b&from=2026-01-01&to=2026-12-31&dateFormat=MM%2FDD%2FYYYY&format=pdf',
    );
  });

  it("asks for the PDF in the user's date format", () => {
    setFormatPreferences({ dateFormat: 'DD.MM.YYYY' });
    try {
      expect(exportHref('o', 'income-statement', { to: '2026-03-31', compare: 'both' }, 'pdf')).toBe(
        '/api/orgs/o/reports/income-statement?to=2026-03-31&compare=both&dateFormat=DD.MM.YYYY&format=pdf',
      );
    } finally {
      setFormatPreferences(null);
    }
  });

  it('names every entry action route', () => {
    const p = ledgerPaths('o');
    expect([
      p.postEntry('e'),
      p.approveEntry('e'),
      p.reverseEntry('e'),
      p.accountsImport,
      p.settings,
    ]).toEqual([
      '/orgs/o/journal-entries/e/post',
      '/orgs/o/journal-entries/e/approve',
      '/orgs/o/journal-entries/e/reverse',
      '/orgs/o/accounts/import',
      '/orgs/o/ledger/settings',
    ]);
  });

  it('makes idempotency keys that are v4 UUIDs and differ', () => {
    const a = newIdempotencyKey();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newIdempotencyKey()).not.toBe(a);
  });
});

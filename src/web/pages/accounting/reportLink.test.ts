import { describe, expect, it } from 'vitest';
import { reportFromLink } from './ReportsTab.tsx';

// The Reports tab opens what a link asks for (the dashboard's figures), and falls back safely.

const fallback = { from: '2026-01-01', to: '2026-11-28' };
const read = (query: string) => reportFromLink(new URLSearchParams(query), fallback);

describe('reportFromLink', () => {
  it('opens the named report over the linked period', () => {
    expect(read('tab=reports&report=cash-flow&from=2026-08-01&to=2026-10-31')).toEqual({
      report: 'cash-flow',
      from: '2026-08-01',
      to: '2026-10-31',
    });
  });
  it('falls back to the income statement over the fiscal year for anything else', () => {
    expect(read('report=payroll&from=2026-08-01&to=2026-10-31')).toEqual({
      report: 'income-statement',
      from: '2026-08-01',
      to: '2026-10-31',
    });
    expect(read('report=balance-sheet&from=2026-10-31&to=2026-08-01')).toEqual({
      report: 'balance-sheet',
      ...fallback,
    });
    expect(read('report=cash-flow&from=yesterday&to=2026-08-01')).toEqual({
      report: 'cash-flow',
      ...fallback,
    });
    expect(read('')).toEqual({ report: 'income-statement', ...fallback });
  });
});

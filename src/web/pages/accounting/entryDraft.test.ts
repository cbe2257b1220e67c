import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { balancingAmount, checkEntry, newLine, searchAccounts, toApiLines } from './entryDraft.ts';

const line = (accountId: string, debit = '', credit = '', description = '') =>
  newLine({ accountId, debit, credit, description });

describe('journal entry editor rules', () => {
  it('shows the running difference and refuses to post until it is zero', () => {
    const unbalanced = checkEntry(
      { date: '2026-11-21', lines: [line('a', '100.10'), line('b', '', '100')] },
      'USD',
    );
    expect(unbalanced.totalDebit).toBe(10010);
    expect(unbalanced.totalCredit).toBe(10000);
    expect(unbalanced.difference).toBe(10);
    expect(unbalanced.blockers).toContain('Debits and credits must be equal before the entry can be posted.');
    expect(unbalanced.draftBlockers).toEqual([]);

    const balanced = checkEntry(
      { date: '2026-11-21', lines: [line('a', '100.10'), line('b', '', '100.1'), newLine()] },
      'USD',
    );
    expect(balanced.difference).toBe(0);
    expect(balanced.blockers).toEqual([]);
  });

  it('flags lines without an account, with both sides, or with bad amounts', () => {
    const c = checkEntry(
      {
        date: '2026-11-21',
        lines: [line('', '5'), line('b', '1', '1'), line('c', '1.234'), line('d', '', 'abc')],
      },
      'USD',
    );
    expect(c.lines[0]!.errors[0]!.message).toBe('Choose an account.');
    expect(c.lines[1]!.errors[0]!.message).toBe('Enter a debit or a credit on a line, not both.');
    expect(c.lines[2]!.errors[0]!.message).toMatch(/more than 2 decimal places/);
    expect(c.lines[3]!.errors[0]!.message).toMatch(/is not an amount/);
    expect(c.draftBlockers).toContain('Fix the highlighted lines.');
  });

  it('respects the currency exponent (JPY has no minor digits)', () => {
    const c = checkEntry({ date: '2026-11-21', lines: [line('a', '1500'), line('b', '', '1,500')] }, 'JPY');
    expect(c.totalDebit).toBe(1500);
    expect(c.blockers).toEqual([]);
  });

  it('needs two lines and a date', () => {
    const c = checkEntry({ date: '', lines: [line('a', '1')] }, 'USD');
    expect(c.draftBlockers).toEqual(['Enter the entry date.', 'An entry needs at least two lines.']);
  });

  it('sends only the filled lines, in minor units', () => {
    expect(toApiLines([line('a', '12.34', '', ' rent '), newLine(), line('b', '', '12.34')], 'USD')).toEqual([
      { accountId: 'a', debit: 1234, description: 'rent' },
      { accountId: 'b', credit: 1234 },
    ]);
  });

  it('suggests the amount that balances the entry', () => {
    const c = checkEntry({ date: '2026-11-21', lines: [line('a', '10'), line('b', '', '4.5')] }, 'USD');
    expect(balancingAmount(c, 'USD')).toEqual({ debit: '', credit: '5.50' });
  });

  it('totals exactly for any amounts (no float drift)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 10_000_000_00 }), { minLength: 1, maxLength: 30 }),
        (cents) => {
          const debits = cents.map((c, i) => line(`d${i}`, (c / 100).toFixed(2)));
          const total = cents.reduce((s, c) => s + c, 0);
          const credit = line('x', '', (total / 100).toFixed(2));
          const check = checkEntry({ date: '2026-01-01', lines: [...debits, credit] }, 'USD');
          expect(check.totalDebit).toBe(total);
          expect(check.difference).toBe(0);
        },
      ),
    );
  });

  it('finds accounts by code prefix first, then by name, leaving archived ones out', () => {
    const accounts = [
      { code: '1010', name: 'Business bank account', archived: false },
      { code: '4000', name: 'Sales', archived: false },
      { code: '6100', name: 'Bank fees', archived: false },
      { code: '1000', name: 'Old bank', archived: true },
    ];
    expect(searchAccounts(accounts, '10').map((a) => a.code)).toEqual(['1010', '6100']);
    expect(searchAccounts(accounts, '40').map((a) => a.code)).toEqual(['4000']);
    expect(searchAccounts(accounts, 'bank').map((a) => a.code)).toEqual(['1010', '6100']);
    expect(searchAccounts(accounts, 'bank fe').map((a) => a.code)).toEqual(['6100']);
    expect(searchAccounts(accounts, '').length).toBe(3);
  });
});

import { describe, expect, it } from 'vitest';
import type { BalanceSheet, IncomeStatement } from '../../../shared/ledger.ts';
import { incomeAndExpenses, positionFrom } from './figures.ts';

const line = (code: string, subtype: string, amount: number, type: 'asset' | 'liability' = 'asset') => ({
  accountId: `id-${code}`,
  code,
  name: `Account ${code}`,
  type,
  subtype,
  amount,
});

describe('dashboard figures', () => {
  it('adds bank, cash and cash equivalents for the cash position; AR and AP apart', () => {
    const bs = {
      assets: [
        line('1000', 'cash', 5_00),
        line('1010', 'bank', 1_234_56),
        line('1050', 'cash_equivalent', 99),
        line('1100', 'accounts_receivable', 300_00),
        line('1500', 'fixed_asset', 10_000_00),
      ],
      liabilities: [
        line('2000', 'accounts_payable', 120_00, 'liability'),
        line('2200', 'tax', 7_00, 'liability'),
      ],
    } as unknown as BalanceSheet;
    const p = positionFrom(bs);
    expect(p.cash).toBe(1_240_55);
    expect(p.cashAccounts.map((a) => a.code)).toEqual(['1000', '1010', '1050']);
    expect(p.receivables).toBe(300_00);
    expect(p.payables).toBe(120_00);
  });

  it('counts cost of sales as an expense', () => {
    const is = {
      totals: { income: 1000_00, costOfSales: 200_00, expenses: 300_00, netIncome: 500_00 },
    } as unknown as IncomeStatement;
    expect(incomeAndExpenses(is)).toEqual({ income: 1000_00, expenses: 500_00, net: 500_00 });
  });
});

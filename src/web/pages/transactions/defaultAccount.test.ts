import { describe, expect, it } from 'vitest';
import type { MoneyAccount, WalletSummary } from '../../../shared/wallet.ts';
import { formMoneyAccountId } from './defaultAccount.ts';

const account = (id: string, extra: Partial<MoneyAccount> = {}) =>
  ({ id, archived: false, ...extra }) as MoneyAccount;
const wallet = (accounts: MoneyAccount[], defaultDepositAccountId: string | null) =>
  ({ accounts, defaultDepositAccountId }) as WalletSummary;

describe('the money account the reconcile dialog and the import wizard start on', () => {
  it('is the deposit account, not the first listed one', () => {
    const w = wallet([account('card'), account('cash'), account('bank')], 'bank');
    expect(formMoneyAccountId(w, '')).toBe('bank');
  });

  it('keeps what the person picked while it is open; falls back when it is archived or gone', () => {
    const w = wallet([account('card'), account('old', { archived: true }), account('bank')], 'bank');
    expect(formMoneyAccountId(w, 'card')).toBe('card');
    expect(formMoneyAccountId(w, 'old')).toBe('bank');
    expect(formMoneyAccountId(w, 'elsewhere')).toBe('bank');
  });

  it('takes the first open account without a deposit account, and nothing before the wallet loads', () => {
    expect(formMoneyAccountId(wallet([account('a', { archived: true }), account('b')], null), '')).toBe('b');
    expect(formMoneyAccountId(undefined, '')).toBe('');
  });
});

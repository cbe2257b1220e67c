import { describe, expect, it } from 'vitest';
import { LEDGER_VOLUME_LIMIT, MAX_AMOUNT_MINOR } from '../../../shared/money.ts';
import { setUpTestCompany } from '../../testing/api.ts';
import { ofxStatementWith } from '../../testing/statements.ts';

// A statement whose amounts add up past the ledger's volume limit could never post; its
// preview must refuse it by line (400), not add past the range where a number is exact.

const fx = setUpTestCompany();

const ofxWith = (count: number, amount: string) =>
  ofxStatementWith(count, (i) => ({ amount, fitId: `T${i}`, name: `Big ${i}` }));

const addAccount = async (name: string) => {
  const res = await fx.call('POST', '/wallet/accounts', {
    kind: 'bank',
    name,
    currency: 'USD',
    openingDate: '2000-01-01',
    openingBalance: 0,
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
};

const preview = (moneyAccountId: string, fileName: string, content: string) =>
  fx.call('POST', '/statement-imports/preview', { moneyAccountId, fileName, content });

describe('statement totals', () => {
  it('refuses, naming the line, a statement whose amounts add up past the ledger limit', async () => {
    const account = await addAccount('Big bank');
    const largest = (MAX_AMOUNT_MINOR / 100).toFixed(2);
    const count = Math.floor(LEDGER_VOLUME_LIMIT / MAX_AMOUNT_MINOR) + 1;
    const res = await preview(account, 'big.ofx', ofxWith(count, largest));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('statement_total_too_large');
    expect(res.body.error.message).toMatch(/^Line \d+: /);
  });
});

describe('statement dates', () => {
  it('refuses, naming the line, a row dated after the latest date the API keeps', async () => {
    const account = await addAccount('Far future');
    const content = ofxWith(1, '12.34').replace('<DTPOSTED>20261105', '<DTPOSTED>99991231');
    const res = await preview(account, 'future.ofx', content);
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.error)).toContain('9999-12-31 is after 2199-12-31');
  });
});

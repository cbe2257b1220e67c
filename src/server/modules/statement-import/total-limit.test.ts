import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEDGER_VOLUME_LIMIT, MAX_AMOUNT_MINOR } from '../../../shared/money.ts';
import { createTestApp } from '../../testing/app.ts';
import { type TestCompany, createTestCompany } from '../../testing/companies.ts';

// A statement whose amounts add up past the ledger's volume limit could never post; its
// preview must refuse it by line (400), not add past the range where a number is exact.

let t: Awaited<ReturnType<typeof createTestApp>>;
let company: TestCompany;

beforeAll(async () => {
  t = await createTestApp();
  company = await createTestCompany(t.app);
});
afterAll(async () => {
  await t?.close();
});

const ofxWith = (count: number, amount: string) => {
  const rows = Array.from(
    { length: count },
    (_, i) =>
      `<STMTTRN><TRNTYPE>CREDIT</TRNTYPE><DTPOSTED>20261105</DTPOSTED><TRNAMT>${amount}</TRNAMT><FITID>T${i}</FITID><NAME>Big ${i}</NAME></STMTTRN>`,
  );
  return `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>42<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST><DTSTART>20261101<DTEND>20261130\n${rows.join('\n')}\n</BANKTRANLIST><LEDGERBAL><BALAMT>0<DTASOF>20261130</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n`;
};

const addAccount = async (name: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/orgs/${company.id}/wallet/accounts`,
    headers: { cookie: company.owner.cookie },
    payload: { kind: 'bank', name, currency: 'USD', openingDate: '2000-01-01', openingBalance: 0 },
  });
  expect(res.statusCode).toBe(201);
  return res.json().id as string;
};

const preview = (moneyAccountId: string, fileName: string, content: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/orgs/${company.id}/statement-imports/preview`,
    headers: { cookie: company.owner.cookie },
    payload: { moneyAccountId, fileName, content },
  });

describe('statement totals', () => {
  it('refuses, naming the line, a statement whose amounts add up past the ledger limit', async () => {
    const account = await addAccount('Big bank');
    const largest = (MAX_AMOUNT_MINOR / 100).toFixed(2);
    const count = Math.floor(LEDGER_VOLUME_LIMIT / MAX_AMOUNT_MINOR) + 1;
    const res = await preview(account, 'big.ofx', ofxWith(count, largest));
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('statement_total_too_large');
    expect(res.json().error.message).toMatch(/^Line \d+: /);
  });
});

describe('statement dates', () => {
  it('refuses, naming the line, a row dated after the latest date the API keeps', async () => {
    const account = await addAccount('Far future');
    const content = ofxWith(1, '12.34').replace('<DTPOSTED>20261105', '<DTPOSTED>99991231');
    const res = await preview(account, 'future.ofx', content);
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json().error)).toContain('9999-12-31 is after 2199-12-31');
  });
});

import { randomUUID } from 'node:crypto';
import type { App } from '../app.ts';
import { StatementParseError } from '../modules/statement-import/types.ts';
import type { TestCompany } from './companies.ts';

// Statement files and refusals for the statement-import tests.

/** The column mapping of the fixture checking-us.csv (a US bank's CSV export). */
export const CHECKING_US_MAPPING = {
  dateColumn: 0,
  descriptionColumn: 1,
  payeeColumn: 2,
  amountColumn: 3,
  externalIdColumn: 4,
  dateFormat: 'MM/DD/YYYY',
  decimalSeparator: '.',
} as const;

/** The errors a statement parser refuses with (line and reason each); fails when it does not refuse. */
export const statementErrorsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof StatementParseError) return error.errors;
    throw error;
  }
  throw new Error('expected the file to be refused');
};

/**
 * An OFX 1.x (SGML) USD checking statement for November 2026 with `count` credits on
 * 2026-11-05; `row(i)` gives each one's TRNAMT, FITID and NAME. Line 1 is the header.
 */
export const ofxStatementWith = (
  count: number,
  row: (i: number) => { amount: string; fitId: string; name: string },
) => {
  const rows = Array.from({ length: count }, (_, i) => {
    const { amount, fitId, name } = row(i);
    return `<STMTTRN><TRNTYPE>CREDIT</TRNTYPE><DTPOSTED>20261105</DTPOSTED><TRNAMT>${amount}</TRNAMT><FITID>${fitId}</FITID><NAME>${name}</NAME></STMTTRN>`;
  });
  return `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>42<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST><DTSTART>20261101<DTEND>20261130\n${rows.join('\n')}\n</BANKTRANLIST><LEDGERBAL><BALAMT>0<DTASOF>20261130</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n`;
};

/** A new USD bank account of the company (opened 2000-01-01 at 0) through the API; its id. */
export const addUsdBankAccount = async (app: App, company: TestCompany): Promise<string> => {
  const res = await app.inject({
    method: 'POST',
    url: `/api/orgs/${company.id}/wallet/accounts`,
    headers: { cookie: company.owner.cookie },
    payload: {
      kind: 'bank',
      name: `Bank ${randomUUID()}`,
      currency: 'USD',
      openingDate: '2000-01-01',
      openingBalance: 0,
    },
  });
  if (res.statusCode !== 201)
    throw new Error(`adding a bank account answered ${res.statusCode}: ${res.body}`);
  return res.json().id as string;
};

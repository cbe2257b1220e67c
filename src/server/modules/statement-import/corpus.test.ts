import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StatementPart } from '../../../shared/transactions.ts';
import { setUpTestCompany } from '../../testing/api.ts';
import { parseStatementBytes } from './parse.ts';
import { StatementParseError } from './types.ts';

// Every OFX/QFX and ISO 20022 CAMT file of the shared real-world corpus (../shared/corpus from
// the repository root; see its SOURCES.md), read from its bytes through the same decode and
// parse path as an upload. Each expectation is worked out from the file itself (its balance
// lines: opening + entries = closing, where it has both), the format's specification, or the
// source project's own test, and carries its reason. Nothing of the corpus is copied here.

const here = path.dirname(fileURLToPath(import.meta.url));
const corpus = path.resolve(here, '../../../../../shared/corpus');
const present = fs.existsSync(path.join(corpus, 'ofx')) && fs.existsSync(path.join(corpus, 'camt053'));

type Balance = { date: string; amount: number } | null;
type ExpectedStatement = {
  account: string | null;
  currency: string | null;
  count: number;
  /** Sum of the imported amounts, minor units. */
  sum: number;
  first?: string;
  last?: string;
  opening?: Balance;
  closing?: Balance;
  /** A payee that shows the characters were decoded right. */
  payee?: string;
};
type Case = { file: string; why: string } & (
  | { statements: ExpectedStatement[] }
  | { refused: { line: number; reason: RegExp } }
);

// One case a file: `read` lists the statements the file holds, `refused` the first line the
// parser names and why. `st(account, currency, count, sum, [first date, last date] | null, …)`
// is one statement; `opening`/`closing` left out are not checked, `null` means "none".
const read = (file: string, why: string, ...statements: ExpectedStatement[]): Case => ({
  file,
  why,
  statements,
});
const refused = (file: string, why: string, line: number, reason: RegExp): Case => ({
  file,
  why,
  refused: { line, reason },
});
const bal = (date: string, amount: number): Balance => ({ date, amount });
const st = (
  account: string | null,
  currency: string | null,
  count: number,
  sum: number,
  dates: [first: string, last: string] | null,
  more: Pick<ExpectedStatement, 'opening' | 'closing' | 'payee'> = {},
): ExpectedStatement => ({
  account,
  currency,
  count,
  sum,
  ...(dates ? { first: dates[0], last: dates[1] } : {}),
  ...more,
});

const CASES: Case[] = [
  // --- OFX / QFX ---------------------------------------------------------------------
  read(
    'ofx/actual-1252.qfx',
    'CHARSET:1252 bytes: "é", "€" and "—" must come out as written; one 20.00 CAD debit',
    st('999-12345-0055666-EOP', 'CAD', 1, -2000, ['2022-10-19', '2022-10-19'], {
      closing: bal('2022-10-20', 999999),
      payee: 'Café Métro €uro',
    }),
  ),
  read(
    'ofx/actual-8859-1.qfx',
    'CHARSET:8859-1 bytes: "é" of "prépayée" must come out as written',
    st('999-12345-0055666-EOP', 'CAD', 1, -2000, ['2022-10-19', '2022-10-19'], {
      closing: bal('2022-10-20', 999999),
      payee: 'Paiement facture/Carte prépayée',
    }),
  ),
  read(
    'ofx/actual-utf-8.qfx',
    'ENCODING:UTF-8: the same text as the 1252 file, read as UTF-8',
    st('999-12345-0055666-EOP', 'CAD', 1, -2000, ['2022-10-19', '2022-10-19'], {
      closing: bal('2022-10-20', 999999),
      payee: 'Café Métro €uro',
    }),
  ),
  read(
    'ofx/actual-data-multi-decimal.ofx',
    '"-30.000" and "-3.77000" carry only zeros past the cents: -30.00 and -3.77 (Actual expects the same)',
    st('123456789123', 'USD', 2, -3377, ['2019-01-23', '2019-01-23'], { closing: null }),
  ),
  read(
    'ofx/actual-html-vals.qfx',
    'entities decoded once as SGML says ("&amp;" → "&", "&amp;lt;" → "&lt;"); two 1.00 CAD debits',
    st('00000 00-00000', 'CAD', 2, -200, ['2023-03-01', '2023-05-09'], {
      closing: bal('2023-11-06', 111111),
      payee: 'TPAY &lt;DEFTPYMT&gt;',
    }),
  ),
  read(
    'ofx/oca-test_ofx.ofx',
    'a bank statement (4 debits: -80, -90, -100, -90 = -360.00) and a credit card statement with no transactions, each with its own LEDGERBAL',
    st('123456', 'USD', 4, -36000, ['2013-08-24', '2013-08-24'], { closing: bal('2013-08-31', 215656) }),
    st('123412341234', 'USD', 0, 0, null, { closing: bal('2013-08-31', -56200) }),
  ),
  read(
    'ofx/oca-test_ofx_iban.ofx',
    'as test_ofx.ofx with another account id',
    st('12345678901', 'USD', 4, -36000, ['2013-08-24', '2013-08-24'], { closing: bal('2013-08-31', 215656) }),
    st('123412341234', 'USD', 0, 0, null, { closing: bal('2013-08-31', -56200) }),
  ),
  refused(
    'ofx/oca-test_ofx_wrong.ofx',
    "the second transaction's DTPOSTED and TRNAMT are inside a comment: the transaction has no date (OCA expects a refusal too)",
    42,
    /no DTPOSTED/,
  ),
  read(
    'ofx/ofxgo-bmo_v102__no_header_newline.qfx',
    'no blank line after the SGML header; one CAD 2,042.24 card credit',
    st('2380370270281083', 'CAD', 1, 204224, ['2018-10-30', '2018-10-30'], {
      closing: bal('2018-12-02', -55263),
    }),
  ),
  refused(
    'ofx/ofxgo-moneymrkt1_v103.ofx',
    'TRNAMT "-995.4190396554627" has non-zero digits past the cents: cents would be lost',
    45,
    /-995\.4190396554627.*lose part of a cent/,
  ),
  refused(
    'ofx/ofxgo-moneymrkt1_v203.ofx',
    'declares encoding="utf-16" over one-byte text (read as UTF-8); TRNAMT "1303.7355652284177" would lose cents',
    36,
    /1303\.7355652284177/,
  ),
  read(
    'ofx/ofxgo-wellsfargo.qfx',
    'the whole file on one line, header included; one 12.34 debit',
    st('9876543210', 'USD', 1, -1234, ['2020-12-01', '2020-12-01'], { closing: bal('2020-12-31', 12345) }),
  ),
  read(
    'ofx/ofxparse-anzcc.ofx',
    'credit card statement (CCSTMTRS); one 5.50 AUD purchase',
    st('1234123412341234', 'AUD', 1, -550, ['2017-05-08', '2017-05-08'], {
      closing: bal('2017-05-10', -12345),
    }),
  ),
  read(
    'ofx/ofxparse-bank_medium.ofx',
    'three debits: -6.60 - 316.67 - 22.00 = -345.27 CAD',
    st('12300 000012345678', 'CAD', 3, -34527, ['2009-04-01', '2009-04-03'], {
      closing: bal('2009-05-23', 38234),
    }),
  ),
  refused(
    'ofx/ofxparse-bank_small.ofx',
    'an empty <OFX></OFX>: no statement at all',
    11,
    /no bank or credit-card statement/,
  ),
  read(
    'ofx/ofxparse-checking.ofx',
    'three transactions: +0.01 - 34.51 - 25.00 = -59.50 USD',
    st('1452687~7', 'USD', 3, -5950, ['2011-03-31', '2011-04-07'], { closing: bal('2013-05-25', 10099) }),
  ),
  refused(
    'ofx/ofxparse-error_message.ofx',
    'the server answered SEVERITY ERROR (2000 General Server Error) and sent no statement',
    22,
    /2000 General Server Error/,
  ),
  refused(
    'ofx/ofxparse-failnice-date_missing.ofx',
    'one transaction without DTPOSTED, one with an empty one, one on 2012-02-31',
    33,
    /no DTPOSTED/,
  ),
  refused(
    'ofx/ofxparse-failnice-decimal_error.ofx',
    'TRNAMT "$120" is not an OFX amount (and the date 2011-20-00 is not a date)',
    36,
    /DTPOSTED "201120000000"/,
  ),
  read(
    'ofx/ofxparse-failnice-empty_balance.ofx',
    'LEDGERBAL with an empty BALAMT: the transaction imports, no closing balance (said in a notice)',
    st('192639749', 'CAD', 1, 12000, ['2011-03-08', '2011-03-08'], { closing: null }),
  ),
  read(
    'ofx/ofxparse-multiple_accounts2.ofx',
    'two bank statements (9100 checking, 9200 savings) without transactions, each with its LEDGERBAL 111 and 222',
    st('9100', 'USD', 0, 0, null, { closing: bal('2012-06-03', 11100) }),
    st('9200', 'USD', 0, 0, null, { closing: bal('2012-06-03', 22200) }),
  ),
  read(
    'ofx/ofxparse-ofx-v102-empty-tags.ofx',
    "empty CURDEF and BALAMT: the currency is the transaction's CURRENCY (CURSYM AUD at rate 1), one 12.34 credit",
    st('12345678', 'AUD', 1, 1234, ['2018-05-07', '2018-05-07'], { closing: null }),
  ),
  read(
    'ofx/ofxparse-suncorp.ofx',
    'one 16.85 AUD debit',
    st('123456789', 'AUD', 1, -1685, ['2013-12-15', '2013-12-15'], { closing: bal('2013-12-15', 123412) }),
  ),
  refused(
    'ofx/ofxparse-vanguard-investment.ofx',
    'an investment statement (INVSTMTRS), not a bank statement',
    11,
    /investment statement/,
  ),
  read(
    'ofx/ofxtools-br_nubank_cc.ofx',
    'six card transactions; the LEDGERBAL -1,280.91 equals their sum (a new card)',
    st('11111111-UUID-UUID-UUID-111111111111', 'BRL', 6, -128091, ['2024-03-22', '2024-03-23'], {
      closing: bal('2024-03-25', -128091),
    }),
  ),
  read(
    'ofx/ofxtools-stmtrs.ofx',
    "ofxtools' STMTRS sample: two transactions, -500.00 in all, LEDGERBAL 200.29",
    st('999988', 'USD', 2, -50000, ['2005-10-04', '2005-10-20'], { closing: bal('2005-10-29', 20029) }),
  ),
  read(
    'ofx/ofxtools-stmtrs_euro.ofx',
    'the same statement written with decimal commas',
    st('999988', 'USD', 2, -50000, ['2005-10-04', '2005-10-20'], { closing: bal('2005-10-29', 20029) }),
  ),
  // --- ISO 20022 CAMT ------------------------------------------------------------------
  read(
    'camt053/actual-camt.latin1-camt052.xml',
    'camt.052 report in ISO-8859-1: +100.00 and -5.00; "Grüße aus München" decoded right; no balances',
    st('DE00000000000000000000', 'EUR', 2, 9500, ['2025-09-09', '2025-09-09'], {
      opening: null,
      closing: null,
      payee: 'Grüße aus München',
    }),
  ),
  read(
    'camt053/genkgo-camt053.v2.all-balance-types.xml',
    'every balance type once: OPBD 1.01 is the opening, CLBD 4.04 the closing (synthetic: they do not tie with the 8.85 entry)',
    st('CH2801234000123456789', 'EUR', 1, 885, ['2014-12-31', '2014-12-31'], {
      opening: bal('2015-01-21', 101),
      closing: bal('2015-01-22', 404),
    }),
  ),
  read(
    'camt053/genkgo-camt053.v2.five.decimals.xml',
    '"8.850" and "18.150" carry a zero past the cents (genkgo reads 8.85)',
    st('NL26VAYB8060476890', 'EUR', 1, 885, ['2014-12-31', '2014-12-31'], {
      opening: bal('2014-12-30', 1815),
      closing: bal('2014-12-31', 2705),
    }),
  ),
  read(
    'camt053/genkgo-camt053.v2.minimal.ultimate.xml',
    'one 8.85 EUR credit; its CLBD is in SEK, so it is not used as the closing balance (notice)',
    st('NL26VAYB8060476890', 'EUR', 1, 885, ['2014-12-31', '2014-12-31'], {
      opening: bal('2014-12-30', 1815),
      closing: null,
    }),
  ),
  read(
    'camt053/genkgo-camt053.v2.minimal.xml',
    'as minimal.ultimate',
    st('NL26VAYB8060476890', 'EUR', 1, 885, ['2014-12-31', '2014-12-31'], {
      opening: bal('2014-12-30', 1815),
      closing: null,
    }),
  ),
  read(
    'camt053/genkgo-camt053.v2.multi.statement.xml',
    'two statements of one account: 18.15 + 8.85 = 27.00, then 27.00 - 7.00 = 20.00 (both tie)',
    st('NL26VAYB8060476890', 'EUR', 1, 885, ['2014-12-31', '2014-12-31'], {
      opening: bal('2014-12-30', 1815),
      closing: bal('2014-12-31', 2700),
    }),
    st('NL26VAYB8060476890', 'EUR', 1, -700, ['2014-12-31', '2014-12-31'], {
      opening: bal('2014-12-30', 2700),
      closing: bal('2014-12-31', 2000),
    }),
  ),
  read(
    'camt053/genkgo-camt053.v2.with-party-ids.xml',
    'as minimal, with party identifiers',
    st('NL26VAYB8060476890', 'EUR', 1, 885, ['2014-12-31', '2014-12-31'], {
      opening: bal('2014-12-30', 1815),
      closing: null,
    }),
  ),
  refused(
    'camt053/genkgo-camt053.v2.wrong.xml',
    'BkToCstmrStmt without any Stmt (the schema requires one)',
    3,
    /holds no Stmt/,
  ),
  read(
    'camt053/genkgo-camt053.v3.xml',
    'camt.053.001.03: same content as v2 minimal',
    st('NL26VAYB8060476890', 'EUR', 1, 885, ['2014-12-31', '2014-12-31'], {
      opening: bal('2014-12-30', 1815),
      closing: null,
    }),
  ),
  read(
    'camt053/genkgo-camt053.v4.xml',
    'camt.053.001.04: same content',
    st('NL26VAYB8060476890', 'EUR', 1, 885, ['2014-12-31', '2014-12-31'], {
      opening: bal('2014-12-30', 1815),
      closing: null,
    }),
  ),
  read(
    'camt053/genkgo-camt053.v8.xml',
    'camt.053.001.08 (parties under Pty): same content',
    st('NL26VAYB8060476890', 'EUR', 1, 885, ['2014-12-31', '2014-12-31'], {
      opening: bal('2014-12-30', 1815),
      closing: null,
    }),
  ),
  read(
    'camt053/genkgo-camt53.only-Dt-with-DtTm.xml',
    'a balance dated by DtTm inside Dt; RON "5442.09000" = 5,442.09; no entries',
    st('GB33BUKB20201555555555', 'RON', 0, 0, null, { opening: bal('2025-07-23', 544209), closing: null }),
  ),
  read(
    'camt053/iso20022-camt053.xml',
    '832.01 + 1,284.30 = 2,116.31 (ties)',
    st('0035-2915203-10-000', 'CHF', 1, 128430, ['2023-01-25', '2023-01-25'], {
      opening: bal('2023-01-25', 83201),
      closing: bal('2023-01-25', 211631),
    }),
  ),
  read(
    'camt053/iso20022-davider80.xml',
    '16 entries: 9,433.31 - 3,679.85 = 5,753.46 (ties)',
    st('CHxxxxxxxxxxxxxxxxxxx', 'CHF', 16, -367985, ['2017-04-01', '2017-04-11'], {
      opening: bal('2017-04-01', 943331),
      closing: bal('2017-04-11', 575346),
    }),
  ),
  refused(
    'camt053/iso20022-gcamp6.xml',
    'every amount is in "XXX" (ISO 4217: no currency), so the file does not say what its amounts are',
    12,
    /XXX/,
  ),
  read(
    'camt053/iso20022-simple.xml',
    '306.53 - 181.01 = 125.52 (ties); Lithuanian text decoded right',
    st('LT000000000000000000', 'EUR', 4, -18101, ['2015-12-31', '2015-12-31'], {
      opening: bal('2015-12-01', 30653),
      closing: bal('2015-12-31', 12552),
      payee: 'AB DNB Bankas',
    }),
  ),
  read(
    'camt053/oca-test-camt053',
    'no extension; -754.25, a reversal booked DBIT -664.05 (RvslInd does not flip it), +1,405.31 = -12.99 (OCA test data: balances do not tie)',
    st('NL77ABNA0574908765', 'EUR', 3, -1299, ['2014-01-05', '2014-01-05'], {
      opening: bal('2014-01-05', 1556827),
      closing: bal('2014-01-05', 1512112),
    }),
  ),
  read(
    'camt053/oca-test-camt053-no-ntry',
    'a statement without entries: opening = closing = 1,520.76',
    st('NL77ABNA0574908765', 'CHF', 0, 0, null, {
      opening: bal('2014-01-05', 152076),
      closing: bal('2014-01-05', 152076),
    }),
  ),
  read(
    'camt053/oca-test-camt053-txdtls',
    'one batch entry of 3,483.00: 75,960.15 + 3,483.00 = 79,443.15 (ties)',
    st('CH1111000000123456789', 'CHF', 1, 348300, ['2017-03-22', '2017-03-22'], {
      opening: bal('2017-03-22', 7596015),
      closing: bal('2017-03-23', 7944315),
      payee: 'Banque Cantonale Vaudoise',
    }),
  ),
  read(
    'camt053/oca-test-camt054',
    'camt.054 notification: one 5.00 EUR credit, no balances',
    st('NL77ABNA0574908765', 'EUR', 1, 500, ['2022-01-26', '2022-01-26'], { opening: null, closing: null }),
  ),
];

const parseCorpusFile = (relative: string) =>
  parseStatementBytes({
    fileName: path.basename(relative),
    bytes: fs.readFileSync(path.join(corpus, relative)),
    // The money account's currency decides only for statements that state none.
    exponent: 2,
    currency: null,
  });

describe.skipIf(!present)('real-world OFX and CAMT corpus', () => {
  it('has an expectation for every OFX and CAMT file of the corpus', () => {
    const files = ['ofx', 'camt053'].flatMap((dir) =>
      fs.readdirSync(path.join(corpus, dir)).map((f) => `${dir}/${f}`),
    );
    expect(files.sort()).toEqual(CASES.map((c) => c.file).sort());
  });

  for (const { file, ...expected } of CASES) {
    it(`${file}: ${expected.why}`, () => {
      if ('refused' in expected) {
        let errors: { line: number; reason: string }[] | null = null;
        try {
          parseCorpusFile(file);
        } catch (error) {
          if (!(error instanceof StatementParseError)) throw error;
          errors = error.errors;
        }
        expect(errors, 'the file must be refused').not.toBeNull();
        expect(errors![0]!.line).toBe(expected.refused.line);
        expect(errors![0]!.reason).toMatch(expected.refused.reason);
        return;
      }
      const parsed = parseCorpusFile(file);
      expect(parsed.statements).toHaveLength(expected.statements.length);
      expected.statements.forEach((want, i) => {
        const got = parsed.statements[i]!;
        const dates = got.rows.map((r) => r.date).sort();
        expect({
          account: got.accountNumber,
          currency: got.currency,
          count: got.rows.length,
          sum: got.rows.reduce((s, r) => s + r.amount, 0),
        }).toEqual({ account: want.account, currency: want.currency, count: want.count, sum: want.sum });
        if (want.first !== undefined) expect(dates[0]).toBe(want.first);
        if (want.last !== undefined) expect(dates[dates.length - 1]).toBe(want.last);
        if (want.opening !== undefined) expect(got.openingBalance ?? null).toEqual(want.opening);
        if (want.closing !== undefined) expect(got.closingBalance).toEqual(want.closing);
        if (want.payee) expect(got.rows.map((r) => r.payee)).toContain(want.payee);
        for (const row of got.rows) expect(`${row.description}${row.payee ?? ''}`).not.toContain('\ufffd');
      });
    });
  }
});

// The same expectations through the HTTP API, each file posted as bytes the way the page
// posts it, every statement sent to a money account in its currency.
describe.skipIf(!present)('real-world OFX and CAMT corpus through the API', () => {
  const fx = setUpTestCompany();
  const accounts = new Map<string, string>();

  beforeAll(async () => {
    for (const currency of ['USD', 'CAD', 'AUD', 'BRL', 'EUR', 'CHF', 'RON']) {
      if (currency !== 'USD') {
        await fx.ok('POST', '/wallet/rates', { currency, date: '1990-01-01', rate: '1.5' });
      }
      const res = await fx.call('POST', '/wallet/accounts', {
        name: `Corpus ${currency}`,
        kind: 'bank',
        currency,
        openingDate: '1990-01-01',
        openingBalance: 0,
      });
      expect(res.status).toBe(201);
      accounts.set(currency, res.body.id);
    }
  });

  for (const { file, ...expected } of CASES) {
    it(`${file} (API)`, async () => {
      const wanted = 'statements' in expected ? expected.statements : [];
      const res = await fx.upload(
        '/statement-imports/preview',
        {
          moneyAccountId: accounts.get(wanted[0]?.currency ?? 'USD')!,
          statements: JSON.stringify(
            wanted.map((w, index) => ({ index, moneyAccountId: accounts.get(w.currency ?? 'USD')! })),
          ),
        },
        { name: path.basename(file), bytes: fs.readFileSync(path.join(corpus, file)) },
      );
      if ('refused' in expected) {
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('statement_invalid');
        expect(res.body.error.details.errors[0]).toEqual({
          line: expected.refused.line,
          reason: expect.stringMatching(expected.refused.reason),
        });
        return;
      }
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const parts = res.body.statements as StatementPart[];
      expect(
        parts.map((p) => ({
          account: p.accountNumber,
          count: p.totalRows,
          sum: p.moneyIn - p.moneyOut,
          new: p.newRows,
        })),
      ).toEqual(wanted.map((w) => ({ account: w.account, count: w.count, sum: w.sum, new: w.count })));
      wanted.forEach((w, i) => {
        if (w.first !== undefined) expect(parts[i]!.firstDate).toBe(w.first);
        if (w.last !== undefined) expect(parts[i]!.lastDate).toBe(w.last);
        if (w.opening !== undefined) expect(parts[i]!.openingBalance).toEqual(w.opening);
        if (w.closing !== undefined) expect(parts[i]!.closingBalance).toEqual(w.closing);
      });
    });
  }
});

describe.skipIf(present)('real-world OFX and CAMT corpus', () => {
  it.skip(`is not here (${corpus}); the corpus tests run where ../shared/corpus exists`, () => {});
});

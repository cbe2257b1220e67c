import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatementPart } from '../../../shared/transactions.ts';
import { createTestApp } from '../../testing/app.ts';
import { type TestCompany, createTestCompany } from '../../testing/companies.ts';
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
type Expectation =
  | { why: string; statements: ExpectedStatement[] }
  | { why: string; refused: { line: number; reason: RegExp } };

const EXPECTED: Record<string, Expectation> = {
  // --- OFX / QFX ---------------------------------------------------------------------
  'ofx/actual-1252.qfx': {
    why: 'CHARSET:1252 bytes: "é", "€" and "—" must come out as written; one 20.00 CAD debit',
    statements: [
      {
        account: '999-12345-0055666-EOP',
        currency: 'CAD',
        count: 1,
        sum: -2000,
        first: '2022-10-19',
        last: '2022-10-19',
        closing: { date: '2022-10-20', amount: 999999 },
        payee: 'Café Métro €uro',
      },
    ],
  },
  'ofx/actual-8859-1.qfx': {
    why: 'CHARSET:8859-1 bytes: "é" of "prépayée" must come out as written',
    statements: [
      {
        account: '999-12345-0055666-EOP',
        currency: 'CAD',
        count: 1,
        sum: -2000,
        first: '2022-10-19',
        last: '2022-10-19',
        closing: { date: '2022-10-20', amount: 999999 },
        payee: 'Paiement facture/Carte prépayée',
      },
    ],
  },
  'ofx/actual-utf-8.qfx': {
    why: 'ENCODING:UTF-8: the same text as the 1252 file, read as UTF-8',
    statements: [
      {
        account: '999-12345-0055666-EOP',
        currency: 'CAD',
        count: 1,
        sum: -2000,
        first: '2022-10-19',
        last: '2022-10-19',
        closing: { date: '2022-10-20', amount: 999999 },
        payee: 'Café Métro €uro',
      },
    ],
  },
  'ofx/actual-data-multi-decimal.ofx': {
    why: '"-30.000" and "-3.77000" carry only zeros past the cents: -30.00 and -3.77 (Actual expects the same)',
    statements: [
      {
        account: '123456789123',
        currency: 'USD',
        count: 2,
        sum: -3377,
        first: '2019-01-23',
        last: '2019-01-23',
        closing: null,
      },
    ],
  },
  'ofx/actual-html-vals.qfx': {
    why: 'entities decoded once as SGML says ("&amp;" → "&", "&amp;lt;" → "&lt;"); two 1.00 CAD debits',
    statements: [
      {
        account: '00000 00-00000',
        currency: 'CAD',
        count: 2,
        sum: -200,
        first: '2023-03-01',
        last: '2023-05-09',
        closing: { date: '2023-11-06', amount: 111111 },
        payee: 'TPAY &lt;DEFTPYMT&gt;',
      },
    ],
  },
  'ofx/oca-test_ofx.ofx': {
    why: 'a bank statement (4 debits: -80, -90, -100, -90 = -360.00) and a credit card statement with no transactions, each with its own LEDGERBAL',
    statements: [
      {
        account: '123456',
        currency: 'USD',
        count: 4,
        sum: -36000,
        first: '2013-08-24',
        last: '2013-08-24',
        closing: { date: '2013-08-31', amount: 215656 },
      },
      {
        account: '123412341234',
        currency: 'USD',
        count: 0,
        sum: 0,
        closing: { date: '2013-08-31', amount: -56200 },
      },
    ],
  },
  'ofx/oca-test_ofx_iban.ofx': {
    why: 'as test_ofx.ofx with another account id',
    statements: [
      {
        account: '12345678901',
        currency: 'USD',
        count: 4,
        sum: -36000,
        first: '2013-08-24',
        last: '2013-08-24',
        closing: { date: '2013-08-31', amount: 215656 },
      },
      {
        account: '123412341234',
        currency: 'USD',
        count: 0,
        sum: 0,
        closing: { date: '2013-08-31', amount: -56200 },
      },
    ],
  },
  'ofx/oca-test_ofx_wrong.ofx': {
    why: "the second transaction's DTPOSTED and TRNAMT are inside a comment: the transaction has no date (OCA expects a refusal too)",
    refused: { line: 42, reason: /no DTPOSTED/ },
  },
  'ofx/ofxgo-bmo_v102__no_header_newline.qfx': {
    why: 'no blank line after the SGML header; one CAD 2,042.24 card credit',
    statements: [
      {
        account: '2380370270281083',
        currency: 'CAD',
        count: 1,
        sum: 204224,
        first: '2018-10-30',
        last: '2018-10-30',
        closing: { date: '2018-12-02', amount: -55263 },
      },
    ],
  },
  'ofx/ofxgo-moneymrkt1_v103.ofx': {
    why: 'TRNAMT "-995.4190396554627" has non-zero digits past the cents: cents would be lost',
    refused: { line: 45, reason: /-995\.4190396554627.*lose part of a cent/ },
  },
  'ofx/ofxgo-moneymrkt1_v203.ofx': {
    why: 'declares encoding="utf-16" over one-byte text (read as UTF-8); TRNAMT "1303.7355652284177" would lose cents',
    refused: { line: 36, reason: /1303\.7355652284177/ },
  },
  'ofx/ofxgo-wellsfargo.qfx': {
    why: 'the whole file on one line, header included; one 12.34 debit',
    statements: [
      {
        account: '9876543210',
        currency: 'USD',
        count: 1,
        sum: -1234,
        first: '2020-12-01',
        last: '2020-12-01',
        closing: { date: '2020-12-31', amount: 12345 },
      },
    ],
  },
  'ofx/ofxparse-anzcc.ofx': {
    why: 'credit card statement (CCSTMTRS); one 5.50 AUD purchase',
    statements: [
      {
        account: '1234123412341234',
        currency: 'AUD',
        count: 1,
        sum: -550,
        first: '2017-05-08',
        last: '2017-05-08',
        closing: { date: '2017-05-10', amount: -12345 },
      },
    ],
  },
  'ofx/ofxparse-bank_medium.ofx': {
    why: 'three debits: -6.60 - 316.67 - 22.00 = -345.27 CAD',
    statements: [
      {
        account: '12300 000012345678',
        currency: 'CAD',
        count: 3,
        sum: -34527,
        first: '2009-04-01',
        last: '2009-04-03',
        closing: { date: '2009-05-23', amount: 38234 },
      },
    ],
  },
  'ofx/ofxparse-bank_small.ofx': {
    why: 'an empty <OFX></OFX>: no statement at all',
    refused: { line: 11, reason: /no bank or credit-card statement/ },
  },
  'ofx/ofxparse-checking.ofx': {
    why: 'three transactions: +0.01 - 34.51 - 25.00 = -59.50 USD',
    statements: [
      {
        account: '1452687~7',
        currency: 'USD',
        count: 3,
        sum: -5950,
        first: '2011-03-31',
        last: '2011-04-07',
        closing: { date: '2013-05-25', amount: 10099 },
      },
    ],
  },
  'ofx/ofxparse-error_message.ofx': {
    why: 'the server answered SEVERITY ERROR (2000 General Server Error) and sent no statement',
    refused: { line: 22, reason: /2000 General Server Error/ },
  },
  'ofx/ofxparse-failnice-date_missing.ofx': {
    why: 'one transaction without DTPOSTED, one with an empty one, one on 2012-02-31',
    refused: { line: 33, reason: /no DTPOSTED/ },
  },
  'ofx/ofxparse-failnice-decimal_error.ofx': {
    why: 'TRNAMT "$120" is not an OFX amount (and the date 2011-20-00 is not a date)',
    refused: { line: 36, reason: /DTPOSTED "201120000000"/ },
  },
  'ofx/ofxparse-failnice-empty_balance.ofx': {
    why: 'LEDGERBAL with an empty BALAMT: the transaction imports, no closing balance (said in a notice)',
    statements: [
      {
        account: '192639749',
        currency: 'CAD',
        count: 1,
        sum: 12000,
        first: '2011-03-08',
        last: '2011-03-08',
        closing: null,
      },
    ],
  },
  'ofx/ofxparse-multiple_accounts2.ofx': {
    why: 'two bank statements (9100 checking, 9200 savings) without transactions, each with its LEDGERBAL 111 and 222',
    statements: [
      { account: '9100', currency: 'USD', count: 0, sum: 0, closing: { date: '2012-06-03', amount: 11100 } },
      { account: '9200', currency: 'USD', count: 0, sum: 0, closing: { date: '2012-06-03', amount: 22200 } },
    ],
  },
  'ofx/ofxparse-ofx-v102-empty-tags.ofx': {
    why: "empty CURDEF and BALAMT: the currency is the transaction's CURRENCY (CURSYM AUD at rate 1), one 12.34 credit",
    statements: [
      {
        account: '12345678',
        currency: 'AUD',
        count: 1,
        sum: 1234,
        first: '2018-05-07',
        last: '2018-05-07',
        closing: null,
      },
    ],
  },
  'ofx/ofxparse-suncorp.ofx': {
    why: 'one 16.85 AUD debit',
    statements: [
      {
        account: '123456789',
        currency: 'AUD',
        count: 1,
        sum: -1685,
        first: '2013-12-15',
        last: '2013-12-15',
        closing: { date: '2013-12-15', amount: 123412 },
      },
    ],
  },
  'ofx/ofxparse-vanguard-investment.ofx': {
    why: 'an investment statement (INVSTMTRS), not a bank statement',
    refused: { line: 11, reason: /investment statement/ },
  },
  'ofx/ofxtools-br_nubank_cc.ofx': {
    why: 'six card transactions; the LEDGERBAL -1,280.91 equals their sum (a new card)',
    statements: [
      {
        account: '11111111-UUID-UUID-UUID-111111111111',
        currency: 'BRL',
        count: 6,
        sum: -128091,
        first: '2024-03-22',
        last: '2024-03-23',
        closing: { date: '2024-03-25', amount: -128091 },
      },
    ],
  },
  'ofx/ofxtools-stmtrs.ofx': {
    why: "ofxtools' STMTRS sample: two transactions, -500.00 in all, LEDGERBAL 200.29",
    statements: [
      {
        account: '999988',
        currency: 'USD',
        count: 2,
        sum: -50000,
        first: '2005-10-04',
        last: '2005-10-20',
        closing: { date: '2005-10-29', amount: 20029 },
      },
    ],
  },
  'ofx/ofxtools-stmtrs_euro.ofx': {
    why: 'the same statement written with decimal commas',
    statements: [
      {
        account: '999988',
        currency: 'USD',
        count: 2,
        sum: -50000,
        first: '2005-10-04',
        last: '2005-10-20',
        closing: { date: '2005-10-29', amount: 20029 },
      },
    ],
  },
  // --- ISO 20022 CAMT ------------------------------------------------------------------
  'camt053/actual-camt.latin1-camt052.xml': {
    why: 'camt.052 report in ISO-8859-1: +100.00 and -5.00; "Grüße aus München" decoded right; no balances',
    statements: [
      {
        account: 'DE00000000000000000000',
        currency: 'EUR',
        count: 2,
        sum: 9500,
        first: '2025-09-09',
        last: '2025-09-09',
        opening: null,
        closing: null,
        payee: 'Grüße aus München',
      },
    ],
  },
  'camt053/genkgo-camt053.v2.all-balance-types.xml': {
    why: 'every balance type once: OPBD 1.01 is the opening, CLBD 4.04 the closing (synthetic: they do not tie with the 8.85 entry)',
    statements: [
      {
        account: 'CH2801234000123456789',
        currency: 'EUR',
        count: 1,
        sum: 885,
        first: '2014-12-31',
        last: '2014-12-31',
        opening: { date: '2015-01-21', amount: 101 },
        closing: { date: '2015-01-22', amount: 404 },
      },
    ],
  },
  'camt053/genkgo-camt053.v2.five.decimals.xml': {
    why: '"8.850" and "18.150" carry a zero past the cents (genkgo reads 8.85)',
    statements: [
      {
        account: 'NL26VAYB8060476890',
        currency: 'EUR',
        count: 1,
        sum: 885,
        first: '2014-12-31',
        last: '2014-12-31',
        opening: { date: '2014-12-30', amount: 1815 },
        closing: { date: '2014-12-31', amount: 2705 },
      },
    ],
  },
  'camt053/genkgo-camt053.v2.minimal.ultimate.xml': {
    why: 'one 8.85 EUR credit; its CLBD is in SEK, so it is not used as the closing balance (notice)',
    statements: [
      {
        account: 'NL26VAYB8060476890',
        currency: 'EUR',
        count: 1,
        sum: 885,
        first: '2014-12-31',
        last: '2014-12-31',
        opening: { date: '2014-12-30', amount: 1815 },
        closing: null,
      },
    ],
  },
  'camt053/genkgo-camt053.v2.minimal.xml': {
    why: 'as minimal.ultimate',
    statements: [
      {
        account: 'NL26VAYB8060476890',
        currency: 'EUR',
        count: 1,
        sum: 885,
        first: '2014-12-31',
        last: '2014-12-31',
        opening: { date: '2014-12-30', amount: 1815 },
        closing: null,
      },
    ],
  },
  'camt053/genkgo-camt053.v2.multi.statement.xml': {
    why: 'two statements of one account: 18.15 + 8.85 = 27.00, then 27.00 - 7.00 = 20.00 (both tie)',
    statements: [
      {
        account: 'NL26VAYB8060476890',
        currency: 'EUR',
        count: 1,
        sum: 885,
        first: '2014-12-31',
        last: '2014-12-31',
        opening: { date: '2014-12-30', amount: 1815 },
        closing: { date: '2014-12-31', amount: 2700 },
      },
      {
        account: 'NL26VAYB8060476890',
        currency: 'EUR',
        count: 1,
        sum: -700,
        first: '2014-12-31',
        last: '2014-12-31',
        opening: { date: '2014-12-30', amount: 2700 },
        closing: { date: '2014-12-31', amount: 2000 },
      },
    ],
  },
  'camt053/genkgo-camt053.v2.with-party-ids.xml': {
    why: 'as minimal, with party identifiers',
    statements: [
      {
        account: 'NL26VAYB8060476890',
        currency: 'EUR',
        count: 1,
        sum: 885,
        first: '2014-12-31',
        last: '2014-12-31',
        opening: { date: '2014-12-30', amount: 1815 },
        closing: null,
      },
    ],
  },
  'camt053/genkgo-camt053.v2.wrong.xml': {
    why: 'BkToCstmrStmt without any Stmt (the schema requires one)',
    refused: { line: 3, reason: /holds no Stmt/ },
  },
  'camt053/genkgo-camt053.v3.xml': {
    why: 'camt.053.001.03: same content as v2 minimal',
    statements: [
      {
        account: 'NL26VAYB8060476890',
        currency: 'EUR',
        count: 1,
        sum: 885,
        first: '2014-12-31',
        last: '2014-12-31',
        opening: { date: '2014-12-30', amount: 1815 },
        closing: null,
      },
    ],
  },
  'camt053/genkgo-camt053.v4.xml': {
    why: 'camt.053.001.04: same content',
    statements: [
      {
        account: 'NL26VAYB8060476890',
        currency: 'EUR',
        count: 1,
        sum: 885,
        first: '2014-12-31',
        last: '2014-12-31',
        opening: { date: '2014-12-30', amount: 1815 },
        closing: null,
      },
    ],
  },
  'camt053/genkgo-camt053.v8.xml': {
    why: 'camt.053.001.08 (parties under Pty): same content',
    statements: [
      {
        account: 'NL26VAYB8060476890',
        currency: 'EUR',
        count: 1,
        sum: 885,
        first: '2014-12-31',
        last: '2014-12-31',
        opening: { date: '2014-12-30', amount: 1815 },
        closing: null,
      },
    ],
  },
  'camt053/genkgo-camt53.only-Dt-with-DtTm.xml': {
    why: 'a balance dated by DtTm inside Dt; RON "5442.09000" = 5,442.09; no entries',
    statements: [
      {
        account: 'GB33BUKB20201555555555',
        currency: 'RON',
        count: 0,
        sum: 0,
        opening: { date: '2025-07-23', amount: 544209 },
        closing: null,
      },
    ],
  },
  'camt053/iso20022-camt053.xml': {
    why: '832.01 + 1,284.30 = 2,116.31 (ties)',
    statements: [
      {
        account: '0035-2915203-10-000',
        currency: 'CHF',
        count: 1,
        sum: 128430,
        first: '2023-01-25',
        last: '2023-01-25',
        opening: { date: '2023-01-25', amount: 83201 },
        closing: { date: '2023-01-25', amount: 211631 },
      },
    ],
  },
  'camt053/iso20022-davider80.xml': {
    why: '16 entries: 9,433.31 - 3,679.85 = 5,753.46 (ties)',
    statements: [
      {
        account: 'CHxxxxxxxxxxxxxxxxxxx',
        currency: 'CHF',
        count: 16,
        sum: -367985,
        first: '2017-04-01',
        last: '2017-04-11',
        opening: { date: '2017-04-01', amount: 943331 },
        closing: { date: '2017-04-11', amount: 575346 },
      },
    ],
  },
  'camt053/iso20022-gcamp6.xml': {
    why: 'every amount is in "XXX" (ISO 4217: no currency), so the file does not say what its amounts are',
    refused: { line: 12, reason: /XXX/ },
  },
  'camt053/iso20022-simple.xml': {
    why: '306.53 - 181.01 = 125.52 (ties); Lithuanian text decoded right',
    statements: [
      {
        account: 'LT000000000000000000',
        currency: 'EUR',
        count: 4,
        sum: -18101,
        first: '2015-12-31',
        last: '2015-12-31',
        opening: { date: '2015-12-01', amount: 30653 },
        closing: { date: '2015-12-31', amount: 12552 },
        payee: 'AB DNB Bankas',
      },
    ],
  },
  'camt053/oca-test-camt053': {
    why: 'no extension; -754.25, a reversal booked DBIT -664.05 (RvslInd does not flip it), +1,405.31 = -12.99 (OCA test data: balances do not tie)',
    statements: [
      {
        account: 'NL77ABNA0574908765',
        currency: 'EUR',
        count: 3,
        sum: -1299,
        first: '2014-01-05',
        last: '2014-01-05',
        opening: { date: '2014-01-05', amount: 1556827 },
        closing: { date: '2014-01-05', amount: 1512112 },
      },
    ],
  },
  'camt053/oca-test-camt053-no-ntry': {
    why: 'a statement without entries: opening = closing = 1,520.76',
    statements: [
      {
        account: 'NL77ABNA0574908765',
        currency: 'CHF',
        count: 0,
        sum: 0,
        opening: { date: '2014-01-05', amount: 152076 },
        closing: { date: '2014-01-05', amount: 152076 },
      },
    ],
  },
  'camt053/oca-test-camt053-txdtls': {
    why: 'one batch entry of 3,483.00: 75,960.15 + 3,483.00 = 79,443.15 (ties)',
    statements: [
      {
        account: 'CH1111000000123456789',
        currency: 'CHF',
        count: 1,
        sum: 348300,
        first: '2017-03-22',
        last: '2017-03-22',
        opening: { date: '2017-03-22', amount: 7596015 },
        closing: { date: '2017-03-23', amount: 7944315 },
        payee: 'Banque Cantonale Vaudoise',
      },
    ],
  },
  'camt053/oca-test-camt054': {
    why: 'camt.054 notification: one 5.00 EUR credit, no balances',
    statements: [
      {
        account: 'NL77ABNA0574908765',
        currency: 'EUR',
        count: 1,
        sum: 500,
        first: '2022-01-26',
        last: '2022-01-26',
        opening: null,
        closing: null,
      },
    ],
  },
};

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
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const [file, expected] of Object.entries(EXPECTED)) {
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
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let company: TestCompany;
  const accounts = new Map<string, string>();
  const inject = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/orgs/${company.id}${url}`,
      headers: { cookie: company.owner.cookie },
      payload,
    });

  beforeAll(async () => {
    t = await createTestApp();
    company = await createTestCompany(t.app);
    for (const currency of ['USD', 'CAD', 'AUD', 'BRL', 'EUR', 'CHF', 'RON']) {
      if (currency !== 'USD') {
        const rate = await inject('POST', '/wallet/rates', { currency, date: '1990-01-01', rate: '1.5' });
        expect(rate.statusCode).toBeLessThan(300);
      }
      const res = await inject('POST', '/wallet/accounts', {
        name: `Corpus ${currency}`,
        kind: 'bank',
        currency,
        openingDate: '1990-01-01',
        openingBalance: 0,
      });
      expect(res.statusCode).toBe(201);
      accounts.set(currency, res.json().id);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  for (const [file, expected] of Object.entries(EXPECTED)) {
    it(`${file} (API)`, async () => {
      const wanted = 'statements' in expected ? expected.statements : [];
      const form = new FormData();
      form.append('moneyAccountId', accounts.get(wanted[0]?.currency ?? 'USD')!);
      form.append(
        'statements',
        JSON.stringify(
          wanted.map((w, index) => ({ index, moneyAccountId: accounts.get(w.currency ?? 'USD')! })),
        ),
      );
      form.append(
        'file',
        new Blob([new Uint8Array(fs.readFileSync(path.join(corpus, file)))]),
        path.basename(file),
      );
      const request = new Request('http://localhost/', { method: 'POST', body: form });
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/orgs/${company.id}/statement-imports/preview`,
        headers: { cookie: company.owner.cookie, 'content-type': request.headers.get('content-type')! },
        payload: Buffer.from(await request.arrayBuffer()),
      });
      if ('refused' in expected) {
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('statement_invalid');
        expect(res.json().error.details.errors[0]).toEqual({
          line: expected.refused.line,
          reason: expect.stringMatching(expected.refused.reason),
        });
        return;
      }
      expect(res.statusCode, res.body).toBe(200);
      const parts = res.json().statements as StatementPart[];
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

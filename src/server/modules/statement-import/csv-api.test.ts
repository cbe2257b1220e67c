import { beforeAll, describe, expect, it } from 'vitest';
import type { MoneyAccount } from '../../../shared/wallet.ts';
import { setUpTestCompany } from '../../testing/api.ts';
import { countRows } from '../../testing/transactions.ts';

// CSV statements through the HTTP API as the web page uses it: sniff → confirm the mapping →
// preview → import; the mapping remembered per money account; refusals name the line and
// change nothing. PGlite by default, PostgreSQL with TEST_DATABASE_URL.

const fx = setUpTestCompany();
const { call, ok } = fx;

const addAccount = (name: string, currency = 'EUR') =>
  ok<MoneyAccount>('POST', '/wallet/accounts', { kind: 'bank', currency, openingDate: '2026-01-01', name });
const bankRows = () => countRows(fx.t.database.db, 'bank_transactions', fx.company.id);

/** An import request for `content` with the mapping the sniff route suggests for it. */
const withSuggestedMapping = async (moneyAccountId: string, content: string) => {
  const sniff = await ok('POST', '/statement-imports/sniff', { moneyAccountId, content });
  return { moneyAccountId, fileName: 'umsatz.csv', content, mapping: sniff.suggestedMapping };
};

// A German giro export as such banks write it: a preamble, a header, a decimal comma, an
// S/H indicator column, and a closing balance line.
const GIRO = [
  'Umsatzanzeige;Girokonto',
  'Zeitraum;01.11.2026 - 30.11.2026',
  '',
  'Buchungstag;Empfänger;Verwendungszweck;Betrag;S/H;Währung',
  '02.11.2026;Stadtwerke;Abschlag Strom;1.234,56;S;EUR',
  '03.11.2026;Kunde GmbH;"Rechnung 17,\nTeilzahlung";2.000,00;H;EUR',
  '05.11.2026;;Kontoführung;4,90;S;EUR',
  'Endsaldo;;;760,54;H;EUR',
].join('\n');

describe('CSV statement import through the API', () => {
  let giro: MoneyAccount;
  let other: MoneyAccount;

  beforeAll(async () => {
    await ok('POST', '/wallet/rates', { currency: 'EUR', date: '2026-01-01', rate: '1.0825' });
    giro = await addAccount('Giro');
    other = await addAccount('Savings');
  });

  it('detects the table, previews it, imports it, and remembers the mapping for that account only', async () => {
    const sniff = await ok('POST', '/statement-imports/sniff', { moneyAccountId: giro.id, content: GIRO });
    expect(sniff.delimiter).toBe(';');
    expect(sniff.savedMapping).toBeNull();
    expect(sniff.suggestedMapping).toMatchObject({
      hasHeader: true,
      headerRow: 2,
      firstDataRow: 3,
      footerRows: 1,
      dateColumn: 0,
      payeeColumn: 1,
      descriptionColumn: 2,
      amountColumn: 3,
      indicatorColumn: 4,
      debitIndicators: ['S'],
      creditIndicators: ['H'],
      currencyColumn: 5,
      dateFormat: 'DD.MM.YYYY',
      decimalSeparator: ',',
    });
    expect(sniff.notes.join(' ')).toMatch(/Lines 1–2, above the header, are not transactions/);
    expect(sniff.notes.join(' ')).toMatch(/Line 9, after the last transaction, is a summary/);
    // Records start on the file's lines: the blank line 3 is none, the quoted field spans 6–7.
    expect(sniff.records.map((r: { line: number }) => r.line)).toEqual([1, 2, 4, 5, 6, 8, 9]);

    const input = {
      moneyAccountId: giro.id,
      fileName: 'umsatz.csv',
      content: GIRO,
      mapping: sniff.suggestedMapping,
    };
    const preview = await ok('POST', '/statement-imports/preview', input);
    expect(preview).toMatchObject({ totalRows: 3, moneyIn: 200_000, moneyOut: 123_456 + 490 });
    expect(preview.csvLayout).toEqual({
      headerLine: 4,
      firstLine: 5,
      lastLine: 8,
      linesAbove: [1, 2],
      linesBelow: [9],
      leftOut: [],
      joined: [],
    });
    expect(preview.rows.map((r: { line: number; description: string }) => [r.line, r.description])).toEqual([
      [5, 'Abschlag Strom'],
      [6, 'Rechnung 17, Teilzahlung'],
      [8, 'Kontoführung'],
    ]);

    const result = await ok('POST', '/statement-imports', input);
    expect(result.imported).toBe(3);
    const again = await ok('POST', '/statement-imports/sniff', { moneyAccountId: giro.id, content: GIRO });
    expect(again.savedMapping).toEqual(sniff.suggestedMapping);
    const elsewhere = await ok('POST', '/statement-imports/sniff', {
      moneyAccountId: other.id,
      content: GIRO,
    });
    expect(elsewhere.savedMapping).toBeNull();
    // Without a mapping the account's remembered one is used: the same file is all duplicates.
    const { mapping: _, ...withoutMapping } = input;
    const reuse = await ok('POST', '/statement-imports/preview', withoutMapping);
    expect(reuse).toMatchObject({ totalRows: 3, duplicateRows: 3 });
  });

  it('refuses a row in another currency, naming its line, and imports nothing', async () => {
    const before = await bankRows();
    const res = await call(
      'POST',
      '/statement-imports',
      await withSuggestedMapping(other.id, GIRO.replace('4,90;S;EUR', '4,90;S;USD')),
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('statement_invalid');
    expect(res.body.error.details.errors).toEqual([
      {
        line: 8,
        reason: 'the row is in USD but the account is kept in EUR; import USD rows into a USD account',
      },
    ]);
    expect(await bankRows()).toBe(before);
  });

  it('names the same line whatever the file’s line ends', async () => {
    const broken = 'Date,Details,Amount\n2026-11-02,"two\nlines",1.00\n2026-11-03,Coffee,1.2.3\n';
    const mapping = {
      dateColumn: 0,
      descriptionColumn: 1,
      amountColumn: 2,
      dateFormat: 'YYYY-MM-DD',
    };
    for (const end of ['\n', '\r\n', '\r', '\r\r\n']) {
      const content = broken.replace(/\n/g, end);
      const res = await call('POST', '/statement-imports/preview', {
        moneyAccountId: other.id,
        fileName: 'x.csv',
        content,
        mapping,
      });
      expect(res.status, JSON.stringify(end)).toBe(400);
      expect(res.body.error.details.errors).toEqual([
        { line: 4, reason: '"Amount": "1.2.3" is not an amount' },
      ]);
    }
  });

  it('refuses broken quoting and an unknown indicator by line, with a 400', async () => {
    const quote = await call('POST', '/statement-imports/sniff', {
      moneyAccountId: other.id,
      content: 'Date,Details,Amount\n2026-11-02,Rent,1.00\n2026-11-03,Bad "quote",2.00\n',
    });
    expect(quote.status).toBe(400);
    expect(quote.body.error.details.errors[0].line).toBe(3);
    const res = await call('POST', '/statement-imports/preview', {
      ...(await withSuggestedMapping(other.id, GIRO)),
      content: GIRO.replace('2.000,00;H', '2.000,00;X'),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.errors).toEqual([
      {
        line: 6,
        reason: expect.stringMatching(
          /^"S\/H": "X", which is neither a money-out \(S\) nor a money-in \(H\) indicator/,
        ),
      },
    ]);
  });
});

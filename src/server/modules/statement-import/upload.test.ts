import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MoneyAccount } from '../../../shared/wallet.ts';
import { setUpTestCompany } from '../../testing/api.ts';
import { createTestCompany } from '../../testing/companies.ts';
import { countRows, moneyAccountMismatches, trialBalanceDifference } from '../../testing/transactions.ts';

// Statement uploads as the web page sends them: multipart/form-data with the file's raw bytes,
// decoded on the server; files with several statements imported per statement (PGlite, and
// PostgreSQL with TEST_DATABASE_URL).

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtureBytes = (name: string) => fs.readFileSync(path.join(here, 'fixtures', name));
const corpus = path.resolve(here, '../../../../../shared/corpus');

const fx = setUpTestCompany();
const { upload } = fx;

beforeAll(async () => {
  for (const currency of ['EUR', 'CHF', 'CAD']) {
    await fx.ok('POST', '/wallet/rates', { currency, date: '2000-01-01', rate: '1.1' });
  }
});

const addAccount = async (body: Record<string, unknown>) => {
  const res = await fx.call('POST', '/wallet/accounts', {
    kind: 'bank',
    currency: 'USD',
    openingDate: '2000-01-01',
    openingBalance: 0,
    ...body,
  });
  if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body as MoneyAccount;
};

const balanceOf = async (id: string) => (await fx.ok<MoneyAccount>('GET', `/wallet/accounts/${id}`)).balance;

const checkBooks = async () => {
  expect(await moneyAccountMismatches(fx.t.database.db, fx.company.id)).toEqual([]);
  expect(await trialBalanceDifference(fx.t.database.db, fx.company.id)).toBe(0);
};

describe('statement upload (raw bytes)', () => {
  it('decodes Windows-1252 and ISO-8859-1 files on the server, accents intact', async () => {
    const eur = await addAccount({ name: 'Compte courant', currency: 'EUR' });
    const qfx = await upload(
      '/statement-imports/preview',
      { moneyAccountId: eur.id },
      { name: 'releve.qfx', bytes: fixtureBytes('accents-1252.qfx') },
    );
    expect(qfx.status).toBe(200);
    expect(qfx.body.encoding).toBe('windows-1252');
    expect(qfx.body.unreadable).toBeNull();
    expect(qfx.body.rows.map((r: { payee: string }) => r.payee)).toEqual([
      'Café Müller – Bäckerei',
      'Société Générale Crédit',
    ]);
    expect(qfx.body.rows[0].description).toBe("Café Müller – Bäckerei - Déjeuner d'équipe €");

    const camt = await upload(
      '/statement-imports',
      { moneyAccountId: eur.id },
      { name: 'umsatz.xml', bytes: fixtureBytes('camt052-latin1.xml') },
    );
    expect(camt.status).toBe(200);
    expect(camt.body.imported).toBe(1);
    const list = await fx.ok<{ transactions: { payee: string; description: string }[] }>(
      'GET',
      `/transactions?moneyAccountId=${eur.id}`,
    );
    const items = list.transactions;
    expect(items.map((i) => i.payee)).toContain('Bäckerei Größe & Söhne');
    expect(items.map((i) => i.description)).toContain('Brötchen für das Büro');
    expect(await balanceOf(eur.id)).toBe(-1240);
    await checkBooks();
  });

  it('says which lines hold bytes that were not text (shown as U+FFFD), rather than changing them silently', async () => {
    const usd = await addAccount({ name: 'Checking (one bad byte)' });
    const mapping = {
      dateColumn: 0,
      payeeColumn: 1,
      descriptionColumn: 1,
      amountColumn: 2,
      dateFormat: 'YYYY-MM-DD',
    };
    const res = await upload(
      '/statement-imports/preview',
      { moneyAccountId: usd.id, mapping: JSON.stringify(mapping) },
      { name: 'export.csv', bytes: fixtureBytes('utf8-one-bad-byte.csv') },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.encoding).toBe('utf-8');
    expect(res.body.unreadable).toEqual({ bytes: 1, lines: [3] });
    expect(res.body.rows.map((r: { payee: string }) => r.payee)).toEqual([
      'Crème brûlée Café',
      'Jos\ufffd Muñoz',
    ]);
    expect(res.body.rows.map((r: { amount: number }) => r.amount)).toEqual([-750, 12000]);
  });

  it('imports each statement of a multi-statement OFX into the account chosen for it', async () => {
    const checking = await addAccount({ name: 'Checking 1222' });
    const card = await addAccount({ name: 'Visa 4821', kind: 'credit_card' });
    const bytes = fixtureBytes('multi-statement.ofx');
    const preview = await upload(
      '/statement-imports/preview',
      { moneyAccountId: checking.id },
      { name: 'download.ofx', bytes },
    );
    expect(preview.status).toBe(200);
    expect(
      preview.body.statements.map((s: Record<string, unknown>) => ({
        accountNumber: s.accountNumber,
        kind: s.kind,
        totalRows: s.totalRows,
        closingBalance: s.closingBalance,
        moneyAccountId: s.moneyAccountId,
        periodStart: s.periodStart,
        periodEnd: s.periodEnd,
      })),
    ).toEqual([
      {
        accountNumber: '000111222',
        kind: 'bank account (checking)',
        // The commented-out row is not a transaction.
        totalRows: 3,
        closingBalance: { date: '2026-11-20', amount: 496_623 },
        moneyAccountId: checking.id,
        periodStart: '2026-11-01',
        periodEnd: '2026-11-20',
      },
      {
        accountNumber: '4111000011114821',
        kind: 'credit card',
        totalRows: 2,
        closingBalance: { date: '2026-11-20', amount: -88_320 },
        moneyAccountId: null,
        periodStart: '2026-11-01',
        periodEnd: '2026-11-20',
      },
    ]);
    // "-30.000" and "-3.77000" are -30.00 and -3.77.
    expect(preview.body.rows.slice(0, 2).map((r: { amount: number }) => r.amount)).toEqual([-3000, -377]);

    const before = await countRows(fx.t.database.db, 'bank_transactions', fx.company.id);
    const unchosen = await upload(
      '/statement-imports',
      { moneyAccountId: checking.id },
      { name: 'download.ofx', bytes },
    );
    expect(unchosen.status).toBe(400);
    expect(unchosen.body.error.details.errors).toEqual([
      {
        line: 60,
        reason: expect.stringMatching(
          /choose the money account for the credit card of account 4111000011114821/,
        ),
      },
    ]);
    expect(await countRows(fx.t.database.db, 'bank_transactions', fx.company.id)).toBe(before);

    const statements = JSON.stringify([
      { index: 0, moneyAccountId: checking.id },
      { index: 1, moneyAccountId: card.id },
    ]);
    const done = await upload(
      '/statement-imports',
      { moneyAccountId: checking.id, statements },
      { name: 'download.ofx', bytes },
    );
    expect(done.status).toBe(200);
    expect(done.body.imported).toBe(5);
    expect(
      done.body.imports.map((i: { moneyAccountId: string; imported: number }) => [
        i.moneyAccountId,
        i.imported,
      ]),
    ).toEqual([
      [checking.id, 3],
      [card.id, 2],
    ]);
    expect(await balanceOf(checking.id)).toBe(-3000 - 377 + 250_000);
    expect(await balanceOf(card.id)).toBe(-12_990 + 50_000);
    const again = await upload(
      '/statement-imports',
      { moneyAccountId: checking.id, statements },
      { name: 'download.ofx', bytes },
    );
    expect(again.body).toMatchObject({ imported: 0, duplicates: 5 });
    // Leaving a statement out is a choice: only the other one is imported.
    const savings = await addAccount({ name: 'Only checking' });
    const one = await upload(
      '/statement-imports',
      { moneyAccountId: savings.id, statements: JSON.stringify([{ index: 1, moneyAccountId: null }]) },
      { name: 'download.ofx', bytes },
    );
    expect(one.body.imported).toBe(3);
    await checkBooks();
  });

  it('imports a CAMT.053 with two accounts per statement; a reversal keeps its CdtDbtInd sign', async () => {
    const eur = await addAccount({ name: 'Giro', currency: 'EUR' });
    const chf = await addAccount({ name: 'Konto CHF', currency: 'CHF' });
    const bytes = fixtureBytes('camt053-two-accounts.xml');
    // Named .txt: recognised by its content.
    const wrong = await upload(
      '/statement-imports/preview',
      { moneyAccountId: chf.id },
      { name: 'export.txt', bytes },
    );
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.details.errors[0]).toEqual({
      line: 5,
      reason: expect.stringMatching(/is in EUR but Konto CHF is kept in CHF/),
    });
    const preview = await upload(
      '/statement-imports/preview',
      { moneyAccountId: eur.id, statements: JSON.stringify([{ index: 1, moneyAccountId: chf.id }]) },
      { name: 'export.txt', bytes },
    );
    expect(preview.status).toBe(200);
    expect(preview.body.format).toBe('camt053');
    expect(
      preview.body.statements.map((s: Record<string, unknown>) => [
        s.openingBalance,
        s.closingBalance,
        s.notices,
      ]),
    ).toEqual([
      [{ date: '2026-10-31', amount: 100_000 }, { date: '2026-11-20', amount: 107_550 }, []],
      [{ date: '2026-11-01', amount: -20_000 }, { date: '2026-11-20', amount: 5_000 }, []],
    ]);
    expect(preview.body.rows.map((r: { amount: number }) => r.amount)).toEqual([
      -15_000, 15_000, -2_450, 10_000, 25_000,
    ]);
    const done = await upload(
      '/statement-imports',
      { moneyAccountId: eur.id, statements: JSON.stringify([{ index: 1, moneyAccountId: chf.id }]) },
      { name: 'export.txt', bytes },
    );
    expect(done.body.imported).toBe(5);
    // Opening + entries = closing, as the file's own balances say.
    expect(await balanceOf(eur.id)).toBe(107_550 - 100_000);
    expect(await balanceOf(chf.id)).toBe(5_000 + 20_000);
    await checkBooks();
  });

  it('refuses lost cents and references to no character, naming the line; nothing changes', async () => {
    const usd = await addAccount({ name: 'Refusals' });
    const before = await countRows(fx.t.database.db, 'bank_transactions', fx.company.id);
    const ofx = fixtureBytes('multi-statement.ofx').toString('utf8');
    const cases: { name: string; text: string; line: number; reason: RegExp }[] = [
      {
        name: 'cents.ofx',
        text: ofx.replace('-3.77000', '-3.775'),
        line: 40,
        reason: /"-3\.775" has more decimals than USD allows/,
      },
      {
        name: 'ref.ofx',
        text: ofx.replace('STARBUCKS &amp; CO', 'STARBUCKS &#x110000;'),
        line: 42,
        reason: /&#x110000;/,
      },
      {
        name: 'ref.xml',
        text: fixtureBytes('camt053-two-accounts.xml')
          .toString('utf8')
          .replace('Leasing AG', 'Leasing &#x110000;'),
        line: 29,
        reason: /&#x110000;/,
      },
      {
        name: 'extra.xml',
        text: fixtureBytes('camt053-two-accounts.xml')
          .toString('utf8')
          .replace('<Amt Ccy="EUR">24.50</Amt>', '<Amt Ccy="EUR">24.505</Amt>'),
        line: 47,
        reason: /"24\.505" has more decimals than EUR allows/,
      },
      {
        name: 'cut.xml',
        text: '<?xml version="1.0"?>\n<Document>\n<BkToCstmrStmt>\n<Stmt>\n',
        line: 4,
        reason: /malformed/,
      },
    ];
    for (const c of cases) {
      const res = await upload(
        '/statement-imports',
        { moneyAccountId: usd.id },
        { name: c.name, bytes: Buffer.from(c.text) },
      );
      expect(res.status, c.name).toBe(400);
      expect(res.body.error.code, c.name).toBe('statement_invalid');
      expect(res.body.error.details.errors[0], c.name).toEqual({
        line: c.line,
        reason: expect.stringMatching(c.reason),
      });
    }
    const binary = await upload(
      '/statement-imports/preview',
      { moneyAccountId: usd.id },
      { name: 'statement.pdf', bytes: Buffer.from('%PDF-1.7\n\0\0\x01binary') },
    );
    expect(binary.status).toBe(400);
    expect(binary.body.error.details.errors[0].reason).toMatch(/not a text file/);
    expect(await countRows(fx.t.database.db, 'bank_transactions', fx.company.id)).toBe(before);
  });

  it('reads an upload only for a member allowed to do the request', async () => {
    const usd = await addAccount({ name: 'Guarded' });
    const form = new FormData();
    form.append('moneyAccountId', usd.id);
    // A file the decoder refuses: only a member may learn even that.
    form.append('file', new Blob([new Uint8Array([0x25, 0x50, 0x44, 0x46, 0, 0, 1])]), 'x.pdf');
    const request = new Request('http://localhost/', { method: 'POST', body: form });
    const payload = Buffer.from(await request.arrayBuffer());
    const headers = { 'content-type': request.headers.get('content-type')! };
    const anonymous = await fx.t.app.inject({
      method: 'POST',
      url: `/api/orgs/${fx.company.id}/statement-imports`,
      headers,
      payload,
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error.code).not.toBe('statement_invalid');
    const stranger = await createTestCompany(fx.t.app);
    const other = await fx.t.app.inject({
      method: 'POST',
      url: `/api/orgs/${fx.company.id}/statement-imports/preview`,
      headers: { ...headers, cookie: stranger.owner.cookie },
      payload,
    });
    expect([403, 404]).toContain(other.statusCode);
    expect(other.json().error.code).not.toBe('statement_invalid');
  });

  it('answers a broken or incomplete multipart body with a 4xx, never a 5xx', async () => {
    const usd = await addAccount({ name: 'Broken uploads' });
    const url = `/api/orgs/${fx.company.id}/statement-imports/preview`;
    const cookie = fx.company.owner.cookie;
    const bodies: { headers: Record<string, string>; payload: string }[] = [
      { headers: { 'content-type': 'multipart/form-data' }, payload: 'no boundary' },
      {
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.ofx"\r\n\r\ncut',
      },
      {
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        payload: `--x\r\nContent-Disposition: form-data; name="moneyAccountId"\r\n\r\n${usd.id}\r\n--x--\r\n`,
      },
      {
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        payload: `--x\r\nContent-Disposition: form-data; name="moneyAccountId"\r\n\r\n${usd.id}\r\n--x\r\nContent-Disposition: form-data; name="mapping"\r\n\r\n{not json\r\n--x\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\na,b\r\n--x--\r\n`,
      },
    ];
    for (const b of bodies) {
      const res = await fx.t.app.inject({
        method: 'POST',
        url,
        headers: { ...b.headers, cookie },
        payload: b.payload,
      });
      expect(res.statusCode, b.payload).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, b.payload).toBeLessThan(500);
      expect(res.json().error.code).toMatch(/^[a-z_]+$/);
    }
  });

  it('answers 413 in the standard shape for a file over 60 MB', async () => {
    const usd = await addAccount({ name: 'Big' });
    const res = await upload(
      '/statement-imports/preview',
      { moneyAccountId: usd.id },
      { name: 'huge.csv', bytes: Buffer.alloc(60 * 1024 * 1024 + 1, 0x41) },
    );
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      error: { code: 'statement_too_large', message: expect.stringMatching(/60 MB/) },
    });
  });

  it.skipIf(!fs.existsSync(corpus))(
    'imports corpus files posted as bytes (ISO-8859-1 camt.052, CHARSET:1252 QFX)',
    async () => {
      const eur = await addAccount({ name: 'Corpus EUR', currency: 'EUR' });
      const camt = await upload(
        '/statement-imports/preview',
        { moneyAccountId: eur.id },
        {
          name: 'camt.latin1.xml',
          bytes: fs.readFileSync(path.join(corpus, 'camt053/actual-camt.latin1-camt052.xml')),
        },
      );
      expect(camt.status).toBe(200);
      expect(camt.body.rows.map((r: { payee: string | null }) => r.payee)).toContain('Grüße aus München');
      const cad = await addAccount({ name: 'Corpus CAD', currency: 'CAD' });
      const qfx = await upload(
        '/statement-imports',
        { moneyAccountId: cad.id },
        { name: '1252.qfx', bytes: fs.readFileSync(path.join(corpus, 'ofx/actual-1252.qfx')) },
      );
      expect(qfx.body.imported).toBe(1);
      expect(await balanceOf(cad.id)).toBe(-2000);
      await checkBooks();
    },
  );
});

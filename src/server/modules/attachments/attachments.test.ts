import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCompany, type TestCompany } from '../../testing/companies.ts';
import { testDatabaseKind } from '../../testing/db.ts';
import { setUpTestAppWithDataDir } from '../../testing/per-file-app.ts';
import { ATTACHMENT_MAX_BYTES, sanitizeFileName, sniffContentType } from './policy.ts';

// The one attachment module, through both upload routes: journal entries (multipart) and
// bank transactions (base64 JSON). Same limit, same sniffing, same names, same storage.

const PNG_HEAD = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const EXE = Buffer.from('4d5a90000300000004000000ffff0000b800000000000000', 'hex');
const pngOf = (size: number) => Buffer.concat([PNG_HEAD, Buffer.alloc(size - PNG_HEAD.length)]);
const UNICODE_NAME = 'Quittung März 2026 – Café.pdf';

describe('attachment policy', () => {
  it('sniffs the accepted types from the bytes and refuses the rest', async () => {
    expect(await sniffContentType(PDF)).toBe('application/pdf');
    expect(await sniffContentType(pngOf(64))).toBe('image/png');
    expect(await sniffContentType(Buffer.from('ffd8ffe000104a464946', 'hex'))).toBe('image/jpeg');
    expect(await sniffContentType(Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'))).toBe('image/gif');
    expect(await sniffContentType(Buffer.from('date,amount\n2026-01-02,-12.34\n'))).toBe('text/plain');
    expect(await sniffContentType(Buffer.from('Grüße, 日本語\n'))).toBe('text/plain');
    expect(await sniffContentType(EXE)).toBeNull();
    expect(await sniffContentType(Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x02]))).toBeNull();
    expect(await sniffContentType(Buffer.from('PK\x03\x04\x14\x00\x00\x00\x08\x00', 'latin1'))).toBeNull();
  });

  it('cleans names and keeps their Unicode', () => {
    expect(sanitizeFileName(UNICODE_NAME)).toBe(UNICODE_NAME);
    expect(sanitizeFileName('領収書 🧾.png')).toBe('領収書 🧾.png');
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('..\\..\\boot.ini')).toBe('boot.ini');
    expect(sanitizeFileName('in\u0000voice\r\n\t.pdf')).toBe('invoice.pdf');
    // A right-to-left override would show "invoice_fdp.exe" as "invoice_exe.pdf".
    expect(sanitizeFileName('invoice_\u202efdp.exe')).toBe('invoice_fdp.exe');
    expect(sanitizeFileName('a"b<c>d|e?f*g:h.txt')).toBe('a_b_c_d_e_f_g_h.txt');
    expect(sanitizeFileName('..')).toBe('attachment');
    expect(sanitizeFileName('   ')).toBe('attachment');
    expect(sanitizeFileName('CON.txt')).toBe('_CON.txt');
    expect(sanitizeFileName('bad\ud800half.pdf')).toBe('badhalf.pdf');
    const long = sanitizeFileName(`${'ä'.repeat(500)}.pdf`);
    expect([...long]).toHaveLength(200);
    expect(long.endsWith('ä.pdf')).toBe(true);
    // Decomposed accents are composed (NFC), so the same name always compares equal.
    expect(sanitizeFileName('Cafe\u0301.pdf')).toBe('Café.pdf');
  });
});

const t = setUpTestAppWithDataDir('attachments');
let company: TestCompany;

beforeAll(async () => {
  company = await createTestCompany(t.app);
}, 60_000);

const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, extra: Record<string, unknown> = {}) =>
  t.app.inject({
    method,
    url: `/api/orgs/${company.id}${url}`,
    ...extra,
    headers: { cookie: company.owner.cookie, ...((extra.headers as object) ?? {}) },
  });

const newEntry = async () => {
  const accounts = (await inject('GET', '/accounts')).json().accounts as {
    id: string;
    systemKey: string | null;
  }[];
  const key = (k: string) => accounts.find((a) => a.systemKey === k)!.id;
  const res = await inject('POST', '/journal-entries', {
    payload: {
      date: '2026-02-10',
      memo: 'Receipt',
      lines: [
        { accountId: key('bank'), debit: 1_000 },
        { accountId: key('sales'), credit: 1_000 },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};

let accounts = 0;
const newTransaction = async () => {
  accounts += 1;
  const account = await inject('POST', '/wallet/accounts', {
    payload: { name: `Checking ${accounts}`, kind: 'bank', currency: 'USD', openingDate: '2026-10-31' },
  });
  expect(account.statusCode, account.body).toBe(201);
  const tx = await inject('POST', '/transactions', {
    payload: { moneyAccountId: account.json().id, date: '2026-11-03', description: 'Lunch', amount: -2_350 },
  });
  expect(tx.statusCode, tx.body).toBe(201);
  return tx.json().id as string;
};

type Upload = { name: string; type: string; data: Buffer };

// The two owners, each through its own route and upload format.
const owners = [
  {
    owner: 'journal entry (multipart)',
    table: 'journal_attachments' as const,
    create: newEntry,
    base: (id: string) => `/journal-entries/${id}/attachments`,
    upload: (id: string, f: Upload) => {
      const boundary = '----kontor-test';
      // As browsers send it: the name as raw UTF-8 inside filename="…".
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name.replace(/["\r\n]/g, encodeURIComponent)}"\r\nContent-Type: ${f.type}\r\n\r\n`,
        ),
        f.data,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return inject('POST', `/journal-entries/${id}/attachments`, {
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
    },
    list: async (id: string) =>
      (await inject('GET', `/journal-entries/${id}`)).json().attachments as {
        id: string;
        fileName: string;
      }[],
  },
  {
    owner: 'bank transaction (base64)',
    table: 'bank_transaction_attachments' as const,
    create: newTransaction,
    base: (id: string) => `/transactions/${id}/attachments`,
    upload: (id: string, f: Upload) =>
      inject('POST', `/transactions/${id}/attachments`, {
        payload: { fileName: f.name, contentType: f.type, dataBase64: f.data.toString('base64') },
      }),
    list: async (id: string) =>
      (await inject('GET', `/transactions/${id}/attachments`)).json().attachments as {
        id: string;
        fileName: string;
      }[],
  },
];

const rowsOf = (table: 'journal_attachments' | 'bank_transaction_attachments') =>
  t.database.db.selectFrom(table).select(['id']).where('organization_id', '=', company.id).execute();

/** Uploads `f` through `o`'s route (it must be taken: 201) and downloads it back. */
const uploadAndDownload = async (o: (typeof owners)[number], id: string, f: Upload) => {
  const res = await o.upload(id, f);
  expect(res.statusCode, res.body).toBe(201);
  return { res, download: await inject('GET', `${o.base(id)}/${res.json().id}`) };
};

const errorShape = (res: { json: () => unknown }) =>
  expect(res.json()).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });

describe.each(owners)(`attachments on a $owner (${testDatabaseKind()})`, (o) => {
  it('refuses a file over the limit with 413 and stores nothing', async () => {
    const id = await o.create();
    const before = (await rowsOf(o.table)).length;
    const res = await o.upload(id, {
      name: 'big.png',
      type: 'image/png',
      data: pngOf(ATTACHMENT_MAX_BYTES + 1),
    });
    expect(res.statusCode).toBe(413);
    errorShape(res);
    expect(res.json().error.code).toBe('attachment_too_large');
    expect((await rowsOf(o.table)).length).toBe(before);
    expect(await o.list(id)).toEqual([]);
  }, 60_000);

  it('takes a file of exactly the limit whole', async () => {
    const id = await o.create();
    const data = pngOf(ATTACHMENT_MAX_BYTES);
    const res = await o.upload(id, { name: 'max.png', type: 'image/png', data });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(201);
    expect(res.json().sizeBytes).toBe(ATTACHMENT_MAX_BYTES);
    const back = await inject('GET', `${o.base(id)}/${res.json().id}`);
    expect(back.rawPayload.equals(data)).toBe(true);
  }, 60_000);

  it('stores the type sniffed from the bytes, not the one declared, and refuses other kinds with 415', async () => {
    const id = await o.create();
    const png = pngOf(256);
    const lying = await uploadAndDownload(o, id, { name: 'receipt.pdf', type: 'application/pdf', data: png });
    expect(lying.res.json().contentType).toBe('image/png');
    const { download } = lying;
    expect(download.headers['content-type']).toBe('image/png');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-disposition']).toMatch(/^inline; /);

    const html = await uploadAndDownload(o, id, {
      name: 'page.png',
      type: 'image/png',
      data: Buffer.from('<html><script>alert(1)</script></html>'),
    });
    expect(html.res.json().contentType).toBe('text/plain');
    const htmlBack = html.download;
    expect(htmlBack.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(htmlBack.headers['content-disposition']).toMatch(/^attachment; /);

    const before = (await rowsOf(o.table)).length;
    const exe = await o.upload(id, { name: 'invoice.pdf', type: 'application/pdf', data: EXE });
    expect(exe.statusCode).toBe(415);
    errorShape(exe);
    expect(exe.json().error.message).toMatch(/PDF/);
    expect((await rowsOf(o.table)).length).toBe(before);
  });

  it('keeps a Unicode name through upload, list and download', async () => {
    const id = await o.create();
    const { res, download } = await uploadAndDownload(o, id, {
      name: UNICODE_NAME,
      type: 'application/pdf',
      data: PDF,
    });
    expect(res.json().fileName).toBe(UNICODE_NAME);
    expect((await o.list(id)).map((a) => a.fileName)).toEqual([UNICODE_NAME]);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    const disposition = String(download.headers['content-disposition']);
    expect(disposition).toMatch(/^inline; filename="[\x20-\x7e]+"; filename\*=UTF-8''/);
    const encoded = /filename\*=UTF-8''(.+)$/.exec(disposition)![1]!;
    expect(decodeURIComponent(encoded)).toBe(UNICODE_NAME);
    expect(download.rawPayload.equals(PDF)).toBe(true);
  });

  it('cleans path separators and control characters out of names', async () => {
    const id = await o.create();
    const { res, download } = await uploadAndDownload(o, id, {
      name: '../../etc/pass\u0007wd\u202e.txt',
      type: 'text/plain',
      data: Buffer.from('hello\n'),
    });
    expect(res.json().fileName).toBe('passwd.txt');
    expect(download.headers['content-disposition']).toBe('attachment; filename="passwd.txt"');
  });

  it('removes an attachment, and another company cannot see or remove it', async () => {
    const id = await o.create();
    const res = await o.upload(id, { name: 'r.pdf', type: 'application/pdf', data: PDF });
    const other = await createTestCompany(t.app);
    const foreign = (method: 'GET' | 'DELETE') =>
      t.app.inject({
        method,
        url: `/api/orgs/${other.id}${o.base(id)}/${res.json().id}`,
        headers: { cookie: other.owner.cookie },
      });
    expect((await foreign('GET')).statusCode).toBe(404);
    expect((await foreign('DELETE')).statusCode).toBe(404);
    expect((await inject('DELETE', `${o.base(id)}/${res.json().id}`)).statusCode).toBe(204);
    expect(await o.list(id)).toEqual([]);
    expect((await inject('GET', `${o.base(id)}/${res.json().id}`)).statusCode).toBe(404);
  });
});

describe('transaction uploads in JSON', () => {
  it('refuses a body far over the limit with 413 in the error shape', async () => {
    const id = await newTransaction();
    const before = (await rowsOf('bank_transaction_attachments')).length;
    const res = await inject('POST', `/transactions/${id}/attachments`, {
      payload: { fileName: 'huge.pdf', dataBase64: 'A'.repeat(20 * 1024 * 1024) },
    });
    expect(res.statusCode).toBe(413);
    errorShape(res);
    expect((await rowsOf('bank_transaction_attachments')).length).toBe(before);
  }, 60_000);

  it('refuses data that is not base64 with 400', async () => {
    const id = await newTransaction();
    const res = await inject('POST', `/transactions/${id}/attachments`, {
      payload: { fileName: 'x.pdf', dataBase64: '%%%not base64' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('attachment_invalid_base64');
  });
});

describe('journal attachments stored on disk before they moved into the database', () => {
  it('are still downloaded and removed with their file', async () => {
    const entryId = await newEntry();
    const storageKey = path.join(company.id, 'legacy.pdf');
    fs.mkdirSync(path.join(t.dataDir, 'attachments', company.id), { recursive: true });
    fs.writeFileSync(path.join(t.dataDir, 'attachments', storageKey), PDF);
    await t.database.db
      .insertInto('journal_attachments')
      .values({
        organization_id: company.id,
        id: 'legacy-1',
        entry_id: entryId,
        file_name: 'legacy.pdf',
        content_type: 'application/pdf',
        size_bytes: PDF.length,
        sha256: 'x',
        storage: 'disk',
        storage_key: storageKey,
        data: null,
        created_by: null,
      })
      .execute();
    const download = await inject('GET', `/journal-entries/${entryId}/attachments/legacy-1`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PDF)).toBe(true);
    expect((await inject('DELETE', `/journal-entries/${entryId}/attachments/legacy-1`)).statusCode).toBe(204);
    expect(fs.existsSync(path.join(t.dataDir, 'attachments', storageKey))).toBe(false);
  });
});

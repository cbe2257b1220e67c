import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../shared/config/config.ts';
import { loadServerConfig } from '../../config.ts';
import type { AttachmentStorage } from '../../db/types.ts';
import { createTestApp } from '../../testing/app.ts';
import { createTestCompany, type TestCompany } from '../../testing/companies.ts';
import { createTestDatabase, testDatabaseKind } from '../../testing/db.ts';
import { type FakeS3, startFakeS3 } from '../../testing/fake-s3.ts';
import { addTestSupplier } from '../../testing/payables.ts';
import { signUpTestUser } from '../../testing/users.ts';
import { createJobQueue, scheduleJob } from '../jobs/queue.ts';
import { createS3ObjectStore, type ObjectStore, objectStoreOf, storageUnavailable } from './object-store.ts';
import { moveAttachmentsToObjectStore } from './move.ts';
import { checkUpload } from './policy.ts';
import { storeAttachment, UPLOAD_GRACE_MS } from './store.ts';
import { attachmentObjectSweepJob, sweepAttachmentObjects } from './sweep.ts';

// Attachments in an S3-compatible object store (decision 0043), through the real
// `@aws-sdk/client-s3` against the fake store (testing/fake-s3.ts): every owner's upload,
// download and delete with S3 on (bytes in the store, not the database), rows from before S3
// was turned on still read, an outage answered 503 `storage_unavailable` with no row left
// behind, deletes that cascade or erase a company sweeping their objects, and another company
// reading nothing.

const ROOT = 'root-admin@example.com';
const PREFIX = 'kontor/test/';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.alloc(2000, 7),
]);

type TestApp = Awaited<ReturnType<typeof createTestApp>>;
let s3: FakeS3;
let withS3: TestApp;
let withoutS3: TestApp;
let dataDir: string;
let company: TestCompany;

beforeAll(async () => {
  s3 = await startFakeS3({ prefix: 'kontor/test' });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-object-store-'));
  const database = await createTestDatabase();
  withS3 = await createTestApp({
    database,
    env: { DATA_DIR: dataDir, ADMIN_EMAILS: ROOT, ...s3.env },
  });
  // The same database served by a server without S3_*: attachments "from before".
  withoutS3 = await createTestApp({ database, env: { DATA_DIR: dataDir } });
  company = await createTestCompany(withS3.app);
}, 60_000);

afterAll(async () => {
  await withoutS3?.app.close();
  await withS3?.close();
  await s3?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const call = (
  t: TestApp,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  extra: { payload?: unknown; headers?: Record<string, string>; as?: TestCompany } = {},
) => {
  const who = extra.as ?? company;
  return t.app.inject({
    method,
    url: `/api/orgs/${who.id}${url}`,
    headers: { cookie: who.owner.cookie, ...extra.headers },
    ...(extra.payload !== undefined ? { payload: extra.payload as string } : {}),
  });
};

const systemAccount = async (key: string) => {
  const accounts = (await call(withS3, 'GET', '/accounts')).json().accounts as {
    id: string;
    systemKey: string | null;
  }[];
  return accounts.find((a) => a.systemKey === key)!.id;
};

const newEntry = async () => {
  const res = await call(withS3, 'POST', '/journal-entries', {
    payload: {
      date: '2026-02-10',
      memo: 'Receipt',
      lines: [
        { accountId: await systemAccount('bank'), debit: 1_000 },
        { accountId: await systemAccount('sales'), credit: 1_000 },
      ],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};

let accounts = 0;
const newTransaction = async () => {
  accounts += 1;
  const account = await call(withS3, 'POST', '/wallet/accounts', {
    payload: { name: `Checking ${accounts}`, kind: 'bank', currency: 'USD', openingDate: '2026-10-31' },
  });
  expect(account.statusCode, account.body).toBe(201);
  const tx = await call(withS3, 'POST', '/transactions', {
    payload: { moneyAccountId: account.json().id, date: '2026-11-03', description: 'Lunch', amount: -2_350 },
  });
  expect(tx.statusCode, tx.body).toBe(201);
  return tx.json().id as string;
};

let supplierId: string | undefined;
const newBill = async () => {
  supplierId ??= await addTestSupplier(withS3.database, company);
  const res = await call(withS3, 'POST', '/bills', {
    payload: {
      supplierId,
      issueDate: '2026-03-01',
      lines: [{ description: 'Paper', quantity: '1', unitPrice: 10_000 }],
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
};

type File = { name: string; data: Buffer };

const multipart = (f: File) => {
  const boundary = '----kontor-s3-test';
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${f.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      f.data,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]) as unknown as string,
  };
};

const base64 = (f: File) => ({ payload: { fileName: f.name, dataBase64: f.data.toString('base64') } });

const owners = [
  {
    owner: 'journal_entry' as const,
    label: 'journal entry (multipart)',
    table: 'journal_attachments' as const,
    create: newEntry,
    base: (id: string) => `/journal-entries/${id}/attachments`,
    body: multipart,
  },
  {
    owner: 'bank_transaction' as const,
    label: 'bank transaction (base64)',
    table: 'bank_transaction_attachments' as const,
    create: newTransaction,
    base: (id: string) => `/transactions/${id}/attachments`,
    body: base64,
  },
  {
    owner: 'bill' as const,
    label: 'bill (base64)',
    table: 'bill_attachments' as const,
    create: newBill,
    base: (id: string) => `/bills/${id}/attachments`,
    body: base64,
  },
];
type Owner = (typeof owners)[number];

const upload = (t: TestApp, o: Owner, ownerId: string, f: File, as?: TestCompany) =>
  call(t, 'POST', o.base(ownerId), { ...o.body(f), ...(as ? { as } : {}) });

const rowOf = async (o: Owner, id: string) =>
  (await withS3.database.db
    .selectFrom(o.table)
    .select(['storage', 'storage_key', 'data', 'size_bytes'])
    .where('id', '=', id)
    .executeTakeFirst()) as
    | { storage: AttachmentStorage; storage_key: string | null; data: Buffer | null; size_bytes: number }
    | undefined;

const sweepRows = () =>
  withS3.database.db.selectFrom('attachment_object_sweep').selectAll().orderBy('key').execute();

const objectsOf = (organizationId: string) =>
  [...s3.objects.keys()].filter((key) => key.startsWith(`${PREFIX}${organizationId}/`));

const sweepNow = (now = withS3.clock.now()) =>
  sweepAttachmentObjects(withS3.database.db, objectStoreOf(withS3.ctx.config)!, now);

describe('S3 configuration', () => {
  const load = (env: Record<string, string>) => loadServerConfig({ APP_ENV: 'test', ...env });

  it('is off without S3_BUCKET, with defaults and a prefix that ends in a slash when on', () => {
    expect(load({}).s3).toBeNull();
    expect(load({ S3_BUCKET: 'receipts' }).s3).toEqual({
      bucket: 'receipts',
      region: 'us-east-1',
      endpoint: null,
      credentials: null,
      forcePathStyle: false,
      prefix: '',
    });
    expect(
      load({
        S3_BUCKET: 'receipts',
        S3_REGION: 'auto',
        S3_ENDPOINT: 'https://acc.r2.cloudflarestorage.com/',
        S3_ACCESS_KEY_ID: 'id',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
        S3_PREFIX: '/kontor/prod',
      }).s3,
    ).toEqual({
      bucket: 'receipts',
      region: 'auto',
      endpoint: 'https://acc.r2.cloudflarestorage.com',
      credentials: { accessKeyId: 'id', secretAccessKey: 'secret' },
      forcePathStyle: true,
      prefix: 'kontor/prod/',
    });
  });

  it('refuses partial or bad settings at start with a line naming them', () => {
    const refusal = (env: Record<string, string>) => {
      try {
        load(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(refusal({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toMatch(
      /S3_ENDPOINT is set but S3_BUCKET is not/,
    );
    expect(refusal({ S3_BUCKET: 'receipts', S3_ACCESS_KEY_ID: 'id' })).toMatch(
      /S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together/,
    );
    expect(refusal({ S3_BUCKET: 'receipts', S3_ENDPOINT: 'minio:9000' })).toMatch(
      /^Invalid configuration: S3_ENDPOINT/,
    );
    expect(refusal({ S3_BUCKET: 'receipts', S3_FORCE_PATH_STYLE: 'maybe' })).toMatch(/S3_FORCE_PATH_STYLE/);
    expect(refusal({ S3_BUCKET: 'no/slash' })).toMatch(/S3_BUCKET must be a bucket name/);
    expect(refusal({ S3_BUCKET: 'receipts', S3_PREFIX: 'a b' })).toMatch(/S3_PREFIX/);
  });
});

describe.each(owners)(`attachments on a $label with S3 on (${testDatabaseKind()})`, (o) => {
  it('go to the bucket, not the database, come back whole, and are deleted with their row', async () => {
    const ownerId = await o.create();
    const res = await upload(withS3, o, ownerId, { name: 'Quittung März.pdf', data: PDF });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    const key = `${PREFIX}${company.id}/${o.owner}/${id}`;
    expect(await rowOf(o, id)).toEqual({
      storage: 's3',
      storage_key: key,
      data: null,
      size_bytes: PDF.length,
    });
    expect(s3.objects.get(key)?.data.equals(PDF)).toBe(true);
    expect(s3.objects.get(key)?.contentType).toBe('application/pdf');
    expect(await sweepRows()).toEqual([]);

    const back = await call(withS3, 'GET', `${o.base(ownerId)}/${id}`);
    expect(back.statusCode).toBe(200);
    expect(back.rawPayload.equals(PDF)).toBe(true);
    expect(back.headers['content-type']).toBe('application/pdf');
    expect(String(back.headers['content-disposition'])).toMatch(/Quittung/);

    // Another company: the same ids under its own path, and its own path to our owner, are 404.
    const other = await createTestCompany(withS3.app);
    expect((await call(withS3, 'GET', `${o.base(ownerId)}/${id}`, { as: other })).statusCode).toBe(404);
    expect((await call(withS3, 'DELETE', `${o.base(ownerId)}/${id}`, { as: other })).statusCode).toBe(404);
    expect(s3.objects.has(key)).toBe(true);

    expect((await call(withS3, 'DELETE', `${o.base(ownerId)}/${id}`)).statusCode).toBe(204);
    expect(await rowOf(o, id)).toBeUndefined();
    expect(s3.objects.has(key)).toBe(false);
    expect(await sweepRows()).toEqual([]);
    expect((await call(withS3, 'GET', `${o.base(ownerId)}/${id}`)).statusCode).toBe(404);
  });

  it('keeps rows stored before S3 was turned on readable and removable', async () => {
    const ownerId = await o.create();
    const before = await upload(withoutS3, o, ownerId, { name: 'old.png', data: PNG });
    expect(before.statusCode, before.body).toBe(201);
    const id = before.json().id as string;
    expect((await rowOf(o, id))?.storage).toBe('database');
    const requests = s3.requests.length;
    const back = await call(withS3, 'GET', `${o.base(ownerId)}/${id}`);
    expect(back.statusCode).toBe(200);
    expect(back.rawPayload.equals(PNG)).toBe(true);
    expect((await call(withS3, 'DELETE', `${o.base(ownerId)}/${id}`)).statusCode).toBe(204);
    expect(s3.requests.length).toBe(requests);
    expect(await rowOf(o, id)).toBeUndefined();
  });

  it('answers 503 storage_unavailable when the store is down, and leaves no row or object behind', async () => {
    const ownerId = await o.create();
    const objects = s3.objects.size;
    s3.outage = ['put'];
    try {
      const res = await upload(withS3, o, ownerId, { name: 'r.pdf', data: PDF });
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json().error).toMatchObject({ code: 'storage_unavailable' });
      expect(res.json().error.message).toMatch(/could not be reached.*Nothing was changed/);
    } finally {
      s3.outage = false;
    }
    expect(s3.objects.size).toBe(objects);
    const list = await call(withS3, 'GET', o.base(ownerId));
    if (list.statusCode === 200) expect(list.json().attachments).toEqual([]);
    const rows = await withS3.database.db
      .selectFrom(o.table)
      .select('id')
      .where('organization_id', '=', company.id)
      .where(
        o.table === 'journal_attachments'
          ? 'entry_id'
          : o.table === 'bill_attachments'
            ? 'bill_id'
            : 'transaction_id',
        '=',
        ownerId,
      )
      .execute();
    expect(rows).toEqual([]);
    expect(await sweepRows()).toEqual([]);
  });
});

describe('the API document', () => {
  it('lists 503 on uploading and reading an attachment, the answers that wait for the store', async () => {
    const doc = (await withS3.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const attachmentOps = Object.entries(doc.paths)
      .filter(([path]) => path.includes('/attachments'))
      .flatMap(([path, ops]) =>
        Object.entries(ops).map(([method, op]) => [`${method} ${path}`, '503' in op.responses]),
      );
    expect(attachmentOps.length).toBeGreaterThanOrEqual(9);
    for (const [op, has503] of attachmentOps)
      expect(has503, op as string).toBe(
        /^(post .*\/attachments|get .*\/attachments\/\{\w+\})$/.test(op as string),
      );
  });
});

describe(`S3 failures after the upload (${testDatabaseKind()})`, () => {
  const bankTx = owners[1]!;

  it('a download while the store is down is 503; a delete still removes the row and the sweep deletes the object later', async () => {
    const ownerId = await bankTx.create();
    const id = (await upload(withS3, bankTx, ownerId, { name: 'r.pdf', data: PDF })).json().id as string;
    const key = `${PREFIX}${company.id}/bank_transaction/${id}`;
    s3.outage = true;
    try {
      const down = await call(withS3, 'GET', `${bankTx.base(ownerId)}/${id}`);
      expect(down.statusCode).toBe(503);
      expect(down.json().error.code).toBe('storage_unavailable');
      expect((await call(withS3, 'DELETE', `${bankTx.base(ownerId)}/${id}`)).statusCode).toBe(204);
      expect(await rowOf(bankTx, id)).toBeUndefined();
      expect(s3.objects.has(key)).toBe(true);
      expect((await sweepRows()).map((r) => [r.key, r.reason])).toEqual([[key, 'deleted']]);
      // The sweep while still down: kept for the next run, with the attempt counted.
      expect(await sweepNow()).toEqual({ deleted: 0, kept: 0, failed: 1 });
      expect((await sweepRows())[0]).toMatchObject({ key, attempts: 1 });
    } finally {
      s3.outage = false;
    }
    expect(await sweepNow()).toEqual({ deleted: 1, kept: 0, failed: 0 });
    expect(s3.objects.has(key)).toBe(false);
    expect(await sweepRows()).toEqual([]);
  });

  // The row's insert fails after the object is written (here: a row already holds the id, as a
  // refusal inside the transaction would); the clean-up either works or finds the store down.
  const failingUpload = async (deleteFails: boolean) => {
    const real = objectStoreOf(withS3.ctx.config)!;
    const db = withS3.database.db;
    const ownerId = await bankTx.create();
    const file = await checkUpload({ fileName: 'r.pdf', data: PDF });
    let puts = 0;
    const store: ObjectStore = {
      ...real,
      put: async (key, data, type) => {
        puts += 1;
        await real.put(key, data, type);
        await db
          .insertInto('bank_transaction_attachments')
          .values({
            organization_id: company.id,
            id: key.split('/').pop()!,
            transaction_id: ownerId,
            file_name: 'clash',
            content_type: 'application/pdf',
            size_bytes: 1,
            sha256: 'x',
            data: Buffer.from('x'),
            created_by: null,
          })
          .execute();
      },
      delete: async (key) => {
        if (deleteFails) throw new Error('store down');
        await real.delete(key);
      },
    };
    const objects = s3.objects.size;
    await expect(
      storeAttachment(db, 'bank_transaction', {
        organizationId: company.id,
        ownerId,
        actorUserId: null,
        file,
        now: withS3.clock.now(),
        objects: store,
      }),
    ).rejects.toBeTruthy();
    expect(puts).toBe(1);
    await db.deleteFrom('bank_transaction_attachments').where('file_name', '=', 'clash').execute();
    return { objects };
  };

  it('an object whose row never commits is deleted at once', async () => {
    const { objects } = await failingUpload(false);
    expect(s3.objects.size).toBe(objects);
    expect(await sweepRows()).toEqual([]);
  });

  it('…or, when the store is down too, by the sweep once the grace period is over', async () => {
    const { objects } = await failingUpload(true);
    expect(s3.objects.size).toBe(objects + 1);
    const queued = await sweepRows();
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ reason: 'upload' });
    const key = queued[0]!.key;
    // Not yet due: an upload may still be on its way to its row.
    expect(await sweepNow()).toEqual({ deleted: 0, kept: 0, failed: 0 });
    expect(s3.objects.has(key)).toBe(true);
    const later = new Date(withS3.clock.now().getTime() + UPLOAD_GRACE_MS + 1000);
    expect(await sweepNow(later)).toEqual({ deleted: 1, kept: 0, failed: 0 });
    expect(s3.objects.has(key)).toBe(false);
    expect(await sweepRows()).toEqual([]);
  });
});

describe(`deletes that reach attachments through their owner (${testDatabaseKind()})`, () => {
  it('a deleted bank transaction queues its objects, and the sweep job deletes them', async () => {
    const o = owners[1]!;
    const transactionId = await o.create();
    const ids: string[] = [];
    for (const name of ['a.pdf', 'b.png']) {
      const res = await upload(withS3, o, transactionId, { name, data: name.endsWith('png') ? PNG : PDF });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    const keys = ids.map((id) => `${PREFIX}${company.id}/bank_transaction/${id}`).sort();
    expect(keys.every((k) => s3.objects.has(k))).toBe(true);
    const deleted = await call(withS3, 'DELETE', `/transactions/${transactionId}`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await sweepRows()).map((r) => r.key)).toEqual(keys);
    // The scheduled job, as main.ts registers it, on the job queue.
    const queue = createJobQueue({ db: withS3.database.db, now: withS3.clock.now });
    scheduleJob(queue, withS3.ctx, attachmentObjectSweepJob, {
      info: () => {},
      warn: () => {},
      error: () => {},
    });
    expect(await queue.runDue()).toBeGreaterThanOrEqual(1);
    expect(keys.some((k) => s3.objects.has(k))).toBe(false);
    expect(await sweepRows()).toEqual([]);
  });

  it("an erased company's objects are deleted by the sweep its erasure queues, and no other company's", async () => {
    const root = await signUpTestUser(withS3.app, { email: ROOT });
    const user = await signUpTestUser(withS3.app);
    const solo = await createTestCompany(withS3.app, { owner: user, name: 'Solo With Receipts' });
    const account = await call(withS3, 'POST', '/wallet/accounts', {
      as: solo,
      payload: { name: 'Checking', kind: 'bank', currency: 'USD', openingDate: '2026-10-31' },
    });
    const tx = await call(withS3, 'POST', '/transactions', {
      as: solo,
      payload: {
        moneyAccountId: account.json().id,
        date: '2026-11-03',
        description: 'Lunch',
        amount: -2_350,
      },
    });
    expect(tx.statusCode, tx.body).toBe(201);
    const up = await upload(withS3, owners[1]!, tx.json().id, { name: 'r.pdf', data: PDF }, solo);
    expect(up.statusCode, up.body).toBe(201);
    expect(objectsOf(solo.id)).toHaveLength(1);
    // Another company's object stays.
    const mine = await upload(withS3, owners[1]!, await newTransaction(), { name: 'keep.pdf', data: PDF });
    const mineKey = `${PREFIX}${company.id}/bank_transaction/${mine.json().id}`;

    const done = await withS3.app.inject({
      method: 'POST',
      url: `/api/admin/users/${user.id}/delete`,
      headers: { cookie: root.cookie },
      payload: { confirmEmail: user.email },
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().companiesDeleted).toEqual([{ id: solo.id, name: 'Solo With Receipts' }]);
    const { rows: jobs } = await sql<{ state: string }>`
      select state from jobs where queue = ${attachmentObjectSweepJob.name} and state = 'created'`.execute(
      withS3.database.db,
    );
    expect(jobs).toHaveLength(1);
    // The erasure queues its job at the wall clock's now (eraseCompany has no other); the test
    // app's clock stands still unless moved.
    withS3.clock.set(new Date(Date.now() + 1000));
    const queue = createJobQueue({ db: withS3.database.db, now: withS3.clock.now });
    scheduleJob(queue, withS3.ctx, attachmentObjectSweepJob, {
      info: () => {},
      warn: () => {},
      error: () => {},
    });
    await queue.runDue();
    expect(objectsOf(solo.id)).toEqual([]);
    expect(s3.objects.has(mineKey)).toBe(true);
    expect(await sweepRows()).toEqual([]);
  });
});

describe('the S3 client against the fake store', () => {
  it('puts, gets, deletes, and reads a missing key as null', async () => {
    const store = createS3ObjectStore(loadServerConfig({ APP_ENV: 'test', ...s3.env }).s3!);
    await store.put('x/y/z', Buffer.from('hello'), 'text/plain');
    expect((await store.get('x/y/z'))?.toString()).toBe('hello');
    await store.delete('x/y/z');
    expect(await store.get('x/y/z')).toBeNull();
    await store.delete('x/y/z');
    const wrongKeys = createS3ObjectStore({
      ...loadServerConfig({ APP_ENV: 'test', ...s3.env }).s3!,
      credentials: { accessKeyId: 'nobody', secretAccessKey: 'x' },
    });
    await expect(wrongKeys.get('x/y/z')).rejects.toMatchObject({ name: 'InvalidAccessKeyId' });
  });

  it('fails fast with the cause named when nothing listens at the endpoint', async () => {
    const closed = await startFakeS3();
    await closed.close();
    const store = createS3ObjectStore(loadServerConfig({ APP_ENV: 'test', ...closed.env }).s3!);
    const started = Date.now();
    const error = await store.put('a/b/c', PDF, 'application/pdf').catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(storageUnavailable(error)).toMatchObject({
      status: 503,
      code: 'storage_unavailable',
      details: { cause: 'ECONNREFUSED' },
    });
  });
});

describe(`moving existing attachments into the bucket (${testDatabaseKind()})`, () => {
  it('moves database and disk rows, keeps them readable, and a second run moves nothing', async () => {
    const stored: { o: Owner; ownerId: string; id: string; data: Buffer }[] = [];
    for (const o of owners) {
      const ownerId = await o.create();
      const res = await upload(withoutS3, o, ownerId, { name: 'before.png', data: PNG });
      expect(res.statusCode, res.body).toBe(201);
      stored.push({ o, ownerId, id: res.json().id, data: PNG });
    }
    // A journal attachment from before attachments moved into the database: a file on disk.
    const entryId = await newEntry();
    const storageKey = path.join(company.id, 'legacy-move.pdf');
    fs.mkdirSync(path.join(dataDir, 'attachments', company.id), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'attachments', storageKey), PDF);
    await withS3.database.db
      .insertInto('journal_attachments')
      .values({
        organization_id: company.id,
        id: 'legacy-move',
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
    stored.push({ o: owners[0]!, ownerId: entryId, id: 'legacy-move', data: PDF });

    const move = () =>
      moveAttachmentsToObjectStore(withS3.database.db, objectStoreOf(withS3.ctx.config)!, {
        legacyDir: path.join(dataDir, 'attachments'),
        now: withS3.clock.now,
      });
    const first = await move();
    expect(first.journal_entry.moved).toBe(2);
    expect(first.bank_transaction.moved).toBe(1);
    expect(first.bill.moved).toBe(1);
    for (const { o, ownerId, id, data } of stored) {
      const row = await rowOf(o, id);
      expect(row).toMatchObject({
        storage: 's3',
        data: null,
        storage_key: `${PREFIX}${company.id}/${o.owner}/${id}`,
      });
      expect(s3.objects.get(row!.storage_key!)?.data.equals(data)).toBe(true);
      const back = await call(withS3, 'GET', `${o.base(ownerId)}/${id}`);
      expect(back.statusCode).toBe(200);
      expect(back.rawPayload.equals(data)).toBe(true);
    }
    expect(await sweepRows()).toEqual([]);
    const second = await move();
    expect(Object.values(second).map((r) => r.moved)).toEqual([0, 0, 0]);
  });
});

import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { createTestApp } from '../../src/server/testing/app.ts';
import { createTestCompany } from '../../src/server/testing/companies.ts';
import { startFakeS3 } from '../../src/server/testing/fake-s3.ts';
import { numberArg, openBenchDatabase, timed } from './setup.ts';

// Attachments in the database against attachments in an S3-compatible store (decision 0043):
// the same uploads (base64 JSON, the bank-transaction route) and downloads through app.inject,
// alternating between a server without S3_* and one with the local fake store on the same
// database, and how much the attachment table grows with each. The fake store runs in this
// process, on loopback: the figures show Kontor's own cost of each path, not a real network's.
//
//   node --import tsx scripts/bench/attachments.ts [--rounds 20] [--kb 1024]
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node --import tsx scripts/bench/attachments.ts

const rounds = numberArg('rounds', 20);
const kb = numberArg('kb', 1024);

const database = await openBenchDatabase('attachments', { pglite: 'memory' });
const s3 = await startFakeS3();
const withoutS3 = await createTestApp({ database });
const withS3 = await createTestApp({ database, env: s3.env });
const company = await createTestCompany(withoutS3.app);
const call = (app: typeof withS3.app, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  app.inject({
    method,
    url: `/api/orgs/${company.id}${url}`,
    headers: { cookie: company.owner.cookie },
    ...(payload ? { payload: payload as string } : {}),
  });
const account = await call(withoutS3.app, 'POST', '/wallet/accounts', {
  name: 'Checking',
  kind: 'bank',
  currency: 'USD',
  openingDate: '2026-10-31',
});
const tx = await call(withoutS3.app, 'POST', '/transactions', {
  moneyAccountId: account.json().id,
  date: '2026-11-03',
  description: 'Receipts',
  amount: -100,
});
const txId = tx.json().id as string;
const tableBytes = async () =>
  Number(
    (
      await sql<{
        n: string;
      }>`select pg_total_relation_size('bank_transaction_attachments')::text as n`.execute(database.db)
    ).rows[0]!.n,
  );

// A plain-text receipt (accepted as text/plain) of random printable bytes: no compression helps.
const file = () =>
  Buffer.from(
    randomBytes(kb * 768)
      .toString('base64')
      .slice(0, kb * 1024),
  );
const results = {
  database: { up: [] as number[], down: [] as number[], grew: 0 },
  s3: { up: [] as number[], down: [] as number[], grew: 0 },
};
for (let i = 0; i < rounds * 2; i += 1) {
  const variant = i % 2 === 0 ? 'database' : 's3';
  const app = variant === 's3' ? withS3.app : withoutS3.app;
  const data = file();
  const before = await tableBytes();
  const up = await timed(() =>
    call(app, 'POST', `/transactions/${txId}/attachments`, {
      fileName: 'r.txt',
      dataBase64: data.toString('base64'),
    }),
  );
  if (up.result.statusCode !== 201) throw new Error(`upload: ${up.result.statusCode} ${up.result.body}`);
  const down = await timed(() =>
    call(app, 'GET', `/transactions/${txId}/attachments/${up.result.json().id}`),
  );
  if (!down.result.rawPayload.equals(data)) throw new Error('download differs');
  results[variant].up.push(up.ms);
  results[variant].down.push(down.ms);
  results[variant].grew += (await tableBytes()) - before;
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  `${database.where === 'memory' ? 'PGlite' : 'PostgreSQL'}, ${rounds} rounds of ${kb} KB each way, alternating:`,
);
for (const [variant, r] of Object.entries(results)) {
  console.log(
    `  ${variant.padEnd(8)} upload median ${median(r.up)} ms, download median ${median(r.down)} ms, attachment table grew ${(r.grew / 1024 / 1024).toFixed(1)} MB`,
  );
}
console.log(`  objects in the fake store: ${s3.objects.size}`);
await withS3.app.close();
await withoutS3.app.close();
await s3.close();
await database.close();

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StatementImportProgress, statementImportInputSchema } from '../../../shared/transactions.ts';
import { createTestApp } from '../../testing/app.ts';
import { type TestCompany, addTestMember, createTestCompany } from '../../testing/companies.ts';
import { addUsdBankAccount, ofxStatementWith } from '../../testing/statements.ts';
import { commitStatement } from './service.ts';

// Long imports report how far they are: the commit calls back after each slice of rows, the
// progress route answers the page that started the import, and only that page (PGlite, and
// PostgreSQL with TEST_DATABASE_URL).

let t: Awaited<ReturnType<typeof createTestApp>>;
let company: TestCompany;
let other: TestCompany;

const ROWS = 25_000;

const ofxWith = (count: number, prefix: string) =>
  ofxStatementWith(count, (i) => ({
    amount: `1.${String(i % 100).padStart(2, '0')}`,
    fitId: `${prefix}${i}`,
    name: `Row ${i}`,
  }));

const poll = (orgId: string, progressId: string, cookie: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/orgs/${orgId}/statement-imports/progress/${progressId}`,
    headers: { cookie },
  });

beforeAll(async () => {
  t = await createTestApp();
  company = await createTestCompany(t.app);
  other = await createTestCompany(t.app, { name: 'Other Ltd' });
});
afterAll(async () => {
  await t?.close();
});

describe('statement import progress', () => {
  it('the commit reports rows posted after each slice, increasing to the total', {
    timeout: 120_000,
  }, async () => {
    const moneyAccountId = await addUsdBankAccount(t.app, company);
    const calls: [number, number, string][] = [];
    const result = await commitStatement(
      t.ctx,
      { organizationId: company.id, userId: company.owner.id, role: 'owner' },
      statementImportInputSchema.parse({ moneyAccountId, fileName: 'long.ofx', content: ofxWith(ROWS, 'S') }),
      (done, total, phase) => {
        calls.push([done, total, phase]);
      },
    );
    expect(result.imported).toBe(ROWS);
    expect(calls).toEqual([
      [0, ROWS, 'posting'],
      [10_000, ROWS, 'posting'],
      [20_000, ROWS, 'posting'],
      [ROWS, ROWS, 'posting'],
      [ROWS, ROWS, 'finishing'],
    ]);
  });

  it('the page that started an import reads its progress while it runs, without waiting for it', {
    timeout: 120_000,
  }, async () => {
    const moneyAccountId = await addUsdBankAccount(t.app, company);
    const progressId = randomUUID();
    let running = true;
    const importing = t.app
      .inject({
        method: 'POST',
        url: `/api/orgs/${company.id}/statement-imports`,
        headers: { cookie: company.owner.cookie, 'x-progress-id': progressId },
        payload: { moneyAccountId, fileName: 'long.ofx', content: ofxWith(ROWS, 'R') },
      })
      .finally(() => {
        running = false;
      });
    // Polled as the page does, one request at a time; answers that came back while the
    // import was still running are what the page can show.
    const during: StatementImportProgress[] = [];
    while (running) {
      const res = await poll(company.id, progressId, company.owner.cookie);
      if (res.statusCode === 200 && running) during.push(res.json());
      await new Promise((r) => setTimeout(r, 20));
    }
    const done = await importing;
    expect(done.statusCode).toBe(200);
    expect(done.json().imported).toBe(ROWS);
    // PGlite has one connection, held by the import's transaction: a poll that needed the
    // database would only be answered after the commit.
    expect(during.length).toBeGreaterThan(0);
    expect(during.some((p) => p.phase === 'reading' || p.phase === 'posting')).toBe(true);
    const order = ['reading', 'posting', 'finishing', 'done'];
    for (let i = 1; i < during.length; i++) {
      const [a, b] = [during[i - 1]!, during[i]!];
      expect(order.indexOf(b.phase)).toBeGreaterThanOrEqual(order.indexOf(a.phase));
      expect(b.done).toBeGreaterThanOrEqual(a.done);
    }
    for (const p of during) expect(p.done).toBeLessThanOrEqual(p.total);
    const after = await poll(company.id, progressId, company.owner.cookie);
    expect(after.statusCode).toBe(200);
    expect(after.json()).toEqual({ phase: 'done', done: ROWS, total: ROWS });

    // Only its own company and user see it: another company's owner gets 404 through either
    // company's address, a colleague in the same company gets 404 too.
    expect((await poll(company.id, progressId, other.owner.cookie)).statusCode).toBe(404);
    expect((await poll(other.id, progressId, other.owner.cookie)).statusCode).toBe(404);
    expect((await poll(other.id, progressId, company.owner.cookie)).statusCode).toBe(404);
    const colleague = await addTestMember(t.app, company, 'viewer');
    expect((await poll(company.id, progressId, colleague.cookie)).statusCode).toBe(404);
    // Signed out: 401, as every company route.
    const signedOut = await t.app.inject({
      method: 'GET',
      url: `/api/orgs/${company.id}/statement-imports/progress/${progressId}`,
    });
    expect(signedOut.statusCode).toBe(401);
  });

  it('answers 404 in the standard error shape for an id no import used', async () => {
    const res = await poll(company.id, randomUUID(), company.owner.cookie);
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });

  it('refuses a progress id that is not a UUID, importing nothing', async () => {
    const moneyAccountId = await addUsdBankAccount(t.app, company);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${company.id}/statement-imports`,
      headers: { cookie: company.owner.cookie, 'x-progress-id': 'not-a-uuid' },
      payload: { moneyAccountId, fileName: 'short.ofx', content: ofxWith(3, 'X') },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('invalid_progress_id');
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/orgs/${company.id}/statement-imports?moneyAccountId=${moneyAccountId}`,
      headers: { cookie: company.owner.cookie },
    });
    expect(list.json().imports).toEqual([]);
  });

  it('marks a refused import as failed', async () => {
    const moneyAccountId = await addUsdBankAccount(t.app, company);
    const progressId = randomUUID();
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${company.id}/statement-imports`,
      headers: { cookie: company.owner.cookie, 'x-progress-id': progressId },
      payload: { moneyAccountId, fileName: 'bad.csv', content: 'not a statement' },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const after = await poll(company.id, progressId, company.owner.cookie);
    expect(after.json()).toEqual({ phase: 'failed', done: 0, total: 0 });
  });
});

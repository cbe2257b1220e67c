import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../testing/app.ts';
import { type TestUser, signUpTestUser } from '../../testing/users.ts';
import { MAIL_JOB, type QueuedMail, deliverQueuedMail, sendMail } from '../mail/service.ts';
import { notify } from '../notifications/service.ts';
import { createJobQueue } from './queue.ts';

// The queue inside the app: with SMTP, a mail sent in a transaction (notifications,
// invitations) is a `mail.send` job that exists only if the transaction commits, delivered by
// the worker and retried when the SMTP server refuses; the admin console lists counts, failing
// and dead jobs and retries a dead one (admin only, recorded in the admin audit log).

const ROOT = 'jobs-admin@example.com';

const received: { to: string[]; data: string }[] = [];
let refuse = false;
let server: SMTPServer;
let port = 0;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(_address, _session, callback) {
      if (refuse) return callback(new Error('452 mailbox busy, try later'));
      callback();
    },
    onData(stream, session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => {
        data += chunk.toString('utf8');
      });
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('mail as a job, and the admin console’s jobs', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let root: TestUser;
  let member: TestUser;
  let queue: ReturnType<typeof createJobQueue>;
  beforeAll(async () => {
    t = await createTestApp({
      env: { SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true`, ADMIN_EMAILS: ROOT },
    });
    root = await signUpTestUser(t.app, { email: ROOT });
    member = await signUpTestUser(t.app, { email: 'jobs-member@example.com' });
    queue = createJobQueue({ db: t.database.db, now: t.ctx.now });
    queue.work<QueuedMail>(MAIL_JOB, (job) => deliverQueuedMail(t.ctx, job.data));
  });
  afterAll(async () => {
    await t?.close();
  });
  const call = async (method: 'GET' | 'POST', url: string, user?: TestUser) => {
    const res = await t.app.inject({ method, url, headers: user ? { cookie: user.cookie } : {} });
    return { status: res.statusCode, body: res.json() };
  };
  const mailJobs = async () =>
    (
      await sql<{ id: string; state: string; retry_count: number; last_error: string | null }>`
        select id, state, retry_count, last_error from jobs where queue = ${MAIL_JOB} order by created_at, id`.execute(
        t.database.db,
      )
    ).rows;
  const alert = (subject: string) => ({
    kind: 'new_sign_in' as const,
    organizationId: null,
    title: subject,
    body: 'A sign-in from a new device.',
    link: '/settings',
    dedupeKey: `test:${subject}`,
    mail: (to: string) => ({ to, subject, text: 'A sign-in from a new device.' }),
  });

  it('sends a notification mail only when its transaction commits, through the worker', async () => {
    await expect(
      t.database.db.transaction().execute(async (trx) => {
        const told = await notify(t.ctx, trx, alert('Rolled back alert'), [member.id]);
        expect(told[0]?.emailed).toBe(true);
        throw new Error('the change fails');
      }),
    ).rejects.toThrow('the change fails');
    expect(await mailJobs()).toEqual([]);

    await t.database.db
      .transaction()
      .execute((trx) => notify(t.ctx, trx, alert('Committed alert'), [member.id]));
    const [job] = await mailJobs();
    expect(job?.state).toBe('created');
    // Nothing left the process yet: the job is waiting for a worker.
    expect(received.some((r) => r.data.includes('Committed alert'))).toBe(false);
    expect(await queue.runDue()).toBe(1);
    expect(received.filter((r) => r.data.includes('Subject: Committed alert'))).toHaveLength(1);
    expect(received.some((r) => r.data.includes('Rolled back alert'))).toBe(false);
    expect((await mailJobs())[0]?.state).toBe('completed');
  });

  it('retries a refused delivery with backoff, then lists it dead for the admin, who retries it', async () => {
    await sql`delete from jobs`.execute(t.database.db);
    refuse = true;
    const sent = await t.database.db
      .transaction()
      .execute((trx) =>
        sendMail(t.ctx, { to: 'bea@example.com', subject: 'Busy mailbox', text: 'hello' }, { db: trx }),
      );
    expect(sent.delivery).toBe('queued');
    const jobId = (sent as { jobId: string }).jobId;
    // Eight retries: 30 s, 1, 2, 4, 8, 16, 32, 64 min after each failure.
    const clock = { at: t.ctx.now().getTime() };
    const now = () => new Date(clock.at);
    const timed = createJobQueue({ db: t.database.db, now });
    timed.work<QueuedMail>(MAIL_JOB, (job) => deliverQueuedMail(t.ctx, job.data));
    for (let attempt = 0; attempt < 9; attempt += 1) {
      expect(await timed.runDue(), `attempt ${attempt + 1}`).toBe(1);
      clock.at += 30_000 * 2 ** attempt;
    }
    const [dead] = await mailJobs();
    expect(dead).toMatchObject({ id: jobId, state: 'dead', retry_count: 9 });
    expect(dead?.last_error).toMatch(/mailbox busy/);

    // The console: signed out 401, a non-admin 403, the admin sees counts and the dead job.
    expect((await call('GET', '/api/admin/jobs')).status).toBe(401);
    expect((await call('GET', '/api/admin/jobs', member)).status).toBe(403);
    const overview = await call('GET', '/api/admin/jobs', root);
    expect(overview.status).toBe(200);
    expect(overview.body.queues).toContainEqual({
      queue: MAIL_JOB,
      created: 0,
      retry: 0,
      active: 0,
      completed: 0,
      dead: 1,
    });
    expect(overview.body.dead[0]).toMatchObject({ id: jobId, queue: MAIL_JOB, state: 'dead', retryCount: 9 });
    expect(overview.body.dead[0].lastError).toMatch(/mailbox busy/);

    // Retrying: a member cannot, unknown ids are 404, then the admin revives it.
    expect((await call('POST', `/api/admin/jobs/${jobId}/retry`, member)).status).toBe(403);
    expect((await call('POST', '/api/admin/jobs/no-such-job/retry', root)).status).toBe(404);
    refuse = false;
    const retried = await call('POST', `/api/admin/jobs/${jobId}/retry`, root);
    expect(retried.status).toBe(200);
    expect(retried.body).toMatchObject({ id: jobId, state: 'created', retryCount: 0 });
    const again = await call('POST', `/api/admin/jobs/${jobId}/retry`, root);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('job_not_dead');
    const audit = await t.database.db
      .selectFrom('admin_audit_log')
      .selectAll()
      .where('action', '=', 'job.retried')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ target_type: 'job', target_id: jobId, admin_email: ROOT });

    expect(await timed.runDue()).toBe(1);
    expect(received.filter((r) => r.data.includes('Subject: Busy mailbox'))).toHaveLength(1);
    expect((await mailJobs())[0]?.state).toBe('completed');
  });
});

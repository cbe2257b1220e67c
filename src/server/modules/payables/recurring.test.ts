import { describe, expect, it } from 'vitest';
import { addTestMember, createTestCompany } from '../../testing/companies.ts';
import { testDatabaseKind } from '../../testing/db.ts';
import { api, ensureLedger } from '../../testing/invoices.ts';
import {
  addTestSupplier,
  createTestBill,
  payablesAgreement,
  setUpTestPayables,
} from '../../testing/payables.ts';
import { runDueRecurringBills } from './recurring-runner.ts';
import { occurrenceReference } from './recurring.ts';

// Recurring bills (issue 15 §5) through the API and the runner with a fixed clock: catch-up
// after downtime creates exactly the missed bills, each dated its occurrence; running again
// (or two runners at once on PostgreSQL) creates nothing more; pause, resume and end; auto-
// submit opens a bill below the approval threshold and leaves one above it awaiting approval.

const fixture = setUpTestPayables({ name: 'Recurring Bills Co', now: '2026-03-10T12:00:00Z' });

const run = () => runDueRecurringBills(fixture.t.ctx, fixture.t.clock.now());

const schedule = async (body: Record<string, unknown>) => {
  const res = await fixture.client.post('/bill-schedules', {
    supplierId: fixture.fx.supplierId,
    frequency: 'monthly',
    lines: [
      { description: 'Office rent', quantity: '1', unitPrice: 120_000, accountId: fixture.fx.rentAccountId },
    ],
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; nextDate: string | null; status: string; total: number };
};

const billsOf = (scheduleId: string) =>
  fixture.t.database.db
    .selectFrom('bills')
    .select(['id', 'issue_date', 'due_date', 'reference', 'status', 'total', 'journal_entry_id'])
    .where('organization_id', '=', fixture.company.id)
    .where('schedule_id', '=', scheduleId)
    .orderBy('issue_date')
    .execute();

const listed = async (id: string) => {
  const res = await fixture.client.get('/bill-schedules');
  expect(res.status).toBe(200);
  return res.body.schedules.find((s: { id: string }) => s.id === id);
};

const setStatus = (id: string, status: string) =>
  fixture.client.patch(`/bill-schedules/${id}/status`, { status });

/** Ends a schedule so later tests' clocks do not create its bills. */
const endSchedule = async (id: string) => {
  const res = await setStatus(id, 'ended');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

describe('recurring bills', () => {
  it('catches up after three months down: the missed bills, each dated and due on its own, never twice', async () => {
    fixture.t.clock.set('2026-03-10T12:00:00Z');
    const s = await schedule({ startDate: '2026-03-31', reference: 'RENT', paymentTermsDays: 14 });
    expect(s).toMatchObject({ status: 'active', nextDate: '2026-03-31', total: 120_000 });
    expect((await run()).created).toEqual([]); // not due yet
    expect(await billsOf(s.id)).toEqual([]);

    fixture.t.clock.set('2026-06-15T12:00:00Z');
    // On PostgreSQL two runners race for real (the row lock and the runs key keep them apart);
    // PGlite is one connection, so there they run one after the other.
    const [first, second] =
      testDatabaseKind() === 'postgres' ? await Promise.all([run(), run()]) : [await run(), await run()];
    expect([...first.failed, ...second.failed]).toEqual([]);
    expect((await run()).created).toEqual([]);
    const bills = await billsOf(s.id);
    expect(first.created.length + second.created.length).toBe(3);
    // Mar 31, Apr 30, May 31: months never drift; Jun 30 is not due yet.
    expect(bills.map((b) => [b.issue_date, b.due_date, b.reference, b.status, Number(b.total)])).toEqual([
      ['2026-03-31', '2026-04-14', 'RENT-2026-03', 'draft', 120_000],
      ['2026-04-30', '2026-05-14', 'RENT-2026-04', 'draft', 120_000],
      ['2026-05-31', '2026-06-14', 'RENT-2026-05', 'draft', 120_000],
    ]);
    expect(await listed(s.id)).toMatchObject({ createdCount: 3, nextDate: '2026-06-30', status: 'active' });
    // A draft posts nothing.
    expect(bills.every((b) => b.journal_entry_id === null)).toBe(true);
    await endSchedule(s.id);
  });

  it('ends after its count and after its end date', async () => {
    fixture.t.clock.set('2026-03-10T12:00:00Z');
    const counted = await schedule({
      startDate: '2026-01-05',
      frequency: 'weekly',
      count: 3,
      reference: 'SUB',
    });
    const dated = await schedule({ startDate: '2026-01-01', frequency: 'monthly', endDate: '2026-02-15' });
    await run();
    expect((await billsOf(counted.id)).map((b) => b.reference)).toEqual([
      'SUB-2026-01-05',
      'SUB-2026-01-12',
      'SUB-2026-01-19',
    ]);
    expect(await listed(counted.id)).toMatchObject({ status: 'ended', nextDate: null, createdCount: 3 });
    expect((await billsOf(dated.id)).map((b) => b.issue_date)).toEqual(['2026-01-01', '2026-02-01']);
    expect(await listed(dated.id)).toMatchObject({ status: 'ended', nextDate: null, createdCount: 2 });
    fixture.t.clock.set('2027-01-10T12:00:00Z');
    await run();
    expect(await billsOf(counted.id)).toHaveLength(3);
    expect(await billsOf(dated.id)).toHaveLength(2);
    // An ended schedule stays ended.
    const again = await setStatus(counted.id, 'active');
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('schedule_ended');
  });

  it('pause skips the paused periods, resume goes on from today, end stops it', async () => {
    fixture.t.clock.set('2026-03-10T12:00:00Z');
    const s = await schedule({ startDate: '2026-03-01', reference: 'LEASE' });
    await run();
    expect((await billsOf(s.id)).map((b) => b.issue_date)).toEqual(['2026-03-01']);
    const paused = await setStatus(s.id, 'paused');
    expect(paused.status, JSON.stringify(paused.body)).toBe(200);
    expect(paused.body.status).toBe('paused');
    fixture.t.clock.set('2026-05-10T12:00:00Z');
    await run();
    expect(await billsOf(s.id)).toHaveLength(1);
    const resumed = await setStatus(s.id, 'active');
    expect(resumed.status, JSON.stringify(resumed.body)).toBe(200);
    expect(resumed.body).toMatchObject({ status: 'active', nextDate: '2026-06-01' });
    await run();
    expect(await billsOf(s.id)).toHaveLength(1);
    fixture.t.clock.set('2026-06-02T12:00:00Z');
    await run();
    expect((await billsOf(s.id)).map((b) => [b.issue_date, b.reference])).toEqual([
      ['2026-03-01', 'LEASE-2026-03'],
      ['2026-06-01', 'LEASE-2026-06'],
    ]);
    const ended = await setStatus(s.id, 'ended');
    expect(ended.body).toMatchObject({ status: 'ended', nextDate: null, createdCount: 2 });
    fixture.t.clock.set('2026-09-02T12:00:00Z');
    await run();
    expect(await billsOf(s.id)).toHaveLength(2);
  });

  it('auto-submits: below the threshold the bill opens and posts, above it waits for approval', async () => {
    fixture.t.clock.set('2026-03-10T12:00:00Z');
    const settings = await fixture.client.patch('/payables/settings', { approvalThreshold: 100_000 });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    const small = await schedule({
      startDate: '2026-03-05',
      autoSubmit: true,
      reference: 'SAAS',
      lines: [{ description: 'Software', quantity: '1', unitPrice: 5_000 }],
    });
    const large = await schedule({ startDate: '2026-03-05', autoSubmit: true, reference: 'RENT-BIG' });
    const result = await run();
    expect(result.failed).toEqual([]);
    const [smallBill] = await billsOf(small.id);
    const [largeBill] = await billsOf(large.id);
    expect(smallBill).toMatchObject({ status: 'open', reference: 'SAAS-2026-03' });
    expect(smallBill!.journal_entry_id).not.toBeNull();
    expect(largeBill).toMatchObject({ status: 'awaiting_approval', journal_entry_id: null });
    const agreement = await payablesAgreement(fixture.t.database, fixture.company.id, fixture.fx.payableId);
    expect(agreement.trialBalance).toBe(0);
    expect(agreement.ledger).toBe(agreement.bills);
    // An approver approves the one above the threshold; it then posts.
    const approved = await fixture.client.post(`/bills/${largeBill!.id}/approve`);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body.storedStatus).toBe('open');
    await fixture.client.patch('/payables/settings', { approvalThreshold: null });
    await endSchedule(small.id);
    await endSchedule(large.id);
  });

  it('a refused auto-submit (a locked period) leaves the bill as a draft saying why, and the schedule goes on', async () => {
    fixture.t.clock.set('2026-03-10T12:00:00Z');
    const lock = await fixture.client.patch('/ledger/settings', { lockDate: '2026-02-28' });
    expect(lock.status, JSON.stringify(lock.body)).toBe(200);
    const s = await schedule({ startDate: '2026-02-15', autoSubmit: true, reference: 'LOCKED' });
    const result = await run();
    expect(result.failed).toEqual([]);
    const bills = await billsOf(s.id);
    expect(bills.map((b) => [b.issue_date, b.status])).toEqual([['2026-02-15', 'draft']]);
    const events = await fixture.t.database.db
      .selectFrom('bill_events')
      .select(['kind', 'message'])
      .where('organization_id', '=', fixture.company.id)
      .where('bill_id', '=', bills[0]!.id)
      .execute();
    expect(events.map((e) => e.kind)).toContain('submit_failed');
    expect(await listed(s.id)).toMatchObject({ nextDate: '2026-03-15', createdCount: 1, status: 'active' });
    const agreement = await payablesAgreement(fixture.t.database, fixture.company.id, fixture.fx.payableId);
    expect(agreement.trialBalance).toBe(0);
    expect((await fixture.client.patch('/ledger/settings', { lockDate: null })).status).toBe(200);
    await endSchedule(s.id);
  });

  it('deletes a schedule that created nothing; one that did is refused and stays', async () => {
    fixture.t.clock.set('2026-03-10T12:00:00Z');
    const unused = await schedule({ startDate: '2026-09-01' });
    const used = await schedule({ startDate: '2026-03-01' });
    await run();
    expect(await billsOf(used.id)).toHaveLength(1);
    const refused = await fixture.client.delete(`/bill-schedules/${used.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('schedule_has_bills');
    expect(await listed(used.id)).toMatchObject({ createdCount: 1 });
    const viewer = await addTestMember(fixture.t.app, fixture.company, 'viewer');
    expect(
      (await api(fixture.t.app, fixture.company, viewer.cookie).delete(`/bill-schedules/${unused.id}`))
        .status,
    ).toBe(403);
    expect((await fixture.client.delete(`/bill-schedules/${unused.id}`)).status).toBe(204);
    expect(await listed(unused.id)).toBeUndefined();
    expect((await fixture.client.delete(`/bill-schedules/${unused.id}`)).status).toBe(404);
    await endSchedule(used.id);
  });

  it('never meets duplicate detection: each occurrence has its own reference', async () => {
    fixture.t.clock.set('2026-03-10T12:00:00Z');
    // A bill typed by hand with the schedule's bare reference does not block the schedule.
    await createTestBill(fixture.client, fixture.fx, { reference: 'UTIL' });
    const s = await schedule({ startDate: '2026-02-01', reference: 'UTIL', frequency: 'quarterly' });
    const result = await run();
    expect(result.failed).toEqual([]);
    expect((await billsOf(s.id)).map((b) => b.reference)).toEqual(['UTIL-2026-Q1']);
    await endSchedule(s.id);
    expect(occurrenceReference('', 'monthly', '2026-01-01')).toBe('');
    expect(occurrenceReference('X'.repeat(100), 'yearly', '2026-01-01')).toHaveLength(100);
  });

  it('refuses bad schedules, and roles and companies are kept apart', async () => {
    const archived = await addTestSupplier(fixture.t.database, fixture.company, {
      name: 'Gone',
      archived: true,
    });
    const bad = async (body: Record<string, unknown>, status: number, code: string) => {
      const res = await fixture.client.post('/bill-schedules', {
        supplierId: fixture.fx.supplierId,
        frequency: 'monthly',
        startDate: '2026-04-01',
        lines: [{ description: 'Rent', quantity: '1', unitPrice: 1_000 }],
        ...body,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      if (code) expect(res.body.error.code).toBe(code);
    };
    const before = (await fixture.client.get('/bill-schedules')).body.schedules.length;
    await bad({ supplierId: archived }, 400, 'supplier_archived');
    await bad({ supplierId: 'nope' }, 404, 'not_found');
    await bad(
      { lines: [{ description: 'Rent', quantity: '1', unitPrice: 1_000, accountId: fixture.fx.payableId }] },
      400,
      'invalid_account',
    );
    await bad({ currency: 'EUR' }, 400, 'exchange_rate_required');
    await bad({ endDate: '2026-03-01' }, 400, '');
    expect((await fixture.client.get('/bill-schedules')).body.schedules).toHaveLength(before);

    // Another company sees none of them and cannot change them.
    const other = await createTestCompany(fixture.t.app, { name: 'Other Recurring Co' });
    await ensureLedger(fixture.t.database, other);
    const otherClient = api(fixture.t.app, other);
    expect((await otherClient.get('/bill-schedules')).body.schedules).toEqual([]);
    const mine = await schedule({ startDate: '2026-12-01' });
    expect((await otherClient.patch(`/bill-schedules/${mine.id}/status`, { status: 'paused' })).status).toBe(
      404,
    );
    const theirs = await otherClient.post('/bill-schedules', {
      supplierId: fixture.fx.supplierId,
      frequency: 'monthly',
      startDate: '2026-04-01',
      lines: [{ description: 'Rent', quantity: '1', unitPrice: 1_000 }],
    });
    expect(theirs.status).toBe(404);

    // A viewer reads; a member records.
    const viewer = await addTestMember(fixture.t.app, fixture.company, 'viewer');
    const viewerClient = api(fixture.t.app, fixture.company, viewer.cookie);
    expect((await viewerClient.get('/bill-schedules')).status).toBe(200);
    expect((await viewerClient.patch(`/bill-schedules/${mine.id}/status`, { status: 'paused' })).status).toBe(
      403,
    );
    const member = await addTestMember(fixture.t.app, fixture.company, 'member');
    const memberClient = api(fixture.t.app, fixture.company, member.cookie);
    expect((await memberClient.patch(`/bill-schedules/${mine.id}/status`, { status: 'paused' })).status).toBe(
      200,
    );
    await endSchedule(mine.id);
  });
});

import { beforeAll, describe, expect, it } from 'vitest';
import type { TestUser } from '../../testing/users.ts';
import { addTestMember } from '../../testing/companies.ts';
import { api } from '../../testing/invoices.ts';
import {
  approveTestBill,
  createTestBill,
  payablesAgreement,
  setUpTestPayables,
} from '../../testing/payables.ts';

// Approval by threshold over the API: the payables settings, a member's bill above the
// threshold waiting for an accountant, approval posting it, rejection sending it back with the
// reason, an edit sending it back, below-threshold and approver submissions opening at once,
// and who may do what.

const fixture = setUpTestPayables({ name: 'Approval Co' });
let member: TestUser;
let accountant: TestUser;
let asMember: ReturnType<typeof api>;
let asAccountant: ReturnType<typeof api>;

beforeAll(async () => {
  member = await addTestMember(fixture.t.app, fixture.company, 'member');
  accountant = await addTestMember(fixture.t.app, fixture.company, 'accountant');
  asMember = api(fixture.t.app, fixture.company, member.cookie);
  asAccountant = api(fixture.t.app, fixture.company, accountant.cookie);
}, 60_000);

const agreement = async () => {
  const a = await payablesAgreement(fixture.t.database, fixture.company.id, fixture.fx.payableId);
  expect(a.trialBalance).toBe(0);
  expect(a.ledger).toBe(a.bills);
};

const big = { lines: [{ description: 'Laptop', quantity: '1', unitPrice: 60_000 }] };
const small = { lines: [{ description: 'Pens', quantity: '1', unitPrice: 4_000 }] };

const auditActions = async (billId: string) =>
  (
    await fixture.t.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('organization_id', '=', fixture.company.id)
      .where('entity_id', '=', billId)
      .orderBy('created_at')
      .execute()
  ).map((r) => r.action);

describe('payables settings', () => {
  it('starts with no threshold and BILL- numbers; admins change it, bad values are refused', async () => {
    const start = await fixture.client.get('/payables/settings');
    expect(start.status).toBe(200);
    expect(start.body).toEqual({
      approvalThreshold: null,
      billPrefix: 'BILL-',
      nextBillNumber: 1,
      baseCurrency: 'USD',
    });
    for (const bad of [{ approvalThreshold: -1 }, { approvalThreshold: 1.5 }, { billPrefix: 'A B' }]) {
      const res = await fixture.client.patch('/payables/settings', bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    expect((await asMember.patch('/payables/settings', { approvalThreshold: 0 })).status).toBe(403);
    const set = await asAccountant.patch('/payables/settings', {
      approvalThreshold: 50_000,
      billPrefix: 'AP-',
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ approvalThreshold: 50_000, billPrefix: 'AP-', nextBillNumber: 1 });
    const bill = await createTestBill(fixture.client, fixture.fx, small);
    expect(bill.number).toBe('AP-0001');
    expect((await fixture.client.get('/payables/settings')).body.nextBillNumber).toBe(2);
  });
});

describe('the threshold flow', () => {
  it("a member's bill above the threshold waits; only an approver approves it, and it posts", async () => {
    const bill = await createTestBill(asMember, fixture.fx, big);
    expect(bill.needsApproval).toBe(true);
    const submitted = await asMember.post(`/bills/${bill.id}/submit`);
    expect(submitted.status).toBe(200);
    expect(submitted.body.status).toBe('awaiting_approval');
    expect(submitted.body.journalEntryId).toBeNull();
    expect(submitted.body.submittedBy).toBe(member.id);
    expect(submitted.body.history.at(-1).message).toContain('above the approval threshold');
    await agreement();
    expect((await asMember.post(`/bills/${bill.id}/submit`)).status).toBe(409);
    expect((await asMember.post(`/bills/${bill.id}/approve`)).status).toBe(403);
    expect((await asMember.post(`/bills/${bill.id}/reject`)).status).toBe(403);
    // Nothing posted is payable yet.
    expect((await asAccountant.post(`/bills/${bill.id}/void`)).status).toBe(409);

    const approved = await approveTestBill(asAccountant, bill.id);
    expect(approved.status).toBe('open');
    expect(approved.approvedBy).toBe(accountant.id);
    expect(approved.journalEntryId).toBeTruthy();
    expect(approved.totalBase).toBe(60_000);
    expect(approved.history.map((h: { kind: string }) => h.kind)).toEqual([
      'created',
      'submitted',
      'posted',
      'approved',
    ]);
    expect(approved.history.at(-1).actorName).toBeTruthy();
    expect(await auditActions(bill.id)).toEqual(['bill.created', 'bill.submitted', 'bill.approved']);
    expect((await asAccountant.post(`/bills/${bill.id}/approve`)).status).toBe(409);
    await agreement();
  });

  it('an edit sends a bill awaiting approval back to draft; the approver sees the new figures', async () => {
    const bill = await createTestBill(asMember, fixture.fx, big);
    await asMember.post(`/bills/${bill.id}/submit`);
    const edited = await asMember.patch(`/bills/${bill.id}`, {
      lines: [{ description: 'Laptop, bigger', quantity: '1', unitPrice: 90_000 }],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.status).toBe('draft');
    expect(edited.body.submittedAt).toBeNull();
    expect(edited.body.history.at(-1).message).toBe('Edited; sent back for approval');
    expect((await asAccountant.post(`/bills/${bill.id}/approve`)).body.error.code).toBe('invalid_transition');
    const again = await asMember.post(`/bills/${bill.id}/submit`);
    expect(again.body.status).toBe('awaiting_approval');
    const seen = await asAccountant.get(`/bills/${bill.id}`);
    expect(seen.body.total).toBe(90_000);
    const approved = await approveTestBill(asAccountant, bill.id);
    expect(approved.totalBase).toBe(90_000);
    await agreement();
  });

  it('a rejection sends it back to draft with the reason; the member may then delete it', async () => {
    const bill = await createTestBill(asMember, fixture.fx, big);
    await asMember.post(`/bills/${bill.id}/submit`);
    const rejected = await asAccountant.post(`/bills/${bill.id}/reject`, { reason: 'Not ordered by us' });
    expect(rejected.status).toBe(200);
    expect(rejected.body.status).toBe('draft');
    expect(rejected.body.history.at(-1).message).toBe('Rejected: Not ordered by us; back to draft');
    expect((await asAccountant.post(`/bills/${bill.id}/reject`)).status).toBe(409);
    expect(await auditActions(bill.id)).toEqual(['bill.created', 'bill.submitted', 'bill.rejected']);
    expect((await asMember.delete(`/bills/${bill.id}`)).status).toBe(204);
    await agreement();
  });

  it('at or below the threshold a member opens the bill; an approver opens one above it at once', async () => {
    const under = await createTestBill(asMember, fixture.fx, {
      lines: [{ description: 'Exactly the threshold', quantity: '1', unitPrice: 50_000 }],
    });
    expect(under.needsApproval).toBe(false);
    const opened = await asMember.post(`/bills/${under.id}/submit`);
    expect(opened.body.status).toBe('open');
    expect(opened.body.approvedBy).toBeNull();
    const above = await createTestBill(asAccountant, fixture.fx, big);
    const self = await asAccountant.post(`/bills/${above.id}/submit`);
    expect(self.body.status).toBe('open');
    expect(self.body.approvedBy).toBe(accountant.id);
    expect(self.body.history.at(-1).message).toContain('Submitted and approved');
    await agreement();
  });

  it('approving a bill dated in a locked period is refused (409) and it keeps waiting', async () => {
    const bill = await createTestBill(asMember, fixture.fx, { ...big, issueDate: '2026-01-20' });
    expect((await asMember.post(`/bills/${bill.id}/submit`)).body.status).toBe('awaiting_approval');
    expect((await fixture.client.patch('/ledger/settings', { lockDate: '2026-01-31' })).status).toBe(200);
    const refused = await asAccountant.post(`/bills/${bill.id}/approve`);
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('period_locked');
    const read = await fixture.client.get(`/bills/${bill.id}`);
    expect(read.body.status).toBe('awaiting_approval');
    expect(read.body.journalEntryId).toBeNull();
    expect(read.body.approvedBy).toBeNull();
    expect(await auditActions(bill.id)).toEqual(['bill.created', 'bill.submitted']);
    expect((await fixture.client.patch('/ledger/settings', { lockDate: null })).status).toBe(200);
    expect((await asMember.delete(`/bills/${bill.id}`)).status).toBe(204);
    await agreement();
  });

  it('a bill waiting for approval can be deleted but not paid or voided; no threshold opens everything', async () => {
    const waiting = await createTestBill(asMember, fixture.fx, big);
    await asMember.post(`/bills/${waiting.id}/submit`);
    expect((await asAccountant.post(`/bills/${waiting.id}/void`)).body.error.message).toContain(
      'delete it instead',
    );
    expect((await asAccountant.patch('/payables/settings', { approvalThreshold: null })).status).toBe(200);
    // Still waiting: a change of threshold does not approve what was submitted.
    expect((await fixture.client.get(`/bills/${waiting.id}`)).body.status).toBe('awaiting_approval');
    const next = await createTestBill(asMember, fixture.fx, big);
    expect((await asMember.post(`/bills/${next.id}/submit`)).body.status).toBe('open');
    expect((await asMember.delete(`/bills/${waiting.id}`)).status).toBe(204);
    await agreement();
  });
});

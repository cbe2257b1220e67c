import { sql } from 'kysely';
import {
  type BillingUsage,
  type LimitErrorDetails,
  PLAN_LIMIT_LABELS,
  READ_ONLY_MESSAGE,
} from '../../../shared/billing.ts';
import { addMonthsToMonthStart, monthStart } from '../../../shared/dates.ts';
import { AppError } from '../../../shared/errors.ts';
import {
  PLAN_LIMIT_KEYS,
  type PlanId,
  type PlanLimitKey,
  findPlan,
  planLifting,
} from '../../../shared/plans.ts';
import type { Executor } from '../../db/transaction.ts';
import { type BillingAccountRow, billingStateOf, companyPayer, ensureBillingAccount } from './account.ts';
import { formatBytes } from '../../../shared/format.ts';

// Plan limits (issue 16 §1; docs/billing-limits.md). What an account uses is counted from the
// business tables here, in one place, so the billing page's usage and the 402 on a refused
// change agree. A limit is checked inside the writing service's transaction, before it writes;
// a refusal changes nothing and nothing is ever deleted when a limit is reached (a downgraded
// account keeps everything it has, it just cannot add more).
//
// What is counted:
// - companies: companies the account owns (member with role owner);
// - members: people in one company plus its pending, unexpired invitations;
// - invoicesPerMonth: invoices a company issued (sent: numbered and posted) in the current
//   calendar month in UTC, by the time they were issued (sent_at), so back-dating the invoice
//   date does not get around it; voided invoices still count, they were issued;
// - bankFeeds: linked bank connections. Kontor has none until issue 18 (bank feeds), so this
//   is always 0 and nothing checks it yet;
// - storageBytes: the bytes of attachments (journal entries, bank transactions, bills) across
//   the companies the account owns.
//
// Every query starts from an indexed key: organization_members (user_id) for owned companies,
// the tables' (organization_id, …) keys for the rest, invoices (organization_id, sent_at)
// (migration 20261128_0300) for the month's invoices.

/** The first instant of `now`'s calendar month in UTC and of the next one. */
export const utcMonthRange = (now: Date): { from: Date; to: Date } => {
  const first = monthStart(now.toISOString().slice(0, 10));
  return {
    from: new Date(`${first}T00:00:00.000Z`),
    to: new Date(`${addMonthsToMonthStart(first, 1)}T00:00:00.000Z`),
  };
};

const ownedCompanies = (db: Executor, userId: string) =>
  db
    .selectFrom('organization_members')
    .select('organization_id')
    .where('user_id', '=', userId)
    .where('role', '=', 'owner');

const countOwnedCompanies = async (db: Executor, userId: string): Promise<number> => {
  const row = await db
    .selectFrom('organization_members')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('role', '=', 'owner')
    .executeTakeFirst();
  return Number(row?.n ?? 0);
};

/** Members and pending invitations per company (optionally leaving one invitation out). */
const membersByCompany = async (
  db: Executor,
  organizationIds: string[] | null,
  userId: string,
  now: Date,
  excludeInvitationId?: string,
): Promise<Map<string, number>> => {
  const orgFilter = organizationIds
    ? sql`organization_id in (${sql.join(organizationIds)})`
    : sql`organization_id in (select organization_id from organization_members where user_id = ${userId} and role = 'owner')`;
  const { rows } = await sql<{ organization_id: string; n: string }>`
    select organization_id, sum(n) as n from (
      select organization_id, count(*) as n from organization_members where ${orgFilter}
      group by organization_id
      union all
      select organization_id, count(*) as n from organization_invitations
      where ${orgFilter} and status = 'pending' and expires_at > ${now}
        and id <> ${excludeInvitationId ?? ''}
      group by organization_id
    ) counts group by organization_id`.execute(db);
  return new Map(rows.map((r) => [r.organization_id, Number(r.n)]));
};

/** Invoices issued per company in `now`'s UTC calendar month. */
const invoicesByCompany = async (
  db: Executor,
  organizationIds: string[] | null,
  userId: string,
  now: Date,
): Promise<Map<string, number>> => {
  const { from, to } = utcMonthRange(now);
  let query = db
    .selectFrom('invoices')
    .select(['organization_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('sent_at', '>=', from)
    .where('sent_at', '<', to)
    .groupBy('organization_id');
  query = organizationIds
    ? query.where('organization_id', 'in', organizationIds)
    : query.where('organization_id', 'in', ownedCompanies(db, userId));
  const rows = await query.execute();
  return new Map(rows.map((r) => [r.organization_id, Number(r.n)]));
};

/** Bytes of attachments across the companies the user owns. */
const storageOfOwner = async (db: Executor, userId: string): Promise<number> => {
  const { rows } = await sql<{ n: string | null }>`
    with owned as (
      select organization_id from organization_members where user_id = ${userId} and role = 'owner'
    )
    select coalesce(sum(size_bytes), 0) as n from (
      select size_bytes from journal_attachments where organization_id in (select organization_id from owned)
      union all
      select size_bytes from bank_transaction_attachments where organization_id in (select organization_id from owned)
      union all
      select size_bytes from bill_attachments where organization_id in (select organization_id from owned)
    ) files`.execute(db);
  return Number(rows[0]?.n ?? 0);
};

/** Bank feeds: none exist until issue 18, so an account uses 0. */
const bankFeedsOf = async (_db: Executor, _userId: string): Promise<number> => 0;

const largest = (counts: Map<string, number>) => Math.max(0, ...counts.values());

/**
 * What the account uses against each limit of `plan`, in PLAN_LIMIT_KEYS order. Members and
 * invoices a month are per company: the figure is the largest of the companies it owns.
 */
export const accountUsage = async (
  db: Executor,
  userId: string,
  plan: PlanId,
  now: Date = new Date(),
): Promise<BillingUsage[]> => {
  const limits = findPlan(plan).limits;
  const used: Record<PlanLimitKey, number> = {
    companies: await countOwnedCompanies(db, userId),
    members: largest(await membersByCompany(db, null, userId, now)),
    invoicesPerMonth: largest(await invoicesByCompany(db, null, userId, now)),
    bankFeeds: await bankFeedsOf(db, userId),
    storageBytes: await storageOfOwner(db, userId),
  };
  return PLAN_LIMIT_KEYS.map((key) => ({
    key,
    label: PLAN_LIMIT_LABELS[key],
    used: used[key],
    limit: limits[key],
  }));
};

export type LimitCheck = {
  /** The account whose plan applies: the creator for a new company, else companyPayer. */
  payerUserId: string;
  key: PlanLimitKey;
  /** The company, for the per-company limits (members, invoicesPerMonth). */
  organizationId?: string;
  /** How much the change adds (1 company, 1 member, 1 invoice, the file's bytes). */
  adding: number;
  /** Accepting an invitation: that invitation is the seat being taken, not counted twice. */
  excludeInvitationId?: string;
};

const usedFor = async (db: Executor, check: LimitCheck, now: Date): Promise<number> => {
  const { key, payerUserId, organizationId } = check;
  const companyOnly = () => {
    if (!organizationId) throw new Error(`The ${key} limit is per company: pass organizationId.`);
    return [organizationId];
  };
  switch (key) {
    case 'companies':
      return countOwnedCompanies(db, payerUserId);
    case 'members':
      return largest(await membersByCompany(db, companyOnly(), payerUserId, now, check.excludeInvitationId));
    case 'invoicesPerMonth':
      return largest(await invoicesByCompany(db, companyOnly(), payerUserId, now));
    case 'bankFeeds':
      return bankFeedsOf(db, payerUserId);
    case 'storageBytes':
      return storageOfOwner(db, payerUserId);
  }
};

/** 1073741824 → "1 GB", 1572864 → "1.5 MB": the one wording of sizes (shared/format.ts). */
export const describeBytes = formatBytes;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the plan allows, in words, for the 402's message. */
const allowanceText = (key: PlanLimitKey, allowed: number, used: number, adding: number): string => {
  switch (key) {
    case 'companies':
      return `allows ${plural(allowed, 'company', 'companies')}`;
    case 'members':
      return `allows ${plural(allowed, 'member', 'members')} in a company (pending invitations count), and this company has ${used}`;
    case 'invoicesPerMonth':
      return `allows ${plural(allowed, 'invoice', 'invoices')} a month, and this company has issued ${used} this month`;
    case 'bankFeeds':
      return `allows ${plural(allowed, 'bank feed', 'bank feeds')}`;
    case 'storageBytes':
      return `allows ${describeBytes(allowed)} of attachments; ${describeBytes(used)} is used and this file needs ${describeBytes(adding)}`;
  }
};

const MORE: Record<PlanLimitKey, string> = {
  companies: 'add more companies',
  members: 'invite more people',
  invoicesPerMonth: 'issue more invoices this month',
  bankFeeds: 'link more bank feeds',
  storageBytes: 'store more files',
};

/**
 * Refuses (402 `plan_limit`, details per limitErrorDetailsSchema) a change that would take the
 * payer's account past its plan's limit for `key`. The plan is billingStateOf's (a trial's,
 * a granted plan's or the subscription's); an account made before billing gets its row here.
 * Call it inside the writing service's transaction, before writing.
 */
export const assertWithinLimit = async (db: Executor, check: LimitCheck, now: Date): Promise<void> => {
  await ensureBillingAccount(db, check.payerUserId, now);
  // Locked for the rest of the caller's transaction: two changes of one account check their
  // limit one after the other, so both cannot squeeze in under it.
  const account = await db
    .selectFrom('billing_accounts')
    .selectAll()
    .where('user_id', '=', check.payerUserId)
    .forUpdate()
    .executeTakeFirstOrThrow();
  // A read-only account adds nothing (the request guard refuses most changes before this; this
  // covers the rest: accepting an invitation, a recurring invoice sent by the job runner).
  refuseIfReadOnly(account, now);
  const plan = billingStateOf(account, now).plan;
  const allowed = findPlan(plan).limits[check.key];
  if (allowed === null) return;
  const used = await usedFor(db, check, now);
  if (used + check.adding <= allowed) return;
  const lifting = planLifting(check.key, used + check.adding);
  const upgradeTo = lifting && lifting.id !== plan ? lifting : null;
  const next = upgradeTo
    ? `Upgrade to ${upgradeTo.name} in Billing to ${MORE[check.key]}.`
    : check.key === 'storageBytes'
      ? 'Remove attachments you no longer need, or contact us for more storage.'
      : 'Contact us to raise it.';
  const details: LimitErrorDetails = {
    limit: check.key,
    used,
    allowed,
    plan,
    upgradeTo: upgradeTo?.id ?? null,
  };
  throw new AppError(
    402,
    'plan_limit',
    `Your ${findPlan(plan).name} plan ${allowanceText(check.key, allowed, used, check.adding)}. ${next}`,
    details,
  );
};

/** 402 `account_read_only` with billingStateOf's reason when the account is read-only at `now`. */
export const refuseIfReadOnly = (row: BillingAccountRow | null | undefined, now: Date) => {
  if (!row) return;
  const state = billingStateOf(row, now);
  if (state.access === 'read_only')
    throw new AppError(402, 'account_read_only', state.readOnlyReason ?? READ_ONLY_MESSAGE);
};

/** The billing account of the company's payer (its earliest owner), in one query; null if none. */
export const payerAccountOf = async (
  db: Executor,
  organizationId: string,
): Promise<BillingAccountRow | null> => {
  const { rows } = await sql<BillingAccountRow>`
    select b.* from (
      select user_id from organization_members
      where organization_id = ${organizationId} and role = 'owner'
      order by created_at, user_id limit 1
    ) payer join billing_accounts b on b.user_id = payer.user_id`.execute(db);
  return rows[0] ?? null;
};

/**
 * Refuses (402 `account_read_only`) a change to a company whose payer is read-only; for work
 * that does not come through a request (the recurring invoice runner). No billing row yet: an
 * account from before billing, which gets a fresh trial on first need, so full access.
 */
export const assertCompanyWritable = async (db: Executor, organizationId: string, now: Date) =>
  refuseIfReadOnly(await payerAccountOf(db, organizationId), now);

/**
 * assertWithinLimit for a change inside a company: the plan is its payer's (companyPayer). A
 * company with no owner (made straight in the database by tests and benches) has no payer and
 * no limit.
 */
export const assertCompanyWithinLimit = async (
  db: Executor,
  check: Omit<LimitCheck, 'payerUserId'> & { organizationId: string },
  now: Date,
): Promise<void> => {
  const payerUserId = await companyPayer(db, check.organizationId);
  if (payerUserId) await assertWithinLimit(db, { ...check, payerUserId }, now);
};

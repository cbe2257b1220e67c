import type { Updateable } from 'kysely';
import type { Executor } from '../../db/transaction.ts';
import type { BillingAccountsTable, BillingCheckoutsTable } from '../../db/types.ts';
import type { PlanId } from '../../../shared/plans.ts';
import { ensureBillingAccount } from './account.ts';
import type { InvoiceSnapshot } from './provider.ts';

// SQL for billing (docs/billing.md). The account row itself is read with findBillingAccount
// (account.ts); everything else billing stores is here.

export const findAccountByCustomer = (db: Executor, provider: string, customerId: string) =>
  db
    .selectFrom('billing_accounts')
    .selectAll()
    .where('provider', '=', provider as 'local' | 'stripe')
    .where('customer_id', '=', customerId)
    .executeTakeFirst();

/** The account row locked for the rest of the transaction (PostgreSQL; PGlite runs one at a time). */
export const lockAccount = (db: Executor, userId: string) =>
  db.selectFrom('billing_accounts').selectAll().where('user_id', '=', userId).forUpdate().executeTakeFirst();

export const updateAccount = (
  db: Executor,
  userId: string,
  changes: Updateable<BillingAccountsTable>,
  now: Date,
) =>
  db
    .updateTable('billing_accounts')
    .set({ ...changes, updated_at: now })
    .where('user_id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();

/** Stores an event id; false when it was stored before (a replay). */
export const insertEvent = async (
  db: Executor,
  row: { provider: string; eventId: string; type: string; createdAt: Date },
) =>
  (await db
    .insertInto('billing_events')
    .values({
      provider: row.provider,
      event_id: row.eventId,
      type: row.type,
      event_created_at: row.createdAt,
      outcome: 'applied',
    })
    .onConflict((oc) => oc.columns(['provider', 'event_id']).doNothing())
    .returning('event_id')
    .executeTakeFirst()) !== undefined;

export const setEventOutcome = (
  db: Executor,
  provider: string,
  eventId: string,
  outcome: 'applied' | 'stale' | 'ignored',
  userId: string | null,
) =>
  db
    .updateTable('billing_events')
    .set({ outcome, user_id: userId })
    .where('provider', '=', provider)
    .where('event_id', '=', eventId)
    .execute();

export const upsertInvoice = (db: Executor, provider: string, userId: string, invoice: InvoiceSnapshot) => {
  const values = {
    number: invoice.number,
    status: invoice.status,
    currency: invoice.currency.toUpperCase(),
    amount_due: invoice.amountDue,
    amount_paid: invoice.amountPaid,
    description: invoice.description,
    period_start: invoice.periodStart,
    period_end: invoice.periodEnd,
    hosted_url: invoice.hostedUrl,
    pdf_url: invoice.pdfUrl,
  };
  return db
    .insertInto('billing_invoices')
    .values({ provider, id: invoice.invoiceId, user_id: userId, created_at: invoice.createdAt, ...values })
    .onConflict((oc) => oc.columns(['provider', 'id']).doUpdateSet(values))
    .execute();
};

export const listInvoices = (db: Executor, userId: string) =>
  db
    .selectFrom('billing_invoices')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(200)
    .execute();

export const findInvoice = (db: Executor, userId: string, id: string) =>
  db
    .selectFrom('billing_invoices')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();

/** How many local invoices exist (the next local invoice number). */
export const countLocalInvoices = async (db: Executor) =>
  Number(
    (
      await db
        .selectFrom('billing_invoices')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('provider', '=', 'local')
        .executeTakeFirstOrThrow()
    ).n,
  );

export const insertCheckout = (
  db: Executor,
  row: {
    id: string;
    userId: string;
    plan: BillingCheckoutsTable['plan'];
    interval: BillingCheckoutsTable['interval'];
    percentOff: number | null;
    now: Date;
  },
) =>
  db
    .insertInto('billing_checkouts')
    .values({
      id: row.id,
      user_id: row.userId,
      plan: row.plan,
      interval: row.interval,
      percent_off: row.percentOff,
      created_at: row.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();

/** A user's checkout session (another user's id reads as none), locked when `lock`. */
export const findCheckout = (db: Executor, userId: string, id: string, lock = false) => {
  const query = db
    .selectFrom('billing_checkouts')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
};

export const updateCheckout = (db: Executor, id: string, changes: Updateable<BillingCheckoutsTable>) =>
  db
    .updateTable('billing_checkouts')
    .set(changes)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();

// ---- promo code effects (modules/promo decides when; these write the account)

/** The account row locked for a promo code's effect, made with the default trial if missing. */
export const accountForPromo = async (db: Executor, userId: string, now: Date) => {
  await ensureBillingAccount(db, userId, now);
  return (await lockAccount(db, userId))!;
};

export const grantPlanAccess = (db: Executor, userId: string, plan: PlanId, until: Date | null, now: Date) =>
  updateAccount(db, userId, { granted_plan: plan, granted_until: until }, now);

export const setTrialEnd = (db: Executor, userId: string, trialEndsAt: Date, now: Date) =>
  updateAccount(db, userId, { trial_ends_at: trialEndsAt }, now);

export const storeDiscount = (db: Executor, userId: string, code: string, percentOff: number, now: Date) =>
  updateAccount(db, userId, { discount_code: code, percent_off: percentOff }, now);

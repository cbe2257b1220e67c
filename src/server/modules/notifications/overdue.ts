import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { ScheduledJob } from '../jobs/queue.ts';
import { emitInvoiceEvent } from '../webhooks/emit.ts';
import { notifyInvoiceOverdue } from './events.ts';

// The overdue runner: invoices that became overdue (sent or partly paid, the due date passed in
// the company's time zone) notify the company's members once per invoice and due date (the
// dedupe key). It looks back OVERDUE_LOOKBACK_DAYS, so an invoice overdue for longer when this
// first runs (or after a long outage) is not announced late; the server runs it every hour, and
// tests call runOverdueInvoiceCheck directly.

export const OVERDUE_LOOKBACK_DAYS = 7;
const BATCH = 500;

export const runOverdueInvoiceCheck = async (ctx: AppContext, now: Date = ctx.now()) => {
  const db = ctx.database.db;
  const rows = await sql<{
    organization_id: string;
    id: string;
    number: string | null;
    due_date: string;
    amount_due: number;
    currency: string;
    customer_name: string;
  }>`
    select i.organization_id, i.id, i.number, i.due_date::text as due_date, i.amount_due, i.currency,
           c.name as customer_name
      from invoices i
      join organizations o on o.id = i.organization_id
      join customers c on c.organization_id = i.organization_id and c.id = i.customer_id
     where i.status in ('sent', 'partially_paid')
       and i.amount_due > 0
       and i.due_date < (${now}::timestamptz at time zone o.time_zone)::date
       and i.due_date >= (${now}::timestamptz at time zone o.time_zone)::date - ${OVERDUE_LOOKBACK_DAYS}::int
       and not exists (
         select 1 from notifications n
          where n.organization_id = i.organization_id
            and n.dedupe_key = 'invoice-overdue:' || i.id || ':' || i.due_date::text)
     order by i.due_date, i.organization_id, i.id
     limit ${BATCH}`.execute(db);
  let notified = 0;
  for (const r of rows.rows) {
    // The notification and the `invoice.overdue` webhook event commit together, once per
    // invoice and due date (the notification's dedupe key is what the query above skips).
    const told = await inTransaction(db, async (trx) => {
      const told = await notifyInvoiceOverdue(ctx, trx, {
        organizationId: r.organization_id,
        id: r.id,
        number: r.number,
        customerName: r.customer_name,
        dueDate: r.due_date,
        amountDue: Number(r.amount_due),
        currency: r.currency,
      });
      if (told.length > 0)
        await emitInvoiceEvent(trx, { organizationId: r.organization_id, now }, 'invoice.overdue', r.id);
      return told;
    });
    if (told.length > 0) notified += 1;
  }
  return { checked: rows.rows.length, notified };
};

/** The overdue check's job: every hour on the job queue (docs/jobs.md; main.ts registers it). */
export const overdueInvoicesJob: ScheduledJob<AppContext> = {
  name: 'overdue-invoices',
  everySeconds: 3600,
  run: async (ctx, log) => {
    const { notified } = await runOverdueInvoiceCheck(ctx);
    if (notified > 0) log.info(`overdue invoices: ${notified} notified`);
  },
};

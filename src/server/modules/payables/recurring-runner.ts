import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import { AppError } from '../../../shared/errors.ts';
import { occurrenceDate } from '../../../shared/invoice-calc.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { ScheduledJob } from '../jobs/queue.ts';
import { assertCompanyWritable } from '../billing/limits.ts';
import { companyToday, loadCompany } from '../invoices/common.ts';
import { submitBillDocument } from './approval.ts';
import { createBillDocument } from './bills.ts';
import { type Actor, addBillEvent } from './documents.ts';
import { type Executor, updatePayablesRow } from './queries.ts';
import { dueDateOf, occurrenceReference, scheduleLines } from './recurring.ts';

// The recurring bills' job runner (recurring.ts has the schedules): once at start and every
// minute, from the server process (main.ts, beside the recurring invoices' runner). Each due
// occurrence is created in its own transaction with its schedule row locked; the
// bill_schedule_runs key (company, schedule, occurrence date) is the backstop: a twin that
// slipped past the lock fails on it and rolls back. A schedule that fails (its supplier
// archived, a locked period) is logged and tried again on the next tick; the others go on.

type Step = { billId: string | null } | null;

/**
 * Submits a scheduled bill. When the submission is refused (a date in a locked period, say)
 * the bill stays a draft with the reason in its history, rather than the schedule failing
 * every minute: the draft is created, and someone submits it by hand once the reason is fixed.
 */
const autoSubmit = async (trx: Executor, actor: Actor, billId: string) => {
  await sql`savepoint recurring_bill_submit`.execute(trx);
  try {
    await submitBillDocument(trx, actor, billId, { canApprove: false });
    await sql`release savepoint recurring_bill_submit`.execute(trx);
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    await sql`rollback to savepoint recurring_bill_submit`.execute(trx);
    await addBillEvent(
      trx,
      actor,
      billId,
      'submit_failed',
      `Not submitted automatically: ${error.message} Submit it by hand once that is fixed.`,
    );
  }
};

/** Creates the next due occurrence of one schedule; null when none is due. */
const runNextOccurrence = (db: Executor, organizationId: string, scheduleId: string, now: Date) =>
  inTransaction(db, async (trx): Promise<Step> => {
    const schedule = await trx
      .selectFrom('bill_schedules')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', scheduleId)
      .forUpdate()
      .executeTakeFirst();
    if (schedule?.status !== 'active' || !schedule.next_date) return null;
    const company = await loadCompany(trx, organizationId);
    const today = companyToday(now, company.time_zone);
    const occurrence = schedule.next_date;
    if (occurrence > today) return null;
    // A read-only payer's schedules wait (402, reported as failed); they catch up once it pays.
    await assertCompanyWritable(trx, organizationId, now);
    const nextIndex = schedule.next_index + 1;
    const nextDate = occurrenceDate(schedule.start_date, schedule.frequency, nextIndex);
    const outOfRange = schedule.end_date !== null && occurrence > schedule.end_date;
    const already = await trx
      .selectFrom('bill_schedule_runs')
      .select('bill_id')
      .where('organization_id', '=', organizationId)
      .where('schedule_id', '=', scheduleId)
      .where('occurrence_date', '=', occurrence)
      .executeTakeFirst();
    let billId: string | null = null;
    if (!already && !outOfRange) {
      const actor = { organizationId, userId: schedule.created_by, now };
      const currency = schedule.currency.trim();
      billId = await createBillDocument(
        trx,
        actor,
        {
          supplierId: schedule.supplier_id,
          reference: occurrenceReference(schedule.reference, schedule.frequency, occurrence),
          issueDate: occurrence,
          dueDate: dueDateOf(occurrence, schedule.payment_terms_days),
          currency,
          exchangeRate: currency === company.base_currency ? undefined : schedule.exchange_rate,
          notes: schedule.notes,
          lines: scheduleLines(schedule).map((l) => ({
            ...l,
            description: l.description ?? '',
            discountPercent: l.discountPercent ?? '0',
          })),
        },
        { scheduleId },
      );
      // The key that makes a duplicate impossible; a racing twin fails here and rolls back.
      await trx
        .insertInto('bill_schedule_runs')
        .values({
          organization_id: organizationId,
          schedule_id: scheduleId,
          occurrence_date: occurrence,
          bill_id: billId,
        })
        .execute();
      // Submitted as a member who cannot approve: above the threshold it waits for approval.
      if (schedule.auto_submit) await autoSubmit(trx, actor, billId);
    }
    const created = await trx
      .selectFrom('bill_schedule_runs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', organizationId)
      .where('schedule_id', '=', scheduleId)
      .executeTakeFirstOrThrow();
    const ended =
      outOfRange ||
      (schedule.max_count !== null && Number(created.n) >= schedule.max_count) ||
      (schedule.end_date !== null && nextDate > schedule.end_date);
    await updatePayablesRow(trx, 'bill_schedules', organizationId, scheduleId, {
      next_index: nextIndex,
      next_date: ended ? null : nextDate,
      status: ended ? 'ended' : 'active',
      updated_at: now,
    });
    return { billId };
  });

export type RecurringBillRunResult = { created: string[]; failed: { scheduleId: string; error: string }[] };

/**
 * Creates every recurring bill due on `now` and not yet created, oldest occurrence first, for
 * all companies. Safe to call any number of times, from any number of processes.
 */
export const runDueRecurringBills = async (
  ctx: AppContext,
  now: Date,
  log?: Pick<FastifyBaseLogger, 'warn' | 'error'>,
): Promise<RecurringBillRunResult> => {
  const db = ctx.database.db;
  // A day ahead of UTC covers every time zone; each schedule checks its company's own today.
  const horizon = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
  const due = await db
    .selectFrom('bill_schedules')
    .select(['organization_id', 'id'])
    .where('status', '=', 'active')
    .where('next_date', '<=', horizon)
    .orderBy('next_date')
    .limit(1000)
    .execute();
  const result: RecurringBillRunResult = { created: [], failed: [] };
  for (const s of due) {
    for (let guard = 0; guard < 1000; guard += 1) {
      let step: Step;
      try {
        step = await runNextOccurrence(db, s.organization_id, s.id, now);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        result.failed.push({ scheduleId: s.id, error: message });
        log?.warn(
          { scheduleId: s.id, organizationId: s.organization_id, err: error },
          'recurring bill failed',
        );
        break;
      }
      if (!step) break;
      if (step.billId) result.created.push(step.billId);
    }
  }
  return result;
};

/** The recurring bills' job: every minute on the job queue (docs/jobs.md; main.ts registers it). */
export const recurringBillsJob: ScheduledJob<AppContext> = {
  name: 'recurring-bills',
  everySeconds: 60,
  run: async (ctx, log) => {
    const result = await runDueRecurringBills(ctx, ctx.now(), log);
    if (result.created.length > 0) log.info(`recurring bills: ${result.created.length} created`);
  },
};

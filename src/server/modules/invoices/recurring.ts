import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { badRequest, notFound } from '../../../shared/errors.ts';
import {
  type InvoiceLineInput,
  type Recurring,
  type RecurringStatusInput,
  addDaysIso,
  invoiceLineInputSchema,
  occurrenceDate,
  type recurringInputSchema,
} from '../../../shared/invoices.ts';
import type { AppContext } from '../../context.ts';
import { recordMemberAudit } from '../audit/record.ts';
import { assertCompanyWritable } from '../billing/limits.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { ScheduledJob } from '../jobs/queue.ts';
import {
  checkCurrency,
  companyToday,
  inMemberTransaction,
  loadCompany,
  prepareLines,
  requireCustomer,
} from './common.ts';
import { emailInvoice } from './email.ts';
import { postInvoice } from './invoice-posting.ts';
import { createDraft } from './invoices.ts';
import {
  type Executor,
  insertCompanyRow,
  selectDueSchedules,
  selectSchedules,
  updateCompanyRow,
} from './queries.ts';
import type { MemberContext } from '../../http/tenancy.ts';

// Recurring invoices: a schedule (weekly, monthly, quarterly, yearly; until an end date or
// a count) that creates an invoice per period and optionally sends and emails it. The job
// runner in the server process calls runDueRecurringInvoices every minute; after downtime it
// catches up period by period. The recurring_runs primary key (company, schedule, period)
// makes a second invoice for the same period impossible, even with two servers running.

type ScheduleRow = Awaited<ReturnType<typeof selectSchedules>>[number];

const toRecurring = (row: ScheduleRow, total: number): Recurring => ({
  id: row.id,
  customerId: row.customer_id,
  customerName: row.customer_name,
  frequency: row.frequency,
  startDate: row.start_date,
  endDate: row.end_date,
  count: row.max_count,
  autoSend: row.auto_send,
  status: row.status,
  nextDate: row.next_date,
  createdCount: Number(row.created_count ?? 0),
  currency: row.currency.trim(),
  total,
});

const scheduleLines = (row: { lines: unknown }) => invoiceLineInputSchema.array().parse(row.lines);

const selectScheduleList = async (db: Executor, organizationId: string) => {
  const rows = await selectSchedules(db, organizationId);
  const result: Recurring[] = [];
  for (const row of rows) {
    let total = 0;
    try {
      total = (await prepareLines(db, organizationId, scheduleLines(row), { allowArchived: true })).totals
        .total;
    } catch {
      total = 0;
    }
    result.push(toRecurring(row, total));
  }
  return result;
};

export const listSchedules = async (ctx: AppContext, member: MemberContext) => ({
  schedules: await selectScheduleList(ctx.database.db, member.organizationId),
});

/** One schedule as listed (its total from its lines). */
const scheduleById = async (db: Executor, organizationId: string, id: string) =>
  (await selectScheduleList(db, organizationId)).find((s) => s.id === id)!;

export const createSchedule = inMemberTransaction(
  async (trx, member, input: z.output<typeof recurringInputSchema>) => {
    const { organizationId } = member;
    const company = await loadCompany(trx, organizationId);
    const customer = await requireCustomer(trx, organizationId, input.customerId);
    const currency = input.currency ?? customer.currency.trim();
    checkCurrency(currency);
    if (currency !== company.base_currency && !input.exchangeRate) {
      throw badRequest(
        'exchange_rate_required',
        `Enter the exchange rate from ${currency} to ${company.base_currency}.`,
      );
    }
    await prepareLines(trx, organizationId, input.lines); // refuses bad lines now, not at 3 a.m.
    const id = await insertCompanyRow(trx, 'recurring_schedules', organizationId, {
      customer_id: customer.id,
      frequency: input.frequency,
      start_date: input.startDate,
      end_date: input.endDate ?? null,
      max_count: input.count ?? null,
      auto_send: input.autoSend,
      next_index: 0,
      next_date: input.startDate,
      currency,
      exchange_rate: currency === company.base_currency ? '1' : input.exchangeRate!,
      payment_terms_days: input.paymentTermsDays ?? customer.payment_terms_days,
      reference: input.reference,
      notes: input.notes,
      terms: input.terms,
      lines: JSON.stringify(input.lines satisfies InvoiceLineInput[]),
      created_by: member.userId,
    });
    await recordMemberAudit(trx, member, 'recurring_invoice.created', ['recurring_schedule', id], {
      after: { ...input },
    });
    return scheduleById(trx, organizationId, id);
  },
);

export const setScheduleStatus = inMemberTransaction(
  async (trx, member, { scheduleId: id, status }: RecurringStatusInput & { scheduleId: string }) => {
    const { organizationId } = member;
    const row = await trx
      .selectFrom('recurring_schedules')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound('Recurring schedule not found.');
    if (row.status === 'ended')
      throw badRequest('schedule_ended', 'This schedule has ended. Create a new one.');
    await updateCompanyRow(trx, 'recurring_schedules', organizationId, id, {
      status,
      ...(status === 'ended' ? { next_date: null } : {}),
      updated_at: new Date(),
    });
    await recordMemberAudit(trx, member, `recurring_invoice.${status}`, ['recurring_schedule', id], {
      before: { status: row.status },
      after: { status },
    });
    return scheduleById(trx, organizationId, id);
  },
);

type Created = { organizationId: string; invoiceId: string; email: boolean; createdBy: string | null };

/** Creates the next due occurrence of one schedule, or returns null when none is due. */
const runNextOccurrence = (db: Executor, organizationId: string, scheduleId: string, now: Date) =>
  inTransaction(db, async (trx): Promise<Created | null> => {
    const schedule = await trx
      .selectFrom('recurring_schedules')
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
    const ended =
      (schedule.max_count !== null && nextIndex >= schedule.max_count) ||
      (schedule.end_date !== null && nextDate > schedule.end_date);
    const outOfRange = schedule.end_date !== null && occurrence > schedule.end_date;
    let created: Created | null = null;
    const already = await trx
      .selectFrom('recurring_runs')
      .select('invoice_id')
      .where('organization_id', '=', organizationId)
      .where('schedule_id', '=', scheduleId)
      .where('occurrence_date', '=', occurrence)
      .executeTakeFirst();
    if (!already && !outOfRange) {
      const actor = { organizationId, userId: schedule.created_by, now };
      const invoice = await createDraft(
        trx,
        actor,
        {
          customerId: schedule.customer_id,
          issueDate: occurrence,
          dueDate: addDaysIso(occurrence, schedule.payment_terms_days),
          currency: schedule.currency.trim(),
          exchangeRate: schedule.exchange_rate === '1' ? undefined : schedule.exchange_rate,
          reference: schedule.reference,
          notes: schedule.notes,
          terms: schedule.terms,
          lines: scheduleLines(schedule).map((l) => ({
            ...l,
            discountPercent: l.discountPercent ?? '0',
            taxRateIds: l.taxRateIds ?? [],
            description: l.description ?? '',
          })),
        },
        { recurringScheduleId: scheduleId },
      );
      // The key that makes a duplicate impossible; a racing twin fails here and rolls back.
      await trx
        .insertInto('recurring_runs')
        .values({
          organization_id: organizationId,
          schedule_id: scheduleId,
          occurrence_date: occurrence,
          invoice_id: invoice.id,
        })
        .execute();
      if (schedule.auto_send) await postInvoice(trx, actor, invoice.id);
      created = {
        organizationId,
        invoiceId: invoice.id,
        email: schedule.auto_send,
        createdBy: schedule.created_by,
      };
    }
    await updateCompanyRow(trx, 'recurring_schedules', organizationId, scheduleId, {
      next_index: nextIndex,
      next_date: ended || outOfRange ? null : nextDate,
      status: ended || outOfRange ? 'ended' : 'active',
      updated_at: now,
    });
    return created ?? { organizationId, invoiceId: '', email: false, createdBy: null };
  });

export type RecurringRunResult = { created: string[]; failed: { scheduleId: string; error: string }[] };

/**
 * Creates every invoice that is due on `now` and not yet created, oldest period first, for
 * all companies. Safe to call any number of times, from any number of processes.
 */
export const runDueRecurringInvoices = async (
  ctx: AppContext,
  now: Date,
  log?: Pick<FastifyBaseLogger, 'warn' | 'error'>,
): Promise<RecurringRunResult> => {
  const db = ctx.database.db;
  // A day ahead of UTC covers every time zone; each schedule checks its company's own today.
  const horizon = addDaysIso(now.toISOString().slice(0, 10), 1);
  const due = await selectDueSchedules(db, horizon);
  const result: RecurringRunResult = { created: [], failed: [] };
  for (const s of due) {
    for (let guard = 0; guard < 1000; guard += 1) {
      let created: Created | null;
      try {
        created = await runNextOccurrence(db, s.organization_id, s.id, now);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        result.failed.push({ scheduleId: s.id, error: message });
        log?.warn(
          { scheduleId: s.id, organizationId: s.organization_id, err: error },
          'recurring invoice failed',
        );
        break;
      }
      if (!created) break;
      if (!created.invoiceId) continue;
      result.created.push(created.invoiceId);
      if (created.email) {
        const [row] = await db
          .selectFrom('invoices')
          .innerJoin('customers', (j) =>
            j
              .onRef('customers.organization_id', '=', 'invoices.organization_id')
              .onRef('customers.id', '=', 'invoices.customer_id'),
          )
          .select('customers.email')
          .where('invoices.organization_id', '=', created.organizationId)
          .where('invoices.id', '=', created.invoiceId)
          .execute();
        if (row?.email) {
          try {
            await emailInvoice(
              ctx,
              { organizationId: created.organizationId, userId: created.createdBy, now },
              created.invoiceId,
              {},
            );
          } catch (error) {
            log?.error({ invoiceId: created.invoiceId, err: error }, 'emailing a recurring invoice failed');
          }
        }
      }
    }
  }
  return result;
};

/** The recurring invoices' job: every minute on the job queue (docs/jobs.md; main.ts registers it). */
export const recurringInvoicesJob: ScheduledJob<AppContext> = {
  name: 'recurring-invoices',
  everySeconds: 60,
  run: async (ctx, log) => {
    const result = await runDueRecurringInvoices(ctx, ctx.now(), log);
    if (result.created.length > 0) log.info(`recurring invoices: ${result.created.length} created`);
  },
};

import { sql } from 'kysely';
import type { z } from 'zod';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import { type RecurringFrequency, addDaysIso, occurrenceDate } from '../../../shared/invoice-calc.ts';
import {
  type BillLineInput,
  type BillSchedule,
  billLineInputSchema,
  type billScheduleInputSchema,
} from '../../../shared/payables.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { recordMemberAudit } from '../audit/record.ts';
import { checkCurrency, companyToday, inMemberTransaction, loadCompany } from '../invoices/common.ts';
import { resolveBillLines } from './bill-lines.ts';
import { requireSupplier } from './bills.ts';
import { type Executor, insertPayablesRow, updatePayablesRow } from './queries.ts';

// Recurring bills (issue 15 §5: rent, subscriptions), as recurring invoices (invoices/recurring.ts):
// a schedule (weekly, monthly, quarterly, yearly; until an end date or a number of bills)
// creates a bill per occurrence, dated that occurrence and due after the schedule's terms, and
// submits it when the schedule says so (open, or awaiting approval above the threshold). The
// job runner (recurring-runner.ts) creates every occurrence due up to the company's today;
// after downtime it catches up occurrence by occurrence. Each occurrence runs in its own
// transaction with the schedule row locked, and the bill_schedule_runs primary key (company,
// schedule, occurrence date) makes a second bill for one occurrence impossible, even with two
// servers running. A paused schedule skips the occurrences it was paused over when resumed.

type ScheduleInput = z.output<typeof billScheduleInputSchema>;

const selectScheduleRows = (db: Executor, organizationId: string) =>
  db
    .selectFrom('bill_schedules as s')
    .innerJoin('suppliers as p', (j) =>
      j.onRef('p.organization_id', '=', 's.organization_id').onRef('p.id', '=', 's.supplier_id'),
    )
    .selectAll('s')
    .select(['p.name as supplier_name', 'p.default_account_id', 'p.default_tax_rate_id'])
    .select((eb) =>
      eb
        .selectFrom('bill_schedule_runs as r')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('r.organization_id', '=', 's.organization_id')
        .whereRef('r.schedule_id', '=', 's.id')
        .as('created_count'),
    )
    .where('s.organization_id', '=', organizationId)
    .orderBy('s.created_at')
    .orderBy('s.id');

type ScheduleRow = Awaited<ReturnType<ReturnType<typeof selectScheduleRows>['execute']>>[number];

/** The schedule's stored lines, as a bill's line input. */
export const scheduleLines = (row: { lines: unknown }): BillLineInput[] =>
  billLineInputSchema.array().parse(typeof row.lines === 'string' ? JSON.parse(row.lines) : row.lines);

const toSchedule = async (db: Executor, row: ScheduleRow): Promise<BillSchedule> => {
  let total = 0;
  try {
    total = (
      await resolveBillLines(
        db,
        row.organization_id,
        scheduleLines(row),
        { accountId: row.default_account_id, taxRateId: row.default_tax_rate_id },
        { allowArchived: true },
      )
    ).totals.total;
  } catch {
    total = 0; // a line whose account was archived since: the list still shows the schedule
  }
  return {
    id: row.id,
    supplierId: row.supplier_id,
    supplierName: row.supplier_name,
    frequency: row.frequency,
    startDate: row.start_date,
    endDate: row.end_date,
    count: row.max_count,
    autoSubmit: row.auto_submit,
    status: row.status,
    nextDate: row.next_date,
    createdCount: Number(row.created_count ?? 0),
    currency: row.currency.trim(),
    total,
    reference: row.reference,
  };
};

const scheduleById = async (db: Executor, organizationId: string, id: string) => {
  const row = await selectScheduleRows(db, organizationId).where('s.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Recurring bill schedule not found.');
  return toSchedule(db, row);
};

export const listBillSchedules = async (ctx: AppContext, member: MemberContext) => {
  const db = ctx.database.db;
  const rows = await selectScheduleRows(db, member.organizationId).execute();
  const schedules: BillSchedule[] = [];
  for (const row of rows) schedules.push(await toSchedule(db, row));
  return { schedules };
};

export const createBillSchedule = inMemberTransaction(async (trx, member, input: ScheduleInput) => {
  const { organizationId } = member;
  const company = await loadCompany(trx, organizationId);
  const supplier = await requireSupplier(trx, organizationId, input.supplierId);
  const currency = input.currency ?? supplier.currency;
  checkCurrency(currency);
  if (currency !== company.base_currency && !input.exchangeRate) {
    throw badRequest(
      'exchange_rate_required',
      `Enter the exchange rate from ${currency} to ${company.base_currency} the scheduled bills use.`,
    );
  }
  // Refuses bad lines now, not when the runner creates the first bill.
  await resolveBillLines(trx, organizationId, input.lines, {
    accountId: supplier.default_account_id,
    taxRateId: supplier.default_tax_rate_id,
  });
  const id = await insertPayablesRow(trx, 'bill_schedules', organizationId, {
    supplier_id: supplier.id,
    frequency: input.frequency,
    start_date: input.startDate,
    end_date: input.endDate ?? null,
    max_count: input.count ?? null,
    auto_submit: input.autoSubmit,
    status: 'active',
    next_index: 0,
    next_date: input.startDate,
    currency,
    exchange_rate: currency === company.base_currency ? '1' : input.exchangeRate!,
    payment_terms_days: input.paymentTermsDays ?? supplier.payment_terms_days,
    reference: input.reference,
    notes: input.notes,
    lines: JSON.stringify(input.lines),
    created_by: member.userId,
  });
  await recordMemberAudit(trx, member, 'recurring_bill.created', ['bill_schedule', id], {
    after: { ...input },
  });
  return scheduleById(trx, organizationId, id);
});

/** The first occurrence index from `index` on dated on or after `from`. */
const firstIndexFrom = (start: string, frequency: RecurringFrequency, index: number, from: string) => {
  let i = index;
  while (occurrenceDate(start, frequency, i) < from && i < index + 100_000) i += 1;
  return i;
};

export const setBillScheduleStatus = (
  ctx: AppContext,
  member: MemberContext,
  { scheduleId, status }: { scheduleId: string; status: 'active' | 'paused' | 'ended' },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId } = member;
    const now = ctx.now();
    const row = await trx
      .selectFrom('bill_schedules')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', scheduleId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound('Recurring bill schedule not found.');
    if (row.status === 'ended')
      throw badRequest('schedule_ended', 'This schedule has ended. Create a new one to schedule more bills.');
    let change: { next_index?: number; next_date?: string | null; status: typeof status } = { status };
    if (status === 'ended') change = { status, next_date: null };
    if (status === 'active' && row.status === 'paused' && row.next_date) {
      // Resuming skips what fell due while paused: the next bill is the first occurrence from today.
      const company = await loadCompany(trx, organizationId);
      const today = companyToday(now, company.time_zone);
      const index = firstIndexFrom(row.start_date, row.frequency, row.next_index, today);
      const nextDate = occurrenceDate(row.start_date, row.frequency, index);
      const over = row.end_date !== null && nextDate > row.end_date;
      change = over
        ? { status: 'ended', next_index: index, next_date: null }
        : { status, next_index: index, next_date: nextDate };
    }
    await updatePayablesRow(trx, 'bill_schedules', organizationId, scheduleId, {
      ...change,
      updated_at: now,
    });
    await recordMemberAudit(trx, member, `recurring_bill.${change.status}`, ['bill_schedule', scheduleId], {
      before: { status: row.status, nextDate: row.next_date },
      after: { status: change.status, nextDate: change.next_date ?? row.next_date },
    });
    return scheduleById(trx, organizationId, scheduleId);
  });

/** Deletes a schedule that has created no bill yet (a mistake); one that has is ended instead. */
export const deleteBillSchedule = inMemberTransaction(
  async (trx, member, { scheduleId }: { scheduleId: string }) => {
    const { organizationId } = member;
    const row = await trx
      .selectFrom('bill_schedules')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', scheduleId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound('Recurring bill schedule not found.');
    const bill = await trx
      .selectFrom('bills')
      .select('number')
      .where('organization_id', '=', organizationId)
      .where('schedule_id', '=', scheduleId)
      .executeTakeFirst();
    if (bill) {
      throw conflict(
        'schedule_has_bills',
        `This schedule has created bills (${bill.number} and perhaps others), so it stays for their history. End it instead.`,
      );
    }
    await trx
      .deleteFrom('bill_schedule_runs')
      .where('organization_id', '=', organizationId)
      .where('schedule_id', '=', scheduleId)
      .execute();
    await trx
      .deleteFrom('bill_schedules')
      .where('organization_id', '=', organizationId)
      .where('id', '=', scheduleId)
      .execute();
    await recordMemberAudit(trx, member, 'recurring_bill.deleted', ['bill_schedule', scheduleId], {
      before: { supplierId: row.supplier_id, frequency: row.frequency, startDate: row.start_date },
    });
  },
);

/** The period an occurrence stands for, added to the schedule's reference ("RENT-2026-11"). */
export const occurrencePeriod = (frequency: RecurringFrequency, date: string) => {
  switch (frequency) {
    case 'weekly':
      return date;
    case 'monthly':
      return date.slice(0, 7);
    case 'quarterly':
      return `${date.slice(0, 4)}-Q${Math.floor((Number(date.slice(5, 7)) - 1) / 3) + 1}`;
    case 'yearly':
      return date.slice(0, 4);
  }
};

/** The supplier reference of one occurrence's bill; empty when the schedule has none. */
export const occurrenceReference = (reference: string, frequency: RecurringFrequency, date: string) => {
  if (!reference) return '';
  const period = occurrencePeriod(frequency, date);
  return `${reference.slice(0, 100 - period.length - 1)}-${period}`;
};

export const dueDateOf = (occurrence: string, termsDays: number) => addDaysIso(occurrence, termsDays);

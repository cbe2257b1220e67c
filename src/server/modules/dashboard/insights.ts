import type { Insight } from '../../../shared/dashboard.ts';
import { addDays, addMonthsToMonthStart, daysBetween, monthEnd, monthStart } from '../../../shared/dates.ts';
import type { Executor } from '../../db/transaction.ts';
import { balancesOver, netById } from '../ledger/report-basics.ts';
import { selectLatePayerCandidates, selectUnusualExpenses } from './queries.ts';

// Insights (docs/dashboard.md, "Insights"): plain notes computed from the books with fixed
// rules, so the same data always gives the same notes. Each carries its numbers and a link;
// the page writes the sentence in the reader's formats.

/** A spend change worth a note: at least this share of the larger month and this many minor units. */
export const SPEND_CHANGE_MIN_SHARE = 0.2;
export const SPEND_CHANGE_MIN_AMOUNT = 100_00;
/** A customer is late when an open invoice is this many days later than their median. */
export const LATE_MARGIN_DAYS = 14;
export const LATE_MIN_PAID = 3;
/** An expense is unusual above this multiple of its account's median over the trailing window. */
export const UNUSUAL_FACTOR = 3;
export const UNUSUAL_MIN_SAMPLE = 5;
export const UNUSUAL_RECENT_DAYS = 30;
export const UNUSUAL_SAMPLE_DAYS = 180;

const round1 = (n: number) => Math.round(n * 10) / 10;

type Account = { id: string; name: string; type: string };

/** The largest changes of spending per expense account, last full month against the one before. */
export const spendChanges = async (
  db: Executor,
  organizationId: string,
  today: string,
  accounts: Account[],
): Promise<Insight[]> => {
  const month = addMonthsToMonthStart(monthStart(today), -1);
  const previousMonth = addMonthsToMonthStart(month, -1);
  const [current, previous] = await Promise.all([
    balancesOver(db, organizationId, month, monthEnd(month), false).then(netById),
    balancesOver(db, organizationId, previousMonth, monthEnd(previousMonth), false).then(netById),
  ]);
  const notes: (Insight & { kind: 'spend_change' })[] = [];
  for (const a of accounts) {
    if (a.type !== 'expense') continue;
    const amount = current.get(a.id) ?? 0;
    const previousAmount = previous.get(a.id) ?? 0;
    const change = amount - previousAmount;
    const larger = Math.max(Math.abs(amount), Math.abs(previousAmount));
    if (Math.abs(change) < SPEND_CHANGE_MIN_AMOUNT || Math.abs(change) < SPEND_CHANGE_MIN_SHARE * larger)
      continue;
    notes.push({
      kind: 'spend_change',
      accountId: a.id,
      accountName: a.name,
      month,
      previousMonth,
      amount,
      previousAmount,
      percent: previousAmount === 0 ? null : round1((change / Math.abs(previousAmount)) * 100),
      link: `/accounting?tab=general-ledger&account=${encodeURIComponent(a.id)}`,
    });
  }
  return notes
    .sort(
      (x, y) =>
        Math.abs(y.amount - y.previousAmount) - Math.abs(x.amount - x.previousAmount) ||
        x.accountName.localeCompare(y.accountName),
    )
    .slice(0, 3);
};

/** Overdue invoices of customers who usually pay sooner: their latest-due open invoice each, top 3. */
export const latePayers = async (db: Executor, organizationId: string, today: string): Promise<Insight[]> => {
  const rows = await selectLatePayerCandidates(
    db,
    organizationId,
    today,
    addMonthsToMonthStart(monthStart(today), -24),
    LATE_MIN_PAID,
  );
  const byCustomer = new Map<string, Insight & { kind: 'late_payer' }>();
  for (const r of rows) {
    const daysLate = daysBetween(r.due_date, today);
    const usualDaysLate = Math.round(r.usual);
    if (daysLate <= Math.max(usualDaysLate, 0) + LATE_MARGIN_DAYS) continue;
    const note = {
      kind: 'late_payer' as const,
      customerId: r.customer_id,
      customerName: r.customer_name,
      invoiceId: r.invoice_id,
      invoiceNumber: r.invoice_number,
      balance: r.balance,
      daysLate,
      usualDaysLate,
      paidInvoices: r.paid_count,
      link: `/invoices?invoice=${encodeURIComponent(r.invoice_id)}`,
    };
    const seen = byCustomer.get(r.customer_id);
    if (
      !seen ||
      note.daysLate > seen.daysLate ||
      (note.daysLate === seen.daysLate && note.invoiceId < seen.invoiceId)
    )
      byCustomer.set(r.customer_id, note);
  }
  return [...byCustomer.values()]
    .sort(
      (a, b) =>
        b.daysLate - b.usualDaysLate - (a.daysLate - a.usualDaysLate) ||
        a.customerName.localeCompare(b.customerName),
    )
    .slice(0, 3);
};

/** Recent expense lines far above their account's usual size. */
export const unusualTransactions = async (
  db: Executor,
  organizationId: string,
  today: string,
  names: Map<string, string>,
): Promise<Insight[]> => {
  const rows = await selectUnusualExpenses(
    db,
    organizationId,
    today,
    addDays(today, 1 - UNUSUAL_RECENT_DAYS),
    addDays(today, 1 - UNUSUAL_SAMPLE_DAYS),
    UNUSUAL_FACTOR,
    UNUSUAL_MIN_SAMPLE,
  );
  return rows.slice(0, 3).map((r) => ({
    kind: 'unusual_transaction' as const,
    entryId: r.entry_id,
    entryNumber: r.entry_number,
    date: r.date,
    accountId: r.account_id,
    accountName: names.get(r.account_id) ?? '',
    memo: r.memo,
    amount: r.amount,
    median: r.median,
    sampleSize: r.sample,
    link: `/accounting?entry=${encodeURIComponent(r.entry_id)}`,
  }));
};

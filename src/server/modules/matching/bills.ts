import { randomUUID } from 'node:crypto';
import { badRequest } from '../../../shared/errors.ts';
import type { BillMatchSuggestion, Match } from '../../../shared/matching.ts';
import type { Executor } from '../../db/transaction.ts';
import { type BankLineRow, setLineMatchedToBill } from '../bank-transactions/match.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import {
  type Actor,
  addBillEvent,
  describeAmount,
  lockBill,
  recordActorAudit,
  refuseBillUnpayable,
  settleBill,
} from '../payables/documents.ts';
import { insertPayablesRow, updatePayablesRow } from '../payables/queries.ts';
import type { OpenInvoiceForMatching } from '../invoices/bank-payments.ts';
import { type LineForMatching, buildIndex, rankLine } from './rank.ts';

// Matching a money-out bank line to the bills it pays (issue 15 §4, decision 0026: the cash is
// posted once, by the line). The line's suspense entry (Dr suspense, Cr the money account) is
// reversed and a new one posted: Dr accounts payable per bill (with the supplier as contact),
// Cr the money account for the whole line. One bill payment per bill points at that entry
// (method bank_transfer, the line's text as reference), each bill is settled, and a
// bank_transaction_bill_matches row ties line, bill and payment together. Unmatching reverses
// that entry, marks the payments reversed by it, puts the bills' balances back and posts the
// line to suspense again. Base-currency bills and lines only, and the amounts add up to the
// line exactly (no excess: a supplier overpaid is a supplier credit, recorded on its own).

export type BillAllocation = { billId: string; amount: number };

type PreparedBill = {
  billId: string;
  number: string;
  supplierId: string;
  amount: number;
  status: string;
  total: number;
  amountPaid: number;
  amountCredited: number;
  balanceBase: number;
};

type Money = { id: string; ledger_account_id: string; currency: string; name: string };

/** The bill match rows of a line, oldest first. */
export const selectBillMatchRows = (db: Executor, organizationId: string, transactionId: string) =>
  db
    .selectFrom('bank_transaction_bill_matches')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('transaction_id', '=', transactionId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/**
 * Locks and checks the bills a money-out line would pay: refuses (4xx, nothing written) a
 * missing bill (404), one not owed (draft, awaiting approval, void, paid), another currency
 * than the line's and the base currency, an amount above what is due, a line dated before the
 * bill.
 */
const prepareBills = async (
  trx: Executor,
  organizationId: string,
  allocations: BillAllocation[],
  line: { date: string; currency: string; baseCurrency: string },
): Promise<PreparedBill[]> => {
  const ids = allocations.map((a) => a.billId);
  if (new Set(ids).size !== ids.length)
    throw badRequest('duplicate_bill', 'Each bill can appear only once in a match.');
  const prepared: PreparedBill[] = [];
  // Locked in id order so two matches over the same bills cannot deadlock.
  for (const a of [...allocations].sort((x, y) => (x.billId < y.billId ? -1 : 1))) {
    const row = await lockBill(trx, organizationId, a.billId);
    refuseBillUnpayable(row.status);
    if (row.currency !== line.currency || row.currency !== line.baseCurrency) {
      throw badRequest(
        'currency_mismatch',
        `Bill ${row.number} is in ${row.currency} and the bank line in ${line.currency}; only ${line.baseCurrency} lines and bills are matched. Record the payment on the bill instead.`,
        { billId: row.id },
      );
    }
    if (a.amount > row.amount_due) {
      throw badRequest(
        'overpayment',
        `${describeAmount(a.amount, row.currency)} is more than the ${describeAmount(row.amount_due, row.currency)} still due on bill ${row.number}. Pay at most the amount due.`,
        { billId: row.id, amountDue: row.amount_due },
      );
    }
    if (line.date < row.issue_date) {
      throw badRequest(
        'payment_before_bill',
        `The bank line (${line.date}) is dated before bill ${row.number} (${row.issue_date}).`,
        { billId: row.id },
      );
    }
    prepared.push({
      billId: row.id,
      number: row.number,
      supplierId: row.supplier_id,
      amount: a.amount,
      status: row.status,
      total: row.total,
      amountPaid: row.amount_paid,
      amountCredited: row.amount_credited,
      balanceBase: row.balance_base,
    });
  }
  return ids.map((id) => prepared.find((p) => p.billId === id)!);
};

/** Matches an uncategorised money-out line (already locked and checked) to bills. */
export const matchToBills = async (
  trx: Executor,
  actor: Actor,
  line: BankLineRow,
  money: Money,
  baseCurrency: string,
  allocations: BillAllocation[],
) => {
  const { organizationId, userId } = actor;
  if (line.amount >= 0)
    throw badRequest('not_money_out', 'Only money out (a negative amount) can be matched to bills.');
  const paid = -line.amount;
  const total = allocations.reduce((s, a) => s + a.amount, 0);
  if (total !== paid) {
    throw badRequest(
      'allocation_mismatch',
      `The amounts paid add up to ${total} (minor units) and the line is ${paid}; a line is matched to bills in full. Pay less on a bill, or categorise the line instead.`,
      { total, amount: paid },
    );
  }
  const prepared = await prepareBills(trx, organizationId, allocations, {
    date: line.date,
    currency: money.currency,
    baseCurrency,
  });
  const payable = await findSystemAccount(trx, organizationId, 'accounts_payable');
  const numbers = prepared.map((p) => p.number).join(', ');
  const plural = prepared.length > 1 ? 's' : '';
  const memo = `Payment of bill${plural} ${numbers}`;
  await reverseJournalEntry(trx, {
    organizationId,
    entryId: line.entry_id,
    actorUserId: userId,
    memo: `Bank line matched to bill${plural} ${numbers}: ${line.description}`.slice(0, 500),
  });
  const entry = await postJournalEntry(trx, {
    organizationId,
    date: line.date,
    memo,
    reference: prepared.length === 1 ? prepared[0]!.number : null,
    source: 'bank',
    sourceId: line.id,
    lines: [
      ...prepared.map((p) => ({
        accountId: payable.id,
        debit: p.amount,
        description: `Payment of bill ${p.number}`,
        contactId: p.supplierId,
      })),
      {
        accountId: money.ledger_account_id,
        credit: paid,
        description: `${memo} (${line.description})`.slice(0, 500),
      },
    ],
    actorUserId: userId,
  });
  const paymentIds: string[] = [];
  for (const p of prepared) {
    const paymentId = await insertPayablesRow(trx, 'bill_payments', organizationId, {
      bill_id: p.billId,
      batch_id: null,
      date: line.date,
      amount: p.amount,
      currency: money.currency,
      exchange_rate: '1',
      amount_base: p.amount,
      paid_base: p.amount,
      payment_account_id: money.ledger_account_id,
      method: 'bank_transfer',
      reference: line.description.slice(0, 100),
      journal_entry_id: entry.id,
      created_by: userId,
      created_at: actor.now,
    });
    paymentIds.push(paymentId);
    const status = await settleBill(
      trx,
      actor,
      { id: p.billId, total: p.total, amount_paid: p.amountPaid, amount_credited: p.amountCredited },
      { paid: p.amountPaid + p.amount, balanceBase: p.balanceBase - p.amount },
    );
    await addBillEvent(
      trx,
      actor,
      p.billId,
      'payment',
      `Payment of ${describeAmount(p.amount, money.currency)} matched from a bank line in ${money.name}; ${status === 'paid' ? 'paid in full' : 'partially paid'}`,
    );
    await recordActorAudit(trx, actor, 'bill.payment_recorded', ['bill_payment', paymentId], {
      before: { billStatus: p.status, amountPaid: p.amountPaid },
      after: {
        billId: p.billId,
        date: line.date,
        amount: p.amount,
        currency: money.currency,
        paymentAccountId: money.ledger_account_id,
        billStatus: status,
        journalEntryId: entry.id,
        bankTransactionId: line.id,
      },
    });
  }
  await trx
    .insertInto('bank_transaction_bill_matches')
    .values(
      prepared.map((p, i) => ({
        organization_id: organizationId,
        id: randomUUID(),
        transaction_id: line.id,
        bill_id: p.billId,
        payment_id: paymentIds[i]!,
        amount: p.amount,
        previous_entry_id: line.entry_id,
        created_by: userId,
      })),
    )
    .execute();
  await setLineMatchedToBill(trx, organizationId, line.id, { entryId: entry.id, paymentId: paymentIds[0]! });
};

/**
 * Undoes a bill match: the line's entry is reversed, each payment marked reversed by that
 * reversal, each bill owed again. The caller posts the line back to suspense.
 */
export const unmatchFromBills = async (
  trx: Executor,
  actor: Actor,
  line: BankLineRow,
  rows: Awaited<ReturnType<typeof selectBillMatchRows>>,
) => {
  const { organizationId, userId } = actor;
  const reversal = await reverseJournalEntry(trx, {
    organizationId,
    entryId: line.entry_id,
    actorUserId: userId,
    memo: `Bank line unmatched from its bills: ${line.description}`.slice(0, 500),
  });
  for (const r of [...rows].sort((x, y) => (x.bill_id < y.bill_id ? -1 : 1))) {
    const bill = await lockBill(trx, organizationId, r.bill_id);
    const payment = await trx
      .selectFrom('bill_payments')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', r.payment_id)
      .forUpdate()
      .executeTakeFirstOrThrow();
    await updatePayablesRow(trx, 'bill_payments', organizationId, payment.id, {
      reversal_entry_id: reversal.id,
      reversed_at: actor.now,
    });
    const status = await settleBill(trx, actor, bill, {
      paid: bill.amount_paid - payment.amount,
      balanceBase: bill.balance_base + payment.amount_base,
    });
    const currency = payment.currency.trim();
    await addBillEvent(
      trx,
      actor,
      bill.id,
      'payment_removed',
      `Payment of ${describeAmount(payment.amount, currency)} unmatched from its bank line; the line waits to be matched or categorised again`,
    );
    await recordActorAudit(trx, actor, 'bill.payment_reversed', ['bill_payment', payment.id], {
      before: { billStatus: bill.status, amountPaid: bill.amount_paid },
      after: {
        billId: bill.id,
        billStatus: status,
        reversalEntryId: reversal.id,
        bankTransactionId: line.id,
      },
    });
  }
  await trx
    .deleteFrom('bank_transaction_bill_matches')
    .where('organization_id', '=', organizationId)
    .where('transaction_id', '=', line.id)
    .execute();
};

/** A line's bill match as the API shows it, or null when it has none. */
export const loadBillMatch = async (
  db: Executor,
  organizationId: string,
  transactionId: string,
): Promise<Match | null> => {
  const rows = await db
    .selectFrom('bank_transaction_bill_matches as m')
    .innerJoin('bills as b', (j) =>
      j.onRef('b.organization_id', '=', 'm.organization_id').onRef('b.id', '=', 'm.bill_id'),
    )
    .innerJoin('suppliers as s', (j) =>
      j.onRef('s.organization_id', '=', 'b.organization_id').onRef('s.id', '=', 'b.supplier_id'),
    )
    .select(['m.bill_id', 'm.payment_id', 'm.amount', 'm.created_at', 'b.number', 's.name as supplier_name'])
    .where('m.organization_id', '=', organizationId)
    .where('m.transaction_id', '=', transactionId)
    .orderBy('b.number')
    .orderBy('m.id')
    .execute();
  if (rows.length === 0) return null;
  return {
    transactionId,
    kind: 'bill',
    amount: rows.reduce((s, r) => s + Number(r.amount), 0),
    allocations: [],
    creditAmount: 0,
    bills: rows.map((r) => ({
      billId: r.bill_id,
      billNumber: r.number,
      supplierName: r.supplier_name,
      paymentId: r.payment_id,
      amount: Number(r.amount),
    })),
    createdAt: new Date(rows[0]!.created_at).toISOString(),
  };
};

// --- Suggestions --------------------------------------------------------------------------------

/**
 * Open bills (open or partly paid) in one currency, shaped as rank.ts's open invoices (the
 * supplier in the customer's place), so one ranking serves both sides.
 */
export const selectOpenBillsForMatching = async (
  db: Executor,
  organizationId: string,
  currency: string,
): Promise<OpenInvoiceForMatching[]> =>
  (
    await db
      .selectFrom('bills as b')
      .innerJoin('suppliers as s', (j) =>
        j.onRef('s.organization_id', '=', 'b.organization_id').onRef('s.id', '=', 'b.supplier_id'),
      )
      .select([
        'b.id',
        'b.number',
        'b.reference',
        'b.supplier_id as customer_id',
        's.name as customer_name',
        'b.currency',
        'b.amount_due',
        'b.issue_date',
        'b.due_date',
      ])
      .where('b.organization_id', '=', organizationId)
      .where('b.status', 'in', ['open', 'partially_paid'])
      .where('b.currency', '=', currency)
      .execute()
  ).map((r) => ({ ...r, currency: r.currency.trim(), amount_due: Number(r.amount_due) }));

/**
 * The open bills a money-out line most likely pays, best first: the same amount due, the bill's
 * number or the supplier's reference in the text, the supplier named, the date near the due
 * date (rank.ts's rules, with the line's amount as a positive payment).
 */
export const suggestBillsForLine = async (
  db: Executor,
  organizationId: string,
  baseCurrency: string,
  line: LineForMatching & { currency: string },
  limit: number,
): Promise<BillMatchSuggestion[]> => {
  if (line.amount >= 0 || line.currency !== baseCurrency) return [];
  const bills = await selectOpenBillsForMatching(db, organizationId, baseCurrency);
  if (bills.length === 0) return [];
  const ranked = rankLine(buildIndex(bills, []), { ...line, amount: -line.amount }, limit);
  return ranked.map((s) => ({
    kind: 'bill',
    billId: s.invoiceId,
    billNumber: s.invoiceNumber,
    supplierName: s.customerName,
    currency: s.currency,
    amountDue: s.amountDue,
    amount: s.amount,
    issueDate: s.issueDate,
    dueDate: s.dueDate,
    score: s.score,
    reasons: s.reasons.map((r) => (r === 'customer_in_text' ? 'supplier_in_text' : r)),
  }));
};

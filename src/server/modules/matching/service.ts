import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import type { Match, matchInputSchema } from '../../../shared/matching.ts';
import type { AppContext } from '../../context.ts';
import { type Executor, inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { recordMemberAudit } from '../audit/record.ts';
import { assertNotReconciled } from '../bank-transactions/guard.ts';
import {
  type BankLineRow,
  type LineSnapshot,
  findPaymentRegisterLine,
  lockLineForMatching,
  removeMergedLine,
  restoreMergedLine,
  setLineMatched,
  setLineUnmatched,
  snapshotLine,
} from '../bank-transactions/match.ts';
import {
  excessCredit,
  insertBankPayments,
  prepareBankPayments,
  receivableCredits,
  reverseBankPayments,
  selectInvoiceLabels,
  selectPaymentForMatch,
} from '../invoices/bank-payments.ts';
import type { Actor } from '../invoices/invoices.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import { entryForTransaction, loadPostingContext } from '../transactions/posting-context.ts';
import { notifyPaymentsRecorded } from '../notifications/events.ts';
import { loadBillMatch, matchToBills, selectBillMatchRows, unmatchFromBills } from './bills.ts';
import {
  companyRowExists,
  deleteMatchRows,
  insertMatchRows,
  selectMatchRows,
  selectMatchesOfPayments,
} from './queries.ts';
import { emitPaymentsRecorded } from '../webhooks/emit.ts';

// Matching bank lines to open invoices and to payments recorded by hand (issue 13 §4,
// decisions 0026 and 0027). The cash is posted once, by the line: matching re-posts the line's
// suspense leg to accounts receivable (the line's entry is reversed and a new one posted
// through the ledger), and the invoice payments point at that entry. A payment recorded by
// hand already posted the cash; the line's own entry is reversed and the line takes the
// payment's entry, and the payment's own register line is merged into it. Unmatching undoes
// exactly that, until the line is reconciled or its date is in a locked or closed period (the
// ledger refuses to post there).

type MatchInput = z.output<typeof matchInputSchema>;

const actorOf = (member: MemberContext): Actor => ({
  organizationId: member.organizationId,
  userId: member.userId,
  now: new Date(),
});
// --- Reading a match ----------------------------------------------------------------------------

export const loadMatch = async (
  db: Executor,
  organizationId: string,
  transactionId: string,
): Promise<Match | null> => {
  const rows = await selectMatchRows(db, organizationId, transactionId);
  if (rows.length === 0) return loadBillMatch(db, organizationId, transactionId);
  const labels = new Map(
    (await selectInvoiceLabels(db, organizationId, [...new Set(rows.map((r) => r.invoice_id))])).map((l) => [
      l.id,
      l,
    ]),
  );
  const kept = await db
    .selectFrom('invoice_payments')
    .select('credit_amount')
    .where('organization_id', '=', organizationId)
    .where(
      'id',
      'in',
      rows.map((r) => r.payment_id),
    )
    .execute();
  const creditAmount = kept.reduce((s, p) => s + Number(p.credit_amount), 0);
  // The line's whole amount: what the invoices settle, plus (kind 'invoice') the part kept as
  // credit; a recorded payment's match row already holds its whole amount.
  const settled = rows.reduce((s, r) => s + r.amount, 0);
  return {
    transactionId,
    kind: rows[0]!.kind,
    creditAmount,
    amount: rows[0]!.kind === 'invoice' ? settled + creditAmount : settled,
    allocations: rows
      .map((r) => ({
        invoiceId: r.invoice_id,
        invoiceNumber: labels.get(r.invoice_id)?.number ?? '',
        customerName: labels.get(r.invoice_id)?.customer_name ?? '',
        paymentId: r.payment_id,
        amount: r.amount,
      }))
      .sort((a, b) => (a.invoiceNumber < b.invoiceNumber ? -1 : a.invoiceNumber > b.invoiceNumber ? 1 : 0)),
    bills: [],
    createdAt: new Date(rows[0]!.created_at).toISOString(),
  };
};

export const getMatch = async (ctx: AppContext, member: MemberContext, { id }: { id: string }) => {
  const db = ctx.database.db;
  if (!(await companyRowExists(db, 'bank_transactions', member.organizationId, id)))
    throw notFound('Transaction not found.');
  return { match: await loadMatch(db, member.organizationId, id) };
};

// --- Confirming ---------------------------------------------------------------------------------

const checkMatchable = async (trx: Executor, organizationId: string, line: BankLineRow) => {
  await assertNotReconciled(trx, organizationId, { ids: [line.id] });
  const existing = [
    ...(await selectMatchRows(trx, organizationId, line.id)),
    ...(await selectBillMatchRows(trx, organizationId, line.id)),
  ];
  if (existing.length > 0) {
    throw conflict(
      'already_matched',
      'This bank line is already matched. Unmatch it first to match it to something else.',
    );
  }
  if (line.category_kind !== 'none') {
    throw conflict(
      'not_uncategorized',
      'Only an uncategorised bank line can be matched; this one is categorised, split, a transfer or a payment. Set it back to Uncategorised first.',
    );
  }
};

const refuseMoneyOut = (line: BankLineRow) => {
  if (line.amount <= 0)
    throw badRequest(
      'not_money_in',
      'Only money in (a positive amount) can be matched to invoices or recorded payments; match money out to bills.',
    );
};

const loadMoney = async (trx: Executor, organizationId: string, moneyAccountId: string) => {
  const money = await trx
    .selectFrom('money_accounts')
    .select(['id', 'ledger_account_id', 'currency', 'name'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', moneyAccountId)
    .executeTakeFirstOrThrow();
  return { ...money, currency: money.currency.trim() };
};

const matchToInvoices = async (
  trx: Executor,
  member: MemberContext,
  line: BankLineRow,
  allocations: NonNullable<MatchInput['invoices']>,
  keepExcessAsCredit: boolean,
) => {
  const { organizationId, userId } = member;
  const total = allocations.reduce((s, a) => s + a.amount, 0);
  if (total > line.amount || (total < line.amount && !keepExcessAsCredit)) {
    throw badRequest(
      'allocation_mismatch',
      total > line.amount
        ? `The amounts settled add up to ${total}, more than the line's ${line.amount} (minor units).`
        : `The amounts settled add up to ${total} of the line's ${line.amount} (minor units). A line is matched in full; if the invoices are owed less than the line, keep the rest as the customer's credit or categorise the line instead.`,
      { total, amount: line.amount },
    );
  }
  const excess = line.amount - total;
  const pc = await loadPostingContext(trx, organizationId);
  const money = await loadMoney(trx, organizationId, line.money_account_id);
  const prepared = await prepareBankPayments(trx, organizationId, allocations, {
    date: line.date,
    currency: money.currency,
    baseCurrency: pc.baseCurrency,
  });
  const receivable = await findSystemAccount(trx, organizationId, 'accounts_receivable');
  const creditLine =
    excess > 0
      ? excessCredit(
          (await findSystemAccount(trx, organizationId, 'customer_credit')).id,
          prepared,
          excess,
          money.currency,
        )
      : null;
  const numbers = prepared.map((p) => p.number).join(', ');
  const memo = `Payment for invoice${prepared.length > 1 ? 's' : ''} ${numbers}`;
  await reverseJournalEntry(trx, {
    organizationId,
    entryId: line.entry_id,
    actorUserId: userId,
    memo: `Bank line matched to invoice${prepared.length > 1 ? 's' : ''} ${numbers}: ${line.description}`.slice(
      0,
      500,
    ),
  });
  const entry = await postJournalEntry(trx, {
    organizationId,
    date: line.date,
    memo,
    reference: prepared.length === 1 ? prepared[0]!.number : null,
    source: 'bank',
    sourceId: line.id,
    lines: [
      {
        accountId: money.ledger_account_id,
        debit: line.amount,
        description: `${memo} (${line.description})`.slice(0, 500),
      },
      ...receivableCredits(receivable.id, prepared),
      ...(creditLine ? [creditLine] : []),
    ],
    actorUserId: userId,
  });
  const paymentIds = await insertBankPayments(trx, actorOf(member), prepared, {
    transactionId: line.id,
    date: line.date,
    currency: money.currency,
    entryId: entry.id,
    depositAccountId: money.ledger_account_id,
    depositName: money.name,
    reference: line.description,
    excess,
  });
  await insertMatchRows(
    trx,
    prepared.map((p, i) => ({
      organization_id: organizationId,
      id: randomUUID(),
      transaction_id: line.id,
      kind: 'invoice' as const,
      invoice_id: p.invoiceId,
      payment_id: paymentIds[i]!,
      amount: p.amount,
      previous_entry_id: line.entry_id,
      replaced_line: null,
      created_by: userId,
    })),
  );
  await setLineMatched(trx, organizationId, line.id, {
    entryId: entry.id,
    paymentId: paymentIds[0]!,
    invoiceId: prepared[0]!.invoiceId,
  });
  return paymentIds;
};

const matchToPayment = async (trx: Executor, member: MemberContext, line: BankLineRow, paymentId: string) => {
  const { organizationId, userId } = member;
  const payment = await selectPaymentForMatch(trx, organizationId, paymentId);
  if (!payment) throw notFound('Payment not found.');
  if (payment.reversal_entry_id)
    throw conflict('payment_removed', 'This payment was removed from its invoice; it cannot be matched.');
  const taken = await selectMatchesOfPayments(trx, organizationId, [paymentId]);
  if (taken.length > 0) {
    throw conflict(
      'payment_already_matched',
      'This payment is already matched to another bank line. Unmatch that line first.',
      { transactionId: taken[0]!.transaction_id },
    );
  }
  const money = await loadMoney(trx, organizationId, line.money_account_id);
  if (payment.deposit_account_id !== money.ledger_account_id) {
    throw badRequest(
      'account_mismatch',
      `The payment was recorded into another account than ${money.name}, where this line is. Match it to a line of that account.`,
    );
  }
  if (payment.currency.trim() !== money.currency || payment.amount !== line.amount) {
    throw badRequest(
      'amount_mismatch',
      `The payment is ${payment.amount} ${payment.currency.trim()} and the line ${line.amount} ${money.currency} (minor units); a line is matched to a recorded payment of the same amount.`,
      { paymentAmount: payment.amount, amount: line.amount },
    );
  }
  // The payment's own register line, if it has one, is merged into this line: one cash movement.
  const own = await findPaymentRegisterLine(trx, organizationId, paymentId, line.id);
  let replaced: LineSnapshot | null = null;
  if (own) {
    await assertNotReconciled(trx, organizationId, { ids: [own.id] });
    if (own.reconciliation_id) {
      throw conflict(
        'transaction_in_reconciliation',
        "The payment's own line is ticked in a reconciliation in progress; untick it first.",
      );
    }
    if (own.money_account_id !== line.money_account_id) {
      throw badRequest(
        'account_mismatch',
        "The payment's own line is in another money account than this line.",
      );
    }
    replaced = snapshotLine(own);
    await removeMergedLine(trx, organizationId, own.id);
  }
  await reverseJournalEntry(trx, {
    organizationId,
    entryId: line.entry_id,
    actorUserId: userId,
    memo: `Bank line matched to the payment recorded for invoice ${payment.number ?? ''}: ${line.description}`.slice(
      0,
      500,
    ),
  });
  await insertMatchRows(trx, [
    {
      organization_id: organizationId,
      id: randomUUID(),
      transaction_id: line.id,
      kind: 'payment',
      invoice_id: payment.invoice_id,
      payment_id: paymentId,
      amount: payment.amount,
      previous_entry_id: line.entry_id,
      replaced_line: replaced ? JSON.stringify(replaced) : null,
      created_by: userId,
    },
  ]);
  await setLineMatched(trx, organizationId, line.id, {
    entryId: payment.journal_entry_id,
    paymentId,
    invoiceId: payment.invoice_id,
  });
};

export const matchTransaction = (
  ctx: AppContext,
  member: MemberContext,
  input: MatchInput & { id: string },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId } = member;
    const { id } = input;
    const line = await lockLineForMatching(trx, organizationId, id);
    await checkMatchable(trx, organizationId, line);
    if (input.bills) {
      const pc = await loadPostingContext(trx, organizationId);
      const money = await loadMoney(trx, organizationId, line.money_account_id);
      await matchToBills(trx, actorOf(member), line, money, pc.baseCurrency, input.bills);
    } else {
      refuseMoneyOut(line);
      if (input.invoices) {
        const paymentIds = await matchToInvoices(
          trx,
          member,
          line,
          input.invoices,
          input.keepExcessAsCredit ?? false,
        );
        // "Payment received" (and "invoice paid" when settled), as for a payment typed in.
        await notifyPaymentsRecorded(ctx, trx, organizationId, paymentIds);
        await emitPaymentsRecorded(trx, { organizationId, now: ctx.now() }, paymentIds);
      } else await matchToPayment(trx, member, line, input.paymentId!);
    }
    const match = (await loadMatch(trx, organizationId, id))!;
    const action = input.bills ? 'bank_transaction.matched_to_bills' : 'bank_transaction.matched';
    await recordMemberAudit(trx, member, action, ['bank_transaction', id], {
      before: { entryId: line.entry_id, categoryKind: line.category_kind },
      after: match,
    });
    return { match };
  });

// --- Unmatching ---------------------------------------------------------------------------------

export const unmatchTransaction = (ctx: AppContext, member: MemberContext, { id }: { id: string }) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    const line = await lockLineForMatching(trx, organizationId, id);
    const rows = await selectMatchRows(trx, organizationId, id);
    const billRows = rows.length === 0 ? await selectBillMatchRows(trx, organizationId, id) : [];
    if (rows.length === 0 && billRows.length === 0)
      throw conflict('not_matched', 'This bank line is not matched.');
    await assertNotReconciled(trx, organizationId, { ids: [id] });
    const before = await loadMatch(trx, organizationId, id);
    const kind = rows[0]?.kind ?? 'bill';
    if (kind === 'bill') await unmatchFromBills(trx, actorOf(member), line, billRows);
    if (kind === 'invoice') {
      const reversal = await reverseJournalEntry(trx, {
        organizationId,
        entryId: line.entry_id,
        actorUserId: userId,
        memo: `Bank line unmatched: ${line.description}`.slice(0, 500),
      });
      await reverseBankPayments(
        trx,
        actorOf(member),
        rows.map((r) => r.payment_id),
        reversal.id,
        reversal.date,
      );
    }
    // The line goes back to suspense, posted as it was before the match.
    const pc = await loadPostingContext(trx, organizationId);
    const money = await loadMoney(trx, organizationId, line.money_account_id);
    const entry = await postJournalEntry(trx, {
      organizationId,
      actorUserId: userId,
      ...entryForTransaction(pc, money, {
        id: line.id,
        date: line.date,
        description: line.description,
        amount: line.amount,
        categoryKind: 'none',
        categoryAccountId: null,
        splits: [],
        taxRate: null,
        rate: line.rate,
      }),
    });
    await deleteMatchRows(trx, organizationId, id);
    await setLineUnmatched(trx, organizationId, id, entry.id);
    if (kind === 'payment' && rows[0]!.replaced_line) {
      const snapshot = (
        typeof rows[0]!.replaced_line === 'string'
          ? JSON.parse(rows[0]!.replaced_line)
          : rows[0]!.replaced_line
      ) as LineSnapshot;
      await restoreMergedLine(trx, snapshot);
    }
    const action = kind === 'bill' ? 'bank_transaction.unmatched_from_bills' : 'bank_transaction.unmatched';
    await recordMemberAudit(trx, member, action, ['bank_transaction', id], {
      before,
      after: { entryId: entry.id, categoryKind: 'none' },
    });
    return { match: null };
  });

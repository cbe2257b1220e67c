import { badRequest } from '../../../shared/errors.ts';
import { inTransaction } from '../../db/transaction.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { type PostingLineInput, postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import { loadCompany, postLinesSplit, toBase } from '../invoices/common.ts';
import { selectTaxRates } from '../invoices/queries.ts';
import { auditBill, getBill } from './bill-read.ts';
import { deleteBillTaxPostings, selectBillLines, selectSupplier } from './bills-queries.ts';
import { type Actor, addBillEvent, billChange, lockBill, refuseBillTransition } from './documents.ts';
import { type Executor, updatePayablesRow } from './queries.ts';

// A bill's posting and its void. Posting (when a bill is approved, or submitted under the
// threshold) is one journal entry, source 'bill': Dr each line's account (net, per account),
// Dr each tax rate's account (input tax goes to the same account sales tax is credited to),
// Cr accounts payable for the total, every line tagged with the supplier. A foreign-currency
// bill posts in base at its rate (the foreign amounts on the lines); total_base =
// balance_base = the payable posted, and bill_tax_postings keep the purchase tax per rate for
// the tax report. A void reverses that entry on its own date and removes the tax rows.

/**
 * Posts a bill that is a draft or awaits approval (in the caller's transaction) and opens it:
 * the entry, its tax rows, status 'open' and a history line. The caller records who approved
 * and the audit row. A bill dated in a locked period is refused by the ledger (409
 * period_locked) and, the transaction rolling back, stays as it was.
 */
export const postBill = (db: Executor, actor: Actor, billId: string) =>
  inTransaction(db, async (trx) => {
    const { organizationId } = actor;
    const row = await lockBill(trx, organizationId, billId);
    if (row.status !== 'draft' && row.status !== 'awaiting_approval') {
      throw refuseBillTransition('posted', row.status, 'It is already posted.');
    }
    if (row.total <= 0)
      throw badRequest('bill_total_zero', 'A bill for nothing cannot be posted. Add an amount to a line.');
    const company = await loadCompany(trx, organizationId);
    const base = company.base_currency;
    const [lines, taxRateRows, payable, supplier] = await Promise.all([
      selectBillLines(trx, organizationId, [billId]),
      selectTaxRates(trx, organizationId),
      findSystemAccount(trx, organizationId, 'accounts_payable'),
      selectSupplier(trx, organizationId, row.supplier_id),
    ]);
    const taxRates = new Map(taxRateRows.map((t) => [t.id, t]));
    const totalBase = toBase(row.total, row.currency, row.exchange_rate, base);
    if (totalBase <= 0)
      throw badRequest('bill_total_zero', `The bill comes to nothing in ${base} at this exchange rate.`);
    const foreign = row.currency !== base ? { currency: row.currency, rate: row.exchange_rate } : null;
    const supplierName = supplier?.name ?? 'supplier';
    const memo = `Bill ${row.number} from ${supplierName}${row.reference ? ` (${row.reference})` : ''}`;
    const { ledgerLines: expenseLines, taxRows } = postLinesSplit(
      lines,
      taxRates,
      {
        organizationId,
        documentId: billId,
        date: row.issue_date,
        number: row.number,
        currency: row.currency,
        exchangeRate: row.exchange_rate,
        contactId: row.supplier_id,
      },
      { base, totalBase, side: 'debit', memo },
    );
    const ledgerLines: PostingLineInput[] = [
      ...expenseLines,
      {
        accountId: payable.id,
        credit: totalBase,
        ...(foreign ? { ...foreign, amount: row.total } : {}),
        description: memo,
        contactId: row.supplier_id,
      },
    ];
    const entry = await postJournalEntry(trx, {
      organizationId,
      date: row.issue_date,
      memo,
      reference: row.number,
      source: 'bill',
      sourceId: billId,
      lines: ledgerLines,
      actorUserId: actor.userId,
    });
    if (taxRows.length > 0) await trx.insertInto('bill_tax_postings').values(taxRows).execute();
    await updatePayablesRow(trx, 'bills', organizationId, billId, {
      status: 'open',
      journal_entry_id: entry.id,
      total_base: totalBase,
      balance_base: totalBase,
      updated_at: actor.now,
    });
    await addBillEvent(trx, actor, billId, 'posted', `Posted: journal entry ${entry.number}`);
    return { entryId: entry.id, entryNumber: entry.number, totalBase };
  });

/** Voids an open bill with nothing paid or credited: its posting is reversed on its own date. */
export const voidBill = billChange(
  async (trx, actor, row, { billId: id, reason }: { billId: string; reason: string }) => {
    const { organizationId } = actor;
    if (row.status === 'draft' || row.status === 'awaiting_approval')
      throw refuseBillTransition('voided', row.status, 'Nothing was posted: delete it instead.');
    if (row.status === 'void') throw refuseBillTransition('voided', row.status, 'It is already void.');
    if (row.amount_paid > 0) {
      throw refuseBillTransition(
        'voided',
        row.status,
        'It has payments: remove them first (each is reversed in the ledger), then void it.',
      );
    }
    if (row.amount_credited > 0) {
      throw refuseBillTransition(
        'voided',
        row.status,
        'Supplier credit is applied to it: take the credit off first, then void it.',
      );
    }
    const before = await getBill(trx, organizationId, id, actor.now);
    const reversal = await reverseJournalEntry(trx, {
      organizationId,
      entryId: row.journal_entry_id!,
      memo: `Void of bill ${row.number}${reason ? `: ${reason}` : ''}`,
      actorUserId: actor.userId,
    });
    await deleteBillTaxPostings(trx, organizationId, id);
    await updatePayablesRow(trx, 'bills', organizationId, id, {
      status: 'void',
      void_entry_id: reversal.id,
      voided_at: actor.now,
      balance_base: 0,
      updated_at: actor.now,
    });
    await addBillEvent(
      trx,
      actor,
      id,
      'voided',
      `Voided${reason ? `: ${reason}` : ''}; journal entry ${reversal.number} reverses the posting`,
    );
    return auditBill(trx, actor, id, 'bill.voided', before);
  },
);

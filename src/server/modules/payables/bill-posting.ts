import { badRequest } from '../../../shared/errors.ts';
import { inTransaction } from '../../db/transaction.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { type PostingLineInput, postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import { loadCompany, splitToBase, toBase } from '../invoices/common.ts';
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
    const expense = new Map<string, number>();
    const taxes = new Map<string, { amount: number; taxable: number }>();
    for (const line of lines) {
      expense.set(line.account_id, (expense.get(line.account_id) ?? 0) + line.net);
      for (const t of line.taxes) {
        const sum = taxes.get(t.taxRateId) ?? { amount: 0, taxable: 0 };
        sum.amount += t.amount;
        sum.taxable += t.base;
        taxes.set(t.taxRateId, sum);
      }
    }
    const parts = [
      ...[...expense].map(([accountId, amount]) => ({ key: `account:${accountId}`, amount })),
      ...[...taxes].map(([taxRateId, t]) => ({ key: `tax:${taxRateId}`, amount: t.amount })),
    ].filter((p) => p.amount > 0);
    const totalBase = toBase(row.total, row.currency, row.exchange_rate, base);
    if (totalBase <= 0)
      throw badRequest('bill_total_zero', `The bill comes to nothing in ${base} at this exchange rate.`);
    const splits = splitToBase(parts, row.currency, row.exchange_rate, base, totalBase);
    const foreign = row.currency !== base ? { currency: row.currency, rate: row.exchange_rate } : null;
    const supplierName = supplier?.name ?? 'supplier';
    const memo = `Bill ${row.number} from ${supplierName}${row.reference ? ` (${row.reference})` : ''}`;
    const ledgerLines: PostingLineInput[] = [
      ...splits
        .filter((s) => s.base > 0)
        .map((s): PostingLineInput => {
          const [kind, ref] = s.key.split(':') as [string, string];
          const rate = kind === 'tax' ? taxRates.get(ref)! : null;
          return {
            accountId: rate ? rate.account_id : ref,
            debit: s.base,
            ...(foreign ? { ...foreign, amount: s.amount } : {}),
            description: rate ? `${rate.name} on ${row.number}` : memo,
            contactId: row.supplier_id,
          };
        }),
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
    const taxRows = [...taxes].map(([taxRateId, t]) => ({
      organization_id: organizationId,
      document_id: billId,
      tax_rate_id: taxRateId,
      date: row.issue_date,
      taxable_base: toBase(t.taxable, row.currency, row.exchange_rate, base),
      tax_base: splits.find((s) => s.key === `tax:${taxRateId}`)?.base ?? 0,
    }));
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

import type { z } from 'zod';
import { badRequest, notFound } from '../../../shared/errors.ts';
import { type creditNoteInputSchema, formatDocumentNumber } from '../../../shared/invoices.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { type PostingLineInput, postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import { lineRows, loadCompany, prepareLines, toBase } from './common.ts';
import { addCredit, takeBackKeptCredit } from './credit-pool.ts';
import {
  addEvent,
  describeAmount,
  recordActorAudit,
  refuseBeforeIssue,
  refuseTransition,
  settleInvoice,
  invoiceChange,
} from './documents.ts';
import { getInvoice } from './invoice-read.ts';
import {
  deleteTaxPostings,
  insertCompanyRow,
  lockInvoiceDocument,
  selectTaxRates,
  takeDocumentNumber,
  updateCompanyRow,
} from './queries.ts';

// Credit notes reduce what a sent invoice asks for: Dr income and tax payable, Cr
// receivable, with their own number sequence. A note larger than what is still due (the
// invoice was already paid, in part or in full) puts the rest on the customer's credit
// (Cr customer credit, credit.ts), from where it is applied to another invoice or refunded
// as cash. Together the notes never exceed the invoice's total. They are undone by voiding,
// which reverses their posting (refused while their credit is already used).

export const createCreditNote = invoiceChange(
  async (
    trx,
    actor,
    row,
    { invoiceId, ...input }: z.output<typeof creditNoteInputSchema> & { invoiceId: string },
  ) => {
    const { organizationId } = actor;
    const currency = row.currency;
    if (row.status === 'draft') throw refuseTransition('credited', row.status, 'Edit the draft instead.');
    if (row.status === 'void')
      throw refuseTransition('credited', row.status, 'A void invoice asks for nothing.');
    refuseBeforeIssue(
      input.date,
      row.issue_date,
      'credit_before_invoice',
      `The credit note date cannot be before the invoice date (${row.issue_date}).`,
    );
    const { lines, totals } = await prepareLines(trx, organizationId, input.lines);
    if (totals.total <= 0)
      throw badRequest('credit_total_zero', 'A credit note must credit something. Add an amount to a line.');
    const issued = await trx
      .selectFrom('credit_notes')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('total'), eb.lit(0)).as('n'))
      .where('organization_id', '=', organizationId)
      .where('invoice_id', '=', invoiceId)
      .where('status', '=', 'issued')
      .executeTakeFirstOrThrow();
    const creditable = row.total - Number(issued.n);
    if (totals.total > creditable) {
      throw badRequest(
        'credit_exceeds_total',
        `The credit note of ${describeAmount(totals.total, currency)} is more than the ${describeAmount(creditable, currency)} of ${row.number} not yet credited.`,
        { creditable, amountDue: row.amount_due },
      );
    }
    // What the note takes off the invoice, and what is left over for the customer's credit.
    const applied = Math.min(totals.total, row.amount_due);
    const toCredit = totals.total - applied;
    const company = await loadCompany(trx, organizationId);
    const base = company.base_currency;
    const taxRates = new Map((await selectTaxRates(trx, organizationId)).map((t) => [t.id, t]));
    const receivable = await findSystemAccount(trx, organizationId, 'accounts_receivable');

    // Debits per income account and per tax rate, in base at the invoice's rate.
    const parts = new Map<string, { amount: number; taxable: number }>();
    for (const line of lines) {
      const key = `income:${line.accountId}`;
      const p = parts.get(key) ?? { amount: 0, taxable: 0 };
      p.amount += line.result.net;
      parts.set(key, p);
      for (const t of line.result.taxes) {
        const tk = `tax:${t.taxRateId}`;
        const tp = parts.get(tk) ?? { amount: 0, taxable: 0 };
        tp.amount += t.amount;
        tp.taxable += t.base;
        parts.set(tk, tp);
      }
    }
    const debits = [...parts]
      .map(([key, p]) => ({
        key,
        amount: p.amount,
        taxable: p.taxable,
        base: toBase(p.amount, currency, row.exchange_rate, base),
      }))
      .filter((d) => d.amount > 0);
    // The receivable credited: what is left when this note clears the invoice, else its
    // conversion; the customer credit gets the rest at the invoice's rate.
    const clears = applied === row.amount_due;
    const converted = debits.reduce((s, d) => s + d.base, 0);
    const creditBase = toCredit > 0 ? toBase(toCredit, currency, row.exchange_rate, base) : 0;
    const amountBase =
      applied === 0
        ? 0
        : clears
          ? row.balance_base
          : Math.min(toBase(applied, currency, row.exchange_rate, base), row.balance_base);
    let difference = amountBase + creditBase - converted;
    // Rounding between the parts' conversions and the receivable goes on the largest part.
    const largest = [...debits].sort((a, b) => b.base - a.base)[0]!;
    largest.base += difference;
    difference = 0;
    if (largest.base < 0)
      throw badRequest('credit_too_small', 'The credit note is too small to post at this exchange rate.');

    const settings = await takeDocumentNumber(trx, organizationId, 'credit_note');
    const number = formatDocumentNumber(settings.prefix, settings.number);
    const memo = `Credit note ${number} against invoice ${row.number}`;
    const ledgerLines: PostingLineInput[] = [
      ...debits
        .filter((d) => d.base > 0)
        .map((d): PostingLineInput => {
          const [kind, ref] = d.key.split(':') as [string, string];
          return {
            accountId: kind === 'income' ? ref : taxRates.get(ref)!.account_id,
            debit: d.base,
            description: kind === 'tax' ? `${taxRates.get(ref)!.name} credited on ${number}` : memo,
            contactId: row.customer_id,
          };
        }),
      ...(amountBase > 0
        ? [{ accountId: receivable.id, credit: amountBase, description: memo, contactId: row.customer_id }]
        : []),
    ];
    if (creditBase > 0) {
      const creditAccount = await findSystemAccount(trx, organizationId, 'customer_credit');
      ledgerLines.push({
        accountId: creditAccount.id,
        credit: creditBase,
        description: `${memo}, kept as credit`,
        contactId: row.customer_id,
      });
    }
    const entry = await postJournalEntry(trx, {
      organizationId,
      date: input.date,
      memo,
      reference: number,
      source: 'invoice',
      sourceId: invoiceId,
      lines: ledgerLines,
      actorUserId: actor.userId,
    });
    const id = await insertCompanyRow(trx, 'credit_notes', organizationId, {
      number,
      invoice_id: invoiceId,
      date: input.date,
      reason: input.reason,
      subtotal: totals.subtotal,
      tax_total: totals.taxTotal,
      total: totals.total,
      currency,
      exchange_rate: row.exchange_rate,
      amount_base: amountBase,
      journal_entry_id: entry.id,
      created_by: actor.userId,
      created_at: actor.now,
      to_credit: toCredit,
    });
    if (toCredit > 0)
      await addCredit(trx, actor, {
        customerId: row.customer_id,
        currency,
        date: input.date,
        kind: 'credit_note',
        amount: toCredit,
        amountBase: creditBase,
        exchangeRate: row.exchange_rate,
        invoiceId,
        creditNoteId: id,
        journalEntryId: entry.id,
        reference: number,
      });
    await trx
      .insertInto('invoice_lines')
      .values(lineRows(organizationId, id, lines))
      .execute();
    const taxRows = debits
      .filter((d) => d.key.startsWith('tax:'))
      .map((d) => ({
        organization_id: organizationId,
        document_id: id,
        tax_rate_id: d.key.slice(4),
        date: input.date,
        taxable_base: -toBase(d.taxable, currency, row.exchange_rate, base),
        tax_base: -d.base,
      }));
    if (taxRows.length > 0) await trx.insertInto('invoice_tax_postings').values(taxRows).execute();
    await settleInvoice(trx, actor, row, {
      credited: row.amount_credited + applied,
      balanceBase: row.balance_base - amountBase,
    });
    await addEvent(
      trx,
      actor,
      invoiceId,
      'credit_note',
      `Credit note ${number} for ${describeAmount(totals.total, currency)} issued${toCredit > 0 ? `; ${describeAmount(toCredit, currency)} kept as the customer's credit` : ''}`,
    );
    await recordActorAudit(trx, actor, 'credit_note.issued', ['credit_note', id], {
      after: {
        number,
        invoiceId,
        date: input.date,
        total: totals.total,
        toCredit,
        currency,
        journalEntryId: entry.id,
      },
    });
    return getInvoice(trx, organizationId, invoiceId, actor.now);
  },
);

export const voidCreditNote = invoiceChange(
  async (trx, actor, row, { invoiceId, creditNoteId }: { invoiceId: string; creditNoteId: string }) => {
    const { organizationId } = actor;
    const note = await lockInvoiceDocument(trx, 'credit_notes', organizationId, invoiceId, creditNoteId);
    if (!note) throw notFound('Credit note not found.');
    if (note.status === 'void')
      throw badRequest('credit_note_void', `Credit note ${note.number} is already void.`);
    const reversal = await reverseJournalEntry(trx, {
      organizationId,
      entryId: note.journal_entry_id,
      memo: `Void of credit note ${note.number}`,
      actorUserId: actor.userId,
    });
    await takeBackKeptCredit(
      trx,
      actor,
      { creditNoteId },
      {
        customerId: row.customer_id,
        currency: note.currency.trim(),
        date: reversal.date,
        kind: 'credit_note_voided',
        invoiceId,
        creditNoteId,
        journalEntryId: reversal.id,
      },
      'credit note',
    );
    await updateCompanyRow(trx, 'credit_notes', organizationId, creditNoteId, {
      status: 'void',
      void_entry_id: reversal.id,
    });
    await deleteTaxPostings(trx, organizationId, creditNoteId);
    await settleInvoice(trx, actor, row, {
      credited: row.amount_credited - (note.total - note.to_credit),
      balanceBase: row.balance_base + note.amount_base,
    });
    await addEvent(
      trx,
      actor,
      invoiceId,
      'credit_note_voided',
      `Credit note ${note.number} voided; the invoice is owed again`,
    );
    await recordActorAudit(trx, actor, 'credit_note.voided', ['credit_note', creditNoteId], {
      before: { status: 'issued' },
      after: { status: 'void', reversalEntryId: reversal.id },
    });
    return getInvoice(trx, organizationId, invoiceId, actor.now);
  },
);

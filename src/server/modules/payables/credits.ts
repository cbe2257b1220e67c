import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { z } from 'zod';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import { formatDocumentNumber } from '../../../shared/invoices.ts';
import type {
  SupplierCredit,
  SupplierCreditList,
  applySupplierCreditSchema,
  supplierCreditInputSchema,
  supplierCreditListQuerySchema,
  voidSupplierCreditSchema,
} from '../../../shared/payables.ts';
import type { AppContext } from '../../context.ts';
import { decodeCursor, keysetPage } from '../../db/cursor.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { checkCurrency, companyToday, iso, loadCompany, splitToBase, toBase } from '../invoices/common.ts';
import { sameCompany, selectTaxRates } from '../invoices/queries.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { type PostingLineInput, postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import { insertBillLines, resolveBillLines } from './bill-lines.ts';
import { toBillLine } from './bill-read.ts';
import {
  deleteBillTaxPostings,
  ensurePayablesSettings,
  selectBillLines,
  selectSupplier,
} from './bills-queries.ts';
import {
  type Actor,
  actorOf,
  addBillEvent,
  describeAmount,
  exchangeLines,
  lockBill,
  recordActorAudit,
  refuseBeforeBill,
  refuseBillUnpayable,
  settleBill,
} from './documents.ts';
import { payableCleared, rateOnDate, refuseOverpayment, settledWords } from './payments.ts';
import { type Executor, insertPayablesRow, updatePayablesRow } from './queries.ts';

// Supplier credits (their credit notes; issue 15 §4, decision 0033): Dr accounts payable for
// the total, Cr the accounts (net) and the tax rates' accounts (tax) it takes back, with
// negative purchase-tax rows for the tax report; numbered SC-0001 from payables_settings.
// What is left of a credit is applied to the same supplier's open bills in its currency (no
// posting: both sides are that supplier's payable; at another rate than the bill's, the
// difference is a realised exchange gain or loss) or refunded in cash (credit-refunds.ts).
// A credit is voided (its posting reversed) only while nothing of it is used.

type CreditInput = z.output<typeof supplierCreditInputSchema>;

/** Takes the next supplier credit number (the row lock of the update serialises numbering). */
const takeCreditNumber = async (db: Executor, organizationId: string) => {
  await ensurePayablesSettings(db, organizationId);
  const row = await db
    .updateTable('payables_settings')
    .set({ next_credit_number: sql`next_credit_number + 1` })
    .where('organization_id', '=', organizationId)
    .returning([sql<number>`next_credit_number - 1`.as('number'), 'credit_prefix as prefix'])
    .executeTakeFirstOrThrow();
  return formatDocumentNumber(row.prefix, Number(row.number));
};

/** The credit row, locked for the transaction, currency trimmed; 404 when not in the company. */
export const lockCredit = async (db: Executor, organizationId: string, id: string) => {
  const row = await db
    .selectFrom('supplier_credits')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('Supplier credit not found.');
  return { ...row, currency: row.currency.trim() };
};
export type LockedCredit = Awaited<ReturnType<typeof lockCredit>>;

/** What is left of a credit in base: its total_base less what live applications and refunds used. */
export const creditBaseLeft = async (db: Executor, credit: LockedCredit) => {
  const { rows } = await sql<{ used: string }>`
    select (coalesce((select sum(credit_base) from supplier_credit_allocations
                       where organization_id = ${credit.organization_id} and credit_id = ${credit.id} and reversed_at is null), 0)
          + coalesce((select sum(amount_base) from supplier_credit_refunds
                       where organization_id = ${credit.organization_id} and credit_id = ${credit.id} and reversed_at is null), 0))::text as used`.execute(
    db,
  );
  return credit.total_base - Number(rows[0]!.used);
};

/** The base a use of `amount` takes from the credit, at its rate; all that is left when it empties it. */
export const creditBaseUsed = async (db: Executor, credit: LockedCredit, amount: number, base: string) => {
  const left = await creditBaseLeft(db, credit);
  return amount === credit.amount_left
    ? left
    : Math.min(left, toBase(amount, credit.currency, credit.exchange_rate, base));
};

/** Refuses using a void credit, or more than is left of it. */
export const refuseCreditUse = (credit: LockedCredit, amount: number, what: string) => {
  if (credit.status === 'void') {
    throw conflict('credit_void', `Supplier credit ${credit.number} is void; there is nothing to ${what}.`);
  }
  if (amount > credit.amount_left) {
    throw badRequest(
      'exceeds_credit',
      `${describeAmount(amount, credit.currency)} is more than the ${describeAmount(credit.amount_left, credit.currency)} left of supplier credit ${credit.number}.`,
      { amountLeft: credit.amount_left },
    );
  }
};

// --- Reading -------------------------------------------------------------------------------------

const creditRows = (db: Executor, organizationId: string) =>
  db
    .selectFrom('supplier_credits as c')
    .innerJoin('suppliers as s', sameCompany('s', 'c.supplier_id'))
    .selectAll('c')
    .select('s.name as supplier_name')
    .where('c.organization_id', '=', organizationId);

type CreditRow = Awaited<ReturnType<ReturnType<typeof creditRows>['execute']>>[number];

const toCreditSummary = (row: CreditRow) => ({
  id: row.id,
  number: row.number,
  supplierId: row.supplier_id,
  supplierName: row.supplier_name,
  reference: row.reference,
  date: row.date,
  currency: row.currency.trim(),
  exchangeRate: row.exchange_rate,
  reason: row.reason,
  status: row.status,
  subtotal: row.subtotal,
  taxTotal: row.tax_total,
  total: row.total,
  amountApplied: row.amount_applied,
  amountRefunded: row.amount_refunded,
  amountLeft: row.status === 'void' ? 0 : row.amount_left,
  journalEntryId: row.journal_entry_id,
  createdAt: iso(row.created_at as Date)!,
});

export const getCredit = async (
  db: Executor,
  organizationId: string,
  id: string,
): Promise<SupplierCredit> => {
  const row = await creditRows(db, organizationId).where('c.id', '=', id).executeTakeFirst();
  if (!row) throw notFound('Supplier credit not found.');
  const [lines, allocations, refunds] = await Promise.all([
    selectBillLines(db, organizationId, [id]),
    db
      .selectFrom('supplier_credit_allocations as a')
      .innerJoin('bills as b', sameCompany('b', 'a.bill_id'))
      .select(['a.id', 'a.bill_id', 'b.number as bill_number', 'a.date', 'a.amount', 'a.reversed_at'])
      .where('a.organization_id', '=', organizationId)
      .where('a.credit_id', '=', id)
      .orderBy('a.created_at')
      .orderBy('a.id')
      .execute(),
    db
      .selectFrom('supplier_credit_refunds')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('credit_id', '=', id)
      .orderBy('created_at')
      .orderBy('id')
      .execute(),
  ]);
  return {
    ...toCreditSummary(row),
    lines: lines.map(toBillLine),
    allocations: allocations.map((a) => ({
      id: a.id,
      billId: a.bill_id,
      billNumber: a.bill_number,
      date: a.date,
      amount: a.amount,
      reversed: a.reversed_at !== null,
    })),
    refunds: refunds.map((r) => ({
      id: r.id,
      date: r.date,
      amount: r.amount,
      paymentAccountId: r.payment_account_id,
      reference: r.reference,
      journalEntryId: r.journal_entry_id,
      reversed: r.reversed_at !== null,
    })),
  };
};

export const readCredit = (ctx: AppContext, member: MemberContext, input: { creditId: string }) =>
  getCredit(ctx.database.db, member.organizationId, input.creditId);

/** Supplier credits, newest first (date, then id), a keyset page at a time. */
export const listCredits = async (
  ctx: AppContext,
  member: MemberContext,
  query: z.output<typeof supplierCreditListQuerySchema>,
): Promise<SupplierCreditList> => {
  const cursor = decodeCursor(query.cursor, { date: 'date', id: 'string' });
  let q = creditRows(ctx.database.db, member.organizationId);
  if (query.supplierId) q = q.where('c.supplier_id', '=', query.supplierId);
  if (query.openOnly === 'true') q = q.where('c.status', '=', 'issued').where('c.amount_left', '>', 0);
  const { page, nextCursor } = await keysetPage(q, {
    keys: [['c.date', 'date'], ['c.id']],
    after: cursor && [cursor.date, cursor.id],
    limit: query.limit,
    direction: 'desc',
  });
  return {
    credits: page.map((r: CreditRow) => toCreditSummary(r)),
    nextCursor: nextCursor((last) => ({ date: last.date, id: last.id })),
  };
};

// --- Issuing and voiding -------------------------------------------------------------------------

export const createCredit = (ctx: AppContext, member: MemberContext, input: CreditInput) =>
  inTransaction(ctx.database.db, async (trx): Promise<SupplierCredit> => {
    const actor = actorOf(ctx, member);
    const { organizationId } = actor;
    const supplier = await selectSupplier(trx, organizationId, input.supplierId);
    if (!supplier) throw badRequest('supplier_not_found', 'The supplier does not exist in this company.');
    if (supplier.archived_at)
      throw badRequest('supplier_archived', `${supplier.name} is archived. Restore the supplier first.`);
    const company = await loadCompany(trx, organizationId);
    const base = company.base_currency;
    const currency = input.currency ?? supplier.currency.trim();
    checkCurrency(currency);
    const rate = await rateOnDate(trx, organizationId, currency, base, input.date, input.exchangeRate);
    const { lines, totals } = await resolveBillLines(trx, organizationId, input.lines, {
      accountId: supplier.default_account_id,
      taxRateId: supplier.default_tax_rate_id,
    });
    if (totals.total <= 0)
      throw badRequest(
        'credit_total_zero',
        'A supplier credit must credit something. Add an amount to a line.',
      );
    const totalBase = toBase(totals.total, currency, rate, base);
    if (totalBase <= 0)
      throw badRequest('credit_total_zero', `The credit comes to nothing in ${base} at this exchange rate.`);
    const taxRates = new Map((await selectTaxRates(trx, organizationId)).map((t) => [t.id, t]));
    const accounts = new Map<string, number>();
    const taxes = new Map<string, { amount: number; taxable: number }>();
    for (const line of lines) {
      accounts.set(line.accountId, (accounts.get(line.accountId) ?? 0) + line.result.net);
      for (const t of line.result.taxes) {
        const sum = taxes.get(t.taxRateId) ?? { amount: 0, taxable: 0 };
        sum.amount += t.amount;
        sum.taxable += t.base;
        taxes.set(t.taxRateId, sum);
      }
    }
    const splits = splitToBase(
      [
        ...[...accounts].map(([id, amount]) => ({ key: `account:${id}`, amount })),
        ...[...taxes].map(([id, t]) => ({ key: `tax:${id}`, amount: t.amount })),
      ].filter((p) => p.amount > 0),
      currency,
      rate,
      base,
      totalBase,
    );
    const id = randomUUID();
    const number = await takeCreditNumber(trx, organizationId);
    const payable = await findSystemAccount(trx, organizationId, 'accounts_payable');
    const foreign = currency !== base ? { currency, rate } : null;
    const memo = `Supplier credit ${number} from ${supplier.name}${input.reference ? ` (${input.reference})` : ''}`;
    const ledgerLines: PostingLineInput[] = [
      {
        accountId: payable.id,
        debit: totalBase,
        ...(foreign ? { ...foreign, amount: totals.total } : {}),
        description: memo,
        contactId: supplier.id,
      },
      ...splits
        .filter((s) => s.base > 0)
        .map((s): PostingLineInput => {
          const [kind, ref] = s.key.split(':') as [string, string];
          const taxRate = kind === 'tax' ? taxRates.get(ref)! : null;
          return {
            accountId: taxRate ? taxRate.account_id : ref,
            credit: s.base,
            ...(foreign ? { ...foreign, amount: s.amount } : {}),
            description: taxRate ? `${taxRate.name} credited on ${number}` : memo,
            contactId: supplier.id,
          };
        }),
    ];
    const entry = await postJournalEntry(trx, {
      organizationId,
      date: input.date,
      memo,
      reference: number,
      source: 'supplier_credit',
      sourceId: id,
      lines: ledgerLines,
      actorUserId: actor.userId,
    });
    await trx
      .insertInto('supplier_credits')
      .values({
        organization_id: organizationId,
        id,
        number,
        supplier_id: supplier.id,
        reference: input.reference,
        date: input.date,
        currency,
        exchange_rate: rate,
        reason: input.reason,
        subtotal: totals.subtotal,
        discount_total: totals.discountTotal,
        tax_total: totals.taxTotal,
        total: totals.total,
        total_base: totalBase,
        journal_entry_id: entry.id,
        created_by: actor.userId,
        created_at: actor.now,
        updated_at: actor.now,
      })
      .execute();
    await insertBillLines(trx, organizationId, id, lines);
    const taxRows = [...taxes].map(([taxRateId, t]) => ({
      organization_id: organizationId,
      document_id: id,
      tax_rate_id: taxRateId,
      date: input.date,
      taxable_base: -toBase(t.taxable, currency, rate, base),
      tax_base: -(splits.find((s) => s.key === `tax:${taxRateId}`)?.base ?? 0),
    }));
    if (taxRows.length > 0) await trx.insertInto('bill_tax_postings').values(taxRows).execute();
    await recordActorAudit(trx, actor, 'supplier_credit.issued', ['supplier_credit', id], {
      after: {
        number,
        supplierId: supplier.id,
        date: input.date,
        currency,
        exchangeRate: rate,
        total: totals.total,
        totalBase,
        journalEntryId: entry.id,
      },
    });
    return getCredit(trx, organizationId, id);
  });

/** Voids a credit nothing of which is applied or refunded: its posting and tax rows reversed. */
export const voidCredit = (
  ctx: AppContext,
  member: MemberContext,
  input: z.output<typeof voidSupplierCreditSchema> & { creditId: string },
) =>
  inTransaction(ctx.database.db, async (trx): Promise<SupplierCredit> => {
    const actor = actorOf(ctx, member);
    const { organizationId } = actor;
    const credit = await lockCredit(trx, organizationId, input.creditId);
    if (credit.status === 'void')
      throw conflict('credit_void', `Supplier credit ${credit.number} is already void.`);
    if (credit.amount_applied > 0 || credit.amount_refunded > 0) {
      throw conflict(
        'credit_in_use',
        `Supplier credit ${credit.number} is applied to bills or refunded. Take those back first (each application or refund is removed on its own), then void it.`,
        { amountApplied: credit.amount_applied, amountRefunded: credit.amount_refunded },
      );
    }
    const reversal = await reverseJournalEntry(trx, {
      organizationId,
      entryId: credit.journal_entry_id,
      memo: `Void of supplier credit ${credit.number}${input.reason ? `: ${input.reason}` : ''}`,
      actorUserId: actor.userId,
    });
    await deleteBillTaxPostings(trx, organizationId, credit.id);
    await updatePayablesRow(trx, 'supplier_credits', organizationId, credit.id, {
      status: 'void',
      void_entry_id: reversal.id,
      voided_at: actor.now,
      updated_at: actor.now,
    });
    await recordActorAudit(trx, actor, 'supplier_credit.voided', ['supplier_credit', credit.id], {
      before: { status: 'issued' },
      after: { status: 'void', reason: input.reason, reversalEntryId: reversal.id },
    });
    return getCredit(trx, organizationId, credit.id);
  });

// --- Applying to bills ---------------------------------------------------------------------------

/**
 * The entry of an exchange difference between the payable cleared on a bill and the credit
 * used for it (both accounts payable of the supplier): none when they agree.
 */
const exchangeEntry = async (
  trx: Executor,
  actor: Actor,
  credit: LockedCredit,
  difference: number,
  date: string,
  about: string,
) => {
  if (difference === 0) return null;
  const payable = await findSystemAccount(trx, actor.organizationId, 'accounts_payable');
  const memo = `Exchange difference on supplier credit ${credit.number} ${about}`;
  return postJournalEntry(trx, {
    organizationId: actor.organizationId,
    date,
    memo,
    reference: credit.number,
    source: 'supplier_credit',
    sourceId: credit.id,
    lines: [
      {
        accountId: payable.id,
        ...(difference > 0 ? { debit: difference } : { credit: -difference }),
        description: memo,
        contactId: credit.supplier_id,
      },
      ...(await exchangeLines(trx, actor.organizationId, difference, `supplier credit ${credit.number}`)),
    ],
    actorUserId: actor.userId,
  });
};

/** Applies some of a credit to one of the supplier's open bills in its currency. */
export const applyCredit = (
  ctx: AppContext,
  member: MemberContext,
  input: z.output<typeof applySupplierCreditSchema> & { creditId: string },
) =>
  inTransaction(ctx.database.db, async (trx): Promise<SupplierCredit> => {
    const actor = actorOf(ctx, member);
    const { organizationId } = actor;
    // Lock order everywhere: the bill, then the credit.
    const bill = await lockBill(trx, organizationId, input.billId);
    const credit = await lockCredit(trx, organizationId, input.creditId);
    if (bill.supplier_id !== credit.supplier_id) {
      throw badRequest(
        'credit_other_supplier',
        `Bill ${bill.number} is from another supplier; supplier credit ${credit.number} only settles its own supplier's bills.`,
      );
    }
    if (bill.currency !== credit.currency) {
      throw badRequest(
        'credit_currency_mismatch',
        `Bill ${bill.number} is in ${bill.currency} and supplier credit ${credit.number} in ${credit.currency}; a credit settles bills in its own currency.`,
      );
    }
    refuseBillUnpayable(bill.status, 'credited');
    refuseCreditUse(credit, input.amount, 'apply');
    refuseOverpayment(bill, input.amount, 'credit of');
    const company = await loadCompany(trx, organizationId);
    const base = company.base_currency;
    const date = input.date ?? companyToday(actor.now, company.time_zone);
    refuseBeforeBill(date, bill.issue_date, 'application');
    if (date < credit.date) {
      throw badRequest(
        'date_before_credit',
        `The application date cannot be before the supplier credit's date (${credit.date}).`,
      );
    }
    const amountBase = payableCleared(bill, input.amount, base);
    const creditBase = await creditBaseUsed(trx, credit, input.amount, base);
    const exchange = await exchangeEntry(
      trx,
      actor,
      credit,
      amountBase - creditBase,
      date,
      `applied to bill ${bill.number}`,
    );
    const id = await insertPayablesRow(trx, 'supplier_credit_allocations', organizationId, {
      credit_id: credit.id,
      bill_id: bill.id,
      date,
      amount: input.amount,
      amount_base: amountBase,
      credit_base: creditBase,
      exchange_entry_id: exchange?.id ?? null,
      created_by: actor.userId,
      created_at: actor.now,
    });
    await updatePayablesRow(trx, 'supplier_credits', organizationId, credit.id, {
      amount_applied: credit.amount_applied + input.amount,
      updated_at: actor.now,
    });
    const status = await settleBill(trx, actor, bill, {
      credited: bill.amount_credited + input.amount,
      balanceBase: bill.balance_base - amountBase,
    });
    await addBillEvent(
      trx,
      actor,
      bill.id,
      'credit_applied',
      `${describeAmount(input.amount, credit.currency)} of supplier credit ${credit.number} applied; ${settledWords(status)}`,
    );
    await recordActorAudit(trx, actor, 'supplier_credit.applied', ['supplier_credit_allocation', id], {
      before: { billStatus: bill.status, amountLeft: credit.amount_left },
      after: {
        creditId: credit.id,
        billId: bill.id,
        date,
        amount: input.amount,
        amountBase,
        creditBase,
        billStatus: status,
        exchangeEntryId: exchange?.id ?? null,
      },
    });
    return getCredit(trx, organizationId, credit.id);
  });

/** Takes an application back: the bill is owed again and the credit has it left again. */
export const unapplyCredit = (
  ctx: AppContext,
  member: MemberContext,
  input: { creditId: string; allocationId: string },
) =>
  inTransaction(ctx.database.db, async (trx): Promise<SupplierCredit> => {
    const actor = actorOf(ctx, member);
    const { organizationId } = actor;
    const found = await trx
      .selectFrom('supplier_credit_allocations')
      .select(['bill_id'])
      .where('organization_id', '=', organizationId)
      .where('credit_id', '=', input.creditId)
      .where('id', '=', input.allocationId)
      .executeTakeFirst();
    if (!found) throw notFound('Credit application not found.');
    const bill = await lockBill(trx, organizationId, found.bill_id);
    const credit = await lockCredit(trx, organizationId, input.creditId);
    const allocation = await trx
      .selectFrom('supplier_credit_allocations')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', input.allocationId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (allocation.reversed_at) {
      throw conflict('allocation_already_reversed', 'This application of the credit was already taken back.');
    }
    const reversal = allocation.exchange_entry_id
      ? await reverseJournalEntry(trx, {
          organizationId,
          entryId: allocation.exchange_entry_id,
          memo: `Supplier credit ${credit.number} taken off bill ${bill.number}: exchange difference reversed`,
          actorUserId: actor.userId,
        })
      : null;
    await updatePayablesRow(trx, 'supplier_credit_allocations', organizationId, allocation.id, {
      reversed_at: actor.now,
    });
    await updatePayablesRow(trx, 'supplier_credits', organizationId, credit.id, {
      amount_applied: credit.amount_applied - allocation.amount,
      updated_at: actor.now,
    });
    const status = await settleBill(trx, actor, bill, {
      credited: bill.amount_credited - allocation.amount,
      balanceBase: bill.balance_base + allocation.amount_base,
    });
    await addBillEvent(
      trx,
      actor,
      bill.id,
      'credit_removed',
      `${describeAmount(allocation.amount, credit.currency)} of supplier credit ${credit.number} taken off; the bill is owed again`,
    );
    await recordActorAudit(
      trx,
      actor,
      'supplier_credit.unapplied',
      ['supplier_credit_allocation', allocation.id],
      {
        before: { billStatus: bill.status, amount: allocation.amount },
        after: { billStatus: status, reversalEntryId: reversal?.id ?? null },
      },
    );
    return getCredit(trx, organizationId, credit.id);
  });

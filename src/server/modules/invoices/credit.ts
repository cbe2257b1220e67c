import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import type {
  CustomerCredit,
  applyCreditInputSchema,
  customerRefundInputSchema,
  refundInputSchema,
} from '../../../shared/invoice-credit.ts';
import type { Invoice } from '../../../shared/invoices.ts';
import { recordAudit } from '../audit/record.ts';
import { recordDocumentLine } from '../bank-transactions/register.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { type PostingLineInput, inTransaction, postJournalEntry } from '../ledger/posting.ts';
import { selectMoneyAccount } from '../wallet/queries.ts';
import { loadCompany, settledStatus, toBase } from './common.ts';
import { type Actor, addEvent, describeAmount, getInvoice, refuseTransition } from './invoices.ts';
import { type Executor, selectInvoice } from './queries.ts';

// Customer credit (decision 0028): what a customer has paid or been credited beyond what their
// invoices ask for. It is the company's liability to them, kept on the "Customer credit"
// account (system key customer_credit, contact = the customer) and itemised per customer and
// currency in customer_credit_entries. It comes from overpayments (payments.ts) and from
// credit notes larger than what is left due (credit-notes.ts); it goes by being applied to
// another open invoice of the same customer and currency (Dr customer credit, Cr receivable),
// by being refunded out of a money account (Dr customer credit, Cr the money account's ledger
// account), or by the payment or credit note it came from being undone.
//
// Base amounts: each entry carries its base-currency amount. Using credit releases the base
// at the pool's average (all of it when the pool is emptied), so the liability account always
// equals the sum of the entries; a difference between that and what the receivable or the
// cash moves by is an exchange gain or loss, as with payments.

export type CreditEntryKind =
  | 'overpayment'
  | 'credit_note'
  | 'applied'
  | 'refund'
  | 'payment_removed'
  | 'credit_note_voided'
  | 'exchange';

type EntryInput = {
  customerId: string;
  currency: string;
  date: string;
  kind: CreditEntryKind;
  amount: number;
  amountBase: number;
  exchangeRate?: string;
  receivableBase?: number;
  invoiceId?: string | null;
  paymentId?: string | null;
  creditNoteId?: string | null;
  moneyAccountId?: string | null;
  journalEntryId?: string | null;
  reference?: string;
};

const insertEntry = async (trx: Executor, actor: Actor, e: EntryInput) => {
  const id = randomUUID();
  await trx
    .insertInto('customer_credit_entries')
    .values({
      organization_id: actor.organizationId,
      id,
      customer_id: e.customerId,
      currency: e.currency,
      date: e.date,
      kind: e.kind,
      amount: e.amount,
      amount_base: e.amountBase,
      exchange_rate: e.exchangeRate ?? '1',
      receivable_base: e.receivableBase ?? 0,
      invoice_id: e.invoiceId ?? null,
      payment_id: e.paymentId ?? null,
      credit_note_id: e.creditNoteId ?? null,
      money_account_id: e.moneyAccountId ?? null,
      journal_entry_id: e.journalEntryId ?? null,
      reference: e.reference ?? '',
      created_by: actor.userId,
      created_at: actor.now,
    })
    .execute();
  return id;
};

/** Locks the customer row: every change to one customer's credit takes this lock first. */
const lockCustomer = async (trx: Executor, organizationId: string, customerId: string) => {
  const row = await trx
    .selectFrom('customers')
    .select(['id', 'name', 'currency'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', customerId)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('Customer not found.');
  return row;
};

/** The customer's credit in one currency: amount and its base carrying amount. */
export const creditPool = async (
  db: Executor,
  organizationId: string,
  customerId: string,
  currency: string,
) => {
  const row = await db
    .selectFrom('customer_credit_entries')
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('amount'),
      eb.fn.coalesce(eb.fn.sum<number>('amount_base'), eb.lit(0)).as('base'),
    ])
    .where('organization_id', '=', organizationId)
    .where('customer_id', '=', customerId)
    .where('currency', '=', currency)
    .executeTakeFirstOrThrow();
  return { amount: Number(row.amount), base: Number(row.base) };
};

/** The base released when `amount` of the pool is used: its share of the carrying amount. */
const releasedBase = (pool: { amount: number; base: number }, amount: number) =>
  amount === pool.amount ? pool.base : Math.round((pool.base * amount) / pool.amount);

/** The rate the customer's latest credit in this currency came in at (for a refund's default). */
const latestRate = async (db: Executor, organizationId: string, customerId: string, currency: string) => {
  const row = await db
    .selectFrom('customer_credit_entries')
    .select('exchange_rate')
    .where('organization_id', '=', organizationId)
    .where('customer_id', '=', customerId)
    .where('currency', '=', currency)
    .where('amount', '>', 0)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.exchange_rate ?? '1';
};

const refuseMoreThanCredit = (amount: number, available: number, currency: string) =>
  badRequest(
    'exceeds_credit',
    available <= 0
      ? `The customer has no ${currency} credit to use.`
      : `${describeAmount(amount, currency)} is more than the customer's ${describeAmount(available, currency)} of ${currency} credit.`,
    { available },
  );

/**
 * Records credit that a posting (a payment or a credit note, in the caller's transaction)
 * has just credited to the customer credit account. Takes the customer lock.
 */
export const addCredit = async (
  trx: Executor,
  actor: Actor,
  entry: Omit<EntryInput, 'kind'> & { kind: 'overpayment' | 'credit_note' },
) => {
  await lockCustomer(trx, actor.organizationId, entry.customerId);
  return insertEntry(trx, actor, entry);
};

/**
 * Takes back credit whose source (a payment, a credit note) is being undone by a reversing
 * entry the caller posts: exactly the base that source added. Refused when that much credit
 * is no longer there (it was applied or refunded: undo those first). A base residue left on
 * an emptied pool (rates moved between the credits) is cleared to exchange gain or loss.
 */
export const takeBackCredit = async (
  trx: Executor,
  actor: Actor,
  entry: Omit<EntryInput, 'kind' | 'amount' | 'amountBase'> & {
    kind: 'payment_removed' | 'credit_note_voided';
    amount: number;
    amountBase: number;
  },
  what: string,
) => {
  const { organizationId } = actor;
  await lockCustomer(trx, organizationId, entry.customerId);
  const pool = await creditPool(trx, organizationId, entry.customerId, entry.currency);
  if (pool.amount < entry.amount) {
    throw conflict(
      'credit_already_used',
      `${describeAmount(entry.amount, entry.currency)} of this ${what} went to the customer's credit, and only ${describeAmount(Math.max(pool.amount, 0), entry.currency)} of that credit is left (the rest was applied or refunded). Undo those first.`,
      { available: pool.amount },
    );
  }
  await insertEntry(trx, actor, { ...entry, amount: -entry.amount, amountBase: -entry.amountBase });
  const after = { amount: pool.amount - entry.amount, base: pool.base - entry.amountBase };
  if (after.amount === 0 && after.base !== 0) {
    const [credit, fx] = await Promise.all([
      findSystemAccount(trx, organizationId, 'customer_credit'),
      findSystemAccount(trx, organizationId, 'exchange_gain_loss'),
    ]);
    const residue = after.base; // > 0: the liability still holds credit in base; < 0: it is overdrawn
    const memo = `Exchange difference on ${entry.currency} customer credit`;
    const journal = await postJournalEntry(trx, {
      organizationId,
      date: entry.date,
      memo,
      source: 'payment',
      sourceId: entry.customerId,
      lines: [
        {
          accountId: credit.id,
          ...(residue > 0 ? { debit: residue } : { credit: -residue }),
          description: memo,
          contactId: entry.customerId,
        },
        {
          accountId: fx.id,
          ...(residue > 0 ? { credit: residue } : { debit: -residue }),
          description: memo,
        },
      ],
      actorUserId: actor.userId,
    });
    await insertEntry(trx, actor, {
      customerId: entry.customerId,
      currency: entry.currency,
      date: entry.date,
      kind: 'exchange',
      amount: 0,
      amountBase: -residue,
      journalEntryId: journal.id,
    });
  }
};

/** Applies some of the customer's credit to one of their open invoices in the same currency. */
export const applyCredit = (
  db: Executor,
  actor: Actor,
  customerId: string,
  input: z.output<typeof applyCreditInputSchema>,
): Promise<Invoice> =>
  inTransaction(db, async (trx) => {
    const { organizationId } = actor;
    // Lock order everywhere: invoice, then customer.
    const row = await selectInvoice(trx, organizationId, input.invoiceId, { forUpdate: true });
    if (!row) throw notFound('Invoice not found.');
    const customer = await lockCustomer(trx, organizationId, customerId);
    if (row.customer_id !== customerId) {
      throw badRequest(
        'credit_other_customer',
        `Invoice ${row.number ?? '(draft)'} belongs to another customer; ${customer.name}'s credit can only settle their own invoices.`,
      );
    }
    const currency = row.currency.trim();
    if (row.status === 'draft')
      throw refuseTransition('paid', row.status, 'Send it first; a draft is not owed yet.');
    if (row.status === 'void')
      throw refuseTransition('paid', row.status, 'Apply the credit to another invoice.');
    if (row.status === 'paid') throw refuseTransition('paid again', row.status, 'Nothing is left to pay.');
    if (input.amount > row.amount_due) {
      throw badRequest(
        'exceeds_due',
        `${describeAmount(input.amount, currency)} is more than the ${describeAmount(row.amount_due, currency)} still due on ${row.number}.`,
        { amountDue: row.amount_due },
      );
    }
    if (input.date < row.issue_date) {
      throw badRequest(
        'credit_before_invoice',
        `Credit cannot be applied before the invoice date (${row.issue_date}).`,
      );
    }
    const pool = await creditPool(trx, organizationId, customerId, currency);
    if (pool.amount <= 0) {
      const other = await trx
        .selectFrom('customer_credit_entries')
        .select('currency')
        .where('organization_id', '=', organizationId)
        .where('customer_id', '=', customerId)
        .groupBy('currency')
        .having((eb) => eb.fn.sum('amount'), '>', 0)
        .execute();
      if (other.length > 0) {
        throw badRequest(
          'credit_currency_mismatch',
          `${customer.name}'s credit is in ${other.map((o) => o.currency.trim()).join(', ')}; invoice ${row.number} is in ${currency}. Credit only settles invoices in its own currency.`,
        );
      }
    }
    if (input.amount > pool.amount) throw refuseMoreThanCredit(input.amount, pool.amount, currency);
    const company = await loadCompany(trx, organizationId);
    const base = company.base_currency;
    const released = releasedBase(pool, input.amount);
    const clears = input.amount === row.amount_due;
    const receivableBase = clears
      ? row.balance_base
      : Math.min(row.balance_base, toBase(input.amount, currency, row.exchange_rate, base));
    const [creditAccount, receivable] = await Promise.all([
      findSystemAccount(trx, organizationId, 'customer_credit'),
      findSystemAccount(trx, organizationId, 'accounts_receivable'),
    ]);
    const memo = `Customer credit applied to invoice ${row.number}`;
    const lines: PostingLineInput[] = [];
    if (released > 0)
      lines.push({ accountId: creditAccount.id, debit: released, description: memo, contactId: customerId });
    else if (released < 0)
      lines.push({
        accountId: creditAccount.id,
        credit: -released,
        description: memo,
        contactId: customerId,
      });
    if (receivableBase > 0)
      lines.push({
        accountId: receivable.id,
        credit: receivableBase,
        description: memo,
        contactId: customerId,
      });
    const difference = released - receivableBase;
    if (difference !== 0) {
      const fx = await findSystemAccount(trx, organizationId, 'exchange_gain_loss');
      lines.push({
        accountId: fx.id,
        ...(difference > 0 ? { credit: difference } : { debit: -difference }),
        description: `Exchange ${difference > 0 ? 'gain' : 'loss'} on ${row.number}`,
      });
    }
    const entry =
      lines.length >= 2
        ? await postJournalEntry(trx, {
            organizationId,
            date: input.date,
            memo,
            reference: row.number,
            source: 'payment',
            sourceId: input.invoiceId,
            lines,
            actorUserId: actor.userId,
          })
        : null;
    const entryId = await insertEntry(trx, actor, {
      customerId,
      currency,
      date: input.date,
      kind: 'applied',
      amount: -input.amount,
      amountBase: -released,
      exchangeRate: row.exchange_rate,
      receivableBase: receivableBase,
      invoiceId: input.invoiceId,
      journalEntryId: entry?.id ?? null,
      reference: row.number ?? '',
    });
    const paid = row.amount_paid + input.amount;
    const status = settledStatus(row.total, paid, row.amount_credited);
    await trx
      .updateTable('invoices')
      .set({
        amount_paid: paid,
        balance_base: row.balance_base - receivableBase,
        status,
        updated_at: actor.now,
      })
      .where('organization_id', '=', organizationId)
      .where('id', '=', input.invoiceId)
      .execute();
    await addEvent(
      trx,
      actor,
      input.invoiceId,
      'credit_applied',
      `${describeAmount(input.amount, currency)} of ${customer.name}'s credit applied; ${status === 'paid' ? 'paid in full' : 'partially paid'}`,
    );
    await recordAudit(trx, {
      organizationId,
      actorUserId: actor.userId,
      action: 'customer_credit.applied',
      entityType: 'customer_credit_entry',
      entityId: entryId,
      before: { invoiceStatus: row.status, amountPaid: row.amount_paid, credit: pool.amount },
      after: {
        customerId,
        invoiceId: input.invoiceId,
        date: input.date,
        amount: input.amount,
        currency,
        invoiceStatus: status,
        journalEntryId: entry?.id ?? null,
      },
    });
    return getInvoice(trx, organizationId, input.invoiceId, actor.now);
  });

type RefundTarget = {
  customerId: string;
  currency: string;
  invoiceId?: string | null;
  creditNoteId?: string | null;
  /** What the refund is for, in the journal memo ("invoice INV-7", "credit note CN-2"). */
  about?: string;
};

/** Pays some of the customer's credit back out of a money account. Runs in the caller's transaction. */
const refundInTransaction = async (
  trx: Executor,
  actor: Actor,
  target: RefundTarget,
  input: z.output<typeof refundInputSchema>,
) => {
  const { organizationId } = actor;
  const { customerId, currency } = target;
  const customer = await lockCustomer(trx, organizationId, customerId);
  const money = await selectMoneyAccount(trx, organizationId, input.moneyAccountId);
  if (!money)
    throw badRequest('money_account_not_found', 'The money account does not exist in this company.');
  if (money.archived_at)
    throw badRequest('money_account_archived', `${money.name} is archived; choose another money account.`);
  const company = await loadCompany(trx, organizationId);
  const base = company.base_currency;
  const moneyCurrency = money.currency.trim();
  if (moneyCurrency !== base && moneyCurrency !== currency) {
    throw badRequest(
      'money_account_currency_mismatch',
      `${money.name} is kept in ${moneyCurrency}; a ${currency} refund is paid from a ${currency} or ${base} account.`,
    );
  }
  const pool = await creditPool(trx, organizationId, customerId, currency);
  if (input.amount > pool.amount) throw refuseMoreThanCredit(input.amount, pool.amount, currency);
  const released = releasedBase(pool, input.amount);
  const rate =
    currency === base
      ? '1'
      : (input.exchangeRate ?? (await latestRate(trx, organizationId, customerId, currency)));
  const cashBase = toBase(input.amount, currency, rate, base);
  if (cashBase <= 0) throw badRequest('refund_too_small', `The refund comes to nothing in ${base}.`);
  const creditAccount = await findSystemAccount(trx, organizationId, 'customer_credit');
  const memo = `Refund to ${customer.name}${target.about ? ` for ${target.about}` : ''}`;
  const description = input.reference ? `${memo} (${input.reference})` : memo;
  const lines: PostingLineInput[] = [
    {
      accountId: money.ledger_account_id,
      credit: cashBase,
      ...(moneyCurrency !== base ? { currency, amount: input.amount, rate } : {}),
      description,
      contactId: customerId,
    },
  ];
  if (released !== 0)
    lines.push({
      accountId: creditAccount.id,
      ...(released > 0 ? { debit: released } : { credit: -released }),
      description: memo,
      contactId: customerId,
    });
  const difference = released - cashBase;
  if (difference !== 0) {
    const fx = await findSystemAccount(trx, organizationId, 'exchange_gain_loss');
    lines.push({
      accountId: fx.id,
      ...(difference > 0 ? { credit: difference } : { debit: -difference }),
      description: `Exchange ${difference > 0 ? 'gain' : 'loss'} on refund to ${customer.name}`,
    });
  }
  const journal = await postJournalEntry(trx, {
    organizationId,
    date: input.date,
    memo,
    reference: input.reference || null,
    source: 'payment',
    sourceId: customerId,
    lines,
    actorUserId: actor.userId,
  });
  const id = await insertEntry(trx, actor, {
    customerId,
    currency,
    date: input.date,
    kind: 'refund',
    amount: -input.amount,
    amountBase: -released,
    exchangeRate: rate,
    invoiceId: target.invoiceId ?? null,
    creditNoteId: target.creditNoteId ?? null,
    moneyAccountId: money.id,
    journalEntryId: journal.id,
    reference: input.reference,
  });
  // The cash movement's line in the money account's register (bank-transactions is its writer).
  await recordDocumentLine(trx, {
    organizationId,
    ledgerAccountId: money.ledger_account_id,
    date: input.date,
    amount: -(moneyCurrency === currency ? input.amount : cashBase),
    description,
    payee: customer.name,
    entryId: journal.id,
    rate: moneyCurrency !== base ? rate : null,
    source: { kind: 'refund', id },
    invoiceId: target.invoiceId ?? null,
    createdBy: actor.userId,
  });
  if (target.invoiceId)
    await addEvent(
      trx,
      actor,
      target.invoiceId,
      'refund',
      `Refund of ${describeAmount(input.amount, currency)} paid to ${customer.name} from ${money.name}`,
    );
  await recordAudit(trx, {
    organizationId,
    actorUserId: actor.userId,
    action: 'customer_credit.refunded',
    entityType: 'customer_credit_entry',
    entityId: id,
    before: { credit: pool.amount },
    after: {
      customerId,
      currency,
      amount: input.amount,
      date: input.date,
      moneyAccountId: money.id,
      invoiceId: target.invoiceId ?? null,
      creditNoteId: target.creditNoteId ?? null,
      journalEntryId: journal.id,
    },
  });
  return { refundId: id, journalEntryId: journal.id, moneyAccountId: money.id };
};

/** A refund from the customer's credit in one currency. */
export const refundCustomerCredit = (
  db: Executor,
  actor: Actor,
  customerId: string,
  input: z.output<typeof customerRefundInputSchema>,
) =>
  inTransaction(db, async (trx) => {
    const { currency, ...rest } = input;
    const result = await refundInTransaction(trx, actor, { customerId, currency }, rest);
    return { ...result, credit: await getCustomerCredit(trx, actor.organizationId, customerId) };
  });

/** A refund of an invoice's customer's credit (an overpayment of it), from the invoice page. */
export const refundForInvoice = (
  db: Executor,
  actor: Actor,
  invoiceId: string,
  input: z.output<typeof refundInputSchema>,
) =>
  inTransaction(db, async (trx) => {
    const row = await selectInvoice(trx, actor.organizationId, invoiceId, { forUpdate: true });
    if (!row) throw notFound('Invoice not found.');
    if (row.status === 'draft')
      throw refuseTransition('refunded', row.status, 'Nothing has been paid on a draft.');
    if (row.status === 'void')
      throw refuseTransition('refunded', row.status, "Refund from the customer's credit instead.");
    await refundInTransaction(
      trx,
      actor,
      {
        customerId: row.customer_id,
        currency: row.currency.trim(),
        invoiceId,
        about: `invoice ${row.number}`,
      },
      input,
    );
    return getInvoice(trx, actor.organizationId, invoiceId, actor.now);
  });

/** Refunds (part of) what a credit note put on the customer's credit, as cash. */
export const refundCreditNote = (
  db: Executor,
  actor: Actor,
  invoiceId: string,
  creditNoteId: string,
  input: z.output<typeof refundInputSchema>,
) =>
  inTransaction(db, async (trx) => {
    const { organizationId } = actor;
    const row = await selectInvoice(trx, organizationId, invoiceId, { forUpdate: true });
    if (!row) throw notFound('Invoice not found.');
    const note = await trx
      .selectFrom('credit_notes')
      .select(['id', 'number', 'status', 'to_credit', 'currency'])
      .where('organization_id', '=', organizationId)
      .where('invoice_id', '=', invoiceId)
      .where('id', '=', creditNoteId)
      .executeTakeFirst();
    if (!note) throw notFound('Credit note not found.');
    const currency = note.currency.trim();
    if (note.status === 'void')
      throw badRequest('credit_note_void', `Credit note ${note.number} is void; there is nothing to refund.`);
    const refunded = await trx
      .selectFrom('customer_credit_entries')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('n'))
      .where('organization_id', '=', organizationId)
      .where('credit_note_id', '=', creditNoteId)
      .where('kind', '=', 'refund')
      .executeTakeFirstOrThrow();
    const refundable = note.to_credit + Number(refunded.n);
    if (refundable <= 0) {
      throw badRequest(
        'nothing_to_refund',
        note.to_credit === 0
          ? `Credit note ${note.number} only reduced what ${row.number} asked for; no money was paid for it, so there is nothing to refund.`
          : `Credit note ${note.number} has already been refunded.`,
      );
    }
    if (input.amount > refundable) {
      throw badRequest(
        'exceeds_credit',
        `${describeAmount(input.amount, currency)} is more than the ${describeAmount(refundable, currency)} of credit note ${note.number} left to refund.`,
        { available: refundable },
      );
    }
    await refundInTransaction(
      trx,
      actor,
      {
        customerId: row.customer_id,
        currency,
        invoiceId,
        creditNoteId,
        about: `credit note ${note.number}`,
      },
      input,
    );
    return getInvoice(trx, organizationId, invoiceId, actor.now);
  });

/** The customer's credit per currency, and its history (newest first). */
export const getCustomerCredit = async (
  db: Executor,
  organizationId: string,
  customerId: string,
): Promise<CustomerCredit> => {
  const customer = await db
    .selectFrom('customers')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', customerId)
    .executeTakeFirst();
  if (!customer) throw notFound('Customer not found.');
  const rows = await db
    .selectFrom('customer_credit_entries as e')
    .leftJoin('invoices as i', (j) =>
      j.onRef('i.organization_id', '=', 'e.organization_id').onRef('i.id', '=', 'e.invoice_id'),
    )
    .leftJoin('credit_notes as n', (j) =>
      j.onRef('n.organization_id', '=', 'e.organization_id').onRef('n.id', '=', 'e.credit_note_id'),
    )
    .select([
      'e.id',
      'e.date',
      'e.kind',
      'e.amount',
      'e.amount_base',
      'e.currency',
      'e.invoice_id',
      'i.number as invoice_number',
      'e.credit_note_id',
      'n.number as credit_note_number',
      'e.money_account_id',
      'e.journal_entry_id',
      'e.reference',
    ])
    .where('e.organization_id', '=', organizationId)
    .where('e.customer_id', '=', customerId)
    .orderBy('e.date', 'desc')
    .orderBy('e.created_at', 'desc')
    .orderBy('e.id', 'desc')
    .execute();
  const balances = new Map<string, { currency: string; amount: number; amountBase: number }>();
  for (const r of rows) {
    const currency = r.currency.trim();
    const b = balances.get(currency) ?? { currency, amount: 0, amountBase: 0 };
    b.amount += Number(r.amount);
    b.amountBase += Number(r.amount_base);
    balances.set(currency, b);
  }
  return {
    customerId,
    balances: [...balances.values()]
      .filter((b) => b.amount !== 0)
      .sort((a, b) => a.currency.localeCompare(b.currency)),
    entries: rows
      .filter((r) => r.kind !== 'exchange')
      .map((r) => ({
        id: r.id,
        date: r.date,
        kind: r.kind,
        amount: Number(r.amount),
        currency: r.currency.trim(),
        invoiceId: r.invoice_id,
        invoiceNumber: r.invoice_number ?? null,
        creditNoteId: r.credit_note_id,
        creditNoteNumber: r.credit_note_number ?? null,
        moneyAccountId: r.money_account_id,
        journalEntryId: r.journal_entry_id,
        reference: r.reference,
      })),
  };
};

import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import type { CreditEntryKind, CustomerCredit } from '../../../shared/invoice-credit.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { type PostingLineInput, postJournalEntry } from '../ledger/posting.ts';
import { type Actor, debitOrCredit, describeAmount } from './documents.ts';
import { type Executor, customerCreditEntries, insertCompanyRow } from './queries.ts';

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

export type EntryInput = {
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

export const insertEntry = async (trx: Executor, actor: Actor, e: EntryInput) => {
  const id = await insertCompanyRow(trx, 'customer_credit_entries', actor.organizationId, {
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
  });
  return id;
};

/** The customer's id, name and currency (locked for the transaction if asked); 404 if missing. */
export const findCustomer = async (
  db: Executor,
  organizationId: string,
  customerId: string,
  options: { forUpdate?: boolean } = {},
) => {
  const q = db
    .selectFrom('customers')
    .select(['id', 'name', 'currency'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', customerId);
  const row = await (options.forUpdate ? q.forUpdate() : q).executeTakeFirst();
  if (!row) throw notFound('Customer not found.');
  return row;
};

/** Locks the customer row: every change to one customer's credit takes this lock first. */
export const lockCustomer = (trx: Executor, organizationId: string, customerId: string) =>
  findCustomer(trx, organizationId, customerId, { forUpdate: true });

/** The customer's credit entries in one currency. */
const poolEntries = (db: Executor, organizationId: string, customerId: string, currency: string) =>
  db
    .selectFrom('customer_credit_entries')
    .where('organization_id', '=', organizationId)
    .where('customer_id', '=', customerId)
    .where('currency', '=', currency);

/** The customer's credit in one currency: amount and its base carrying amount. */
export const creditPool = async (
  db: Executor,
  organizationId: string,
  customerId: string,
  currency: string,
) => {
  const row = await poolEntries(db, organizationId, customerId, currency)
    .select((eb) => [
      eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('amount'),
      eb.fn.coalesce(eb.fn.sum<number>('amount_base'), eb.lit(0)).as('base'),
    ])
    .executeTakeFirstOrThrow();
  return { amount: Number(row.amount), base: Number(row.base) };
};

/** The base released when `amount` of the pool is used: its share of the carrying amount. */
export const releasedBase = (pool: { amount: number; base: number }, amount: number) =>
  amount === pool.amount ? pool.base : Math.round((pool.base * amount) / pool.amount);

/** The rate the customer's latest credit in this currency came in at (for a refund's default). */
export const latestRate = async (
  db: Executor,
  organizationId: string,
  customerId: string,
  currency: string,
) => {
  const row = await poolEntries(db, organizationId, customerId, currency)
    .select('exchange_rate')
    .where('amount', '>', 0)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return row?.exchange_rate ?? '1';
};

/**
 * The customer credit account's line for base taken out of the pool (> 0: a debit) or put
 * back (< 0: a credit); none for 0.
 */
export const customerCreditLines = (
  accountId: string,
  base: number,
  description: string,
  customerId: string,
): PostingLineInput[] =>
  base === 0 ? [] : [{ accountId, ...debitOrCredit(base), description, contactId: customerId }];

export const refuseMoreThanCredit = (amount: number, available: number, currency: string) =>
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
        ...customerCreditLines(credit.id, residue, memo, entry.customerId),
        { accountId: fx.id, ...debitOrCredit(-residue), description: memo },
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

/**
 * Takes back the credit a payment or a credit note kept (if it kept any), as its reversing
 * entry is posted: see takeBackCredit.
 */
export const takeBackKeptCredit = async (
  trx: Executor,
  actor: Actor,
  source: { paymentId: string } | { creditNoteId: string },
  entry: Omit<Parameters<typeof takeBackCredit>[2], 'amount' | 'amountBase'>,
  what: string,
) => {
  const kept = await trx
    .selectFrom('customer_credit_entries')
    .select(['amount', 'amount_base'])
    .where('organization_id', '=', actor.organizationId)
    .$if('paymentId' in source, (q) =>
      q
        .where('payment_id', '=', (source as { paymentId: string }).paymentId)
        .where('kind', '=', 'overpayment'),
    )
    .$if('creditNoteId' in source, (q) =>
      q
        .where('credit_note_id', '=', (source as { creditNoteId: string }).creditNoteId)
        .where('kind', '=', 'credit_note'),
    )
    .executeTakeFirst();
  if (kept)
    await takeBackCredit(trx, actor, { ...entry, amount: kept.amount, amountBase: kept.amount_base }, what);
};

/** The customer's credit per currency, and its history (newest first). */
export const getCustomerCredit = async (
  db: Executor,
  organizationId: string,
  customerId: string,
): Promise<CustomerCredit> => {
  await findCustomer(db, organizationId, customerId);
  const rows = await customerCreditEntries(db, organizationId, customerId)
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

/** The customer's credit page: balances per currency and history. */
export const readCustomerCredit = (ctx: AppContext, member: MemberContext, input: { customerId: string }) =>
  getCustomerCredit(ctx.database.db, member.organizationId, input.customerId);

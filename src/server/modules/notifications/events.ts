import { sql } from 'kysely';
import type { Formatter } from '../../../shared/format.ts';
import { currencyExponent } from '../../../shared/money.ts';
import { DEFAULT_LARGE_TRANSACTION_UNITS } from '../../../shared/notifications.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/transaction.ts';
import { loginAlertMail } from '../../auth/mails.ts';
import { type NotifyEvent, notify, notifyCompany } from './service.ts';
import { selectLargeTransactionUnits } from './queries.ts';

// The events that notify, each one call that the module where it happens makes (after its
// change, in its transaction or right after it commits). Each builds its words and link and its
// dedupe key, so the same event never notifies a user twice.

/** An amount in the recipient's formats. */
const money = (f: Formatter, minor: number, currency: string) => f.amount(minor, currency.trim());

const invoiceLabel = (number: string | null) => (number ? `Invoice ${number}` : 'An invoice');
const invoiceWords = (number: string | null) => (number ? `invoice ${number}` : 'an invoice');

/**
 * A payment recorded against an invoice (typed in, or matched from a bank line): "payment
 * received" for each, and "invoice paid" when it left nothing to pay. Reads the payments back,
 * so the caller hands over ids only.
 */
export const notifyPaymentsRecorded = async (
  ctx: AppContext,
  db: Executor,
  organizationId: string,
  paymentIds: readonly string[],
) => {
  if (paymentIds.length === 0) return;
  const rows = await db
    .selectFrom('invoice_payments as p')
    .innerJoin('invoices as i', (j) =>
      j.onRef('i.organization_id', '=', 'p.organization_id').onRef('i.id', '=', 'p.invoice_id'),
    )
    .innerJoin('customers as c', (j) =>
      j.onRef('c.organization_id', '=', 'i.organization_id').onRef('c.id', '=', 'i.customer_id'),
    )
    .select([
      'p.id as payment_id',
      'p.amount',
      'p.currency',
      'i.id as invoice_id',
      'i.number',
      'i.status',
      'i.total',
      'c.name as customer_name',
    ])
    .where('p.organization_id', '=', organizationId)
    .where('p.id', 'in', [...paymentIds])
    .execute();
  for (const r of rows) {
    const link = `/invoices?invoice=${encodeURIComponent(r.invoice_id)}`;
    await notifyCompany(ctx, db, {
      kind: 'payment_received',
      organizationId,
      title: (f) => `Payment received: ${money(f, r.amount, r.currency)}`,
      body: (f) =>
        `${r.customer_name} paid ${money(f, r.amount, r.currency)} against ${invoiceWords(r.number)}.`,
      link,
      dedupeKey: `payment-received:${r.payment_id}`,
    });
    if (r.status === 'paid') {
      await notifyCompany(ctx, db, {
        kind: 'invoice_paid',
        organizationId,
        title: `${invoiceLabel(r.number)} is paid`,
        body: (f) =>
          `${r.customer_name} has paid ${invoiceWords(r.number)} in full (${money(f, r.total, r.currency)}).`,
        link,
        dedupeKey: `invoice-paid:${r.invoice_id}:${r.payment_id}`,
      });
    }
  }
};

/** An invoice that became overdue (the overdue runner); once per invoice and due date. */
export const notifyInvoiceOverdue = (
  ctx: AppContext,
  db: Executor,
  invoice: {
    organizationId: string;
    id: string;
    number: string | null;
    customerName: string;
    dueDate: string;
    amountDue: number;
    currency: string;
  },
) =>
  notifyCompany(ctx, db, {
    kind: 'invoice_overdue',
    organizationId: invoice.organizationId,
    title: `${invoiceLabel(invoice.number)} is overdue`,
    body: (f) =>
      `${invoice.customerName} has not paid ${money(f, invoice.amountDue, invoice.currency)}, due on ${f.date(invoice.dueDate)}.`,
    link: `/invoices?invoice=${encodeURIComponent(invoice.id)}`,
    dedupeKey: `invoice-overdue:${invoice.id}:${invoice.dueDate}`,
  });

/** The company's threshold: whole units of a transaction's currency (a company setting). */
export const largeTransactionUnits = async (db: Executor, organizationId: string) =>
  (await selectLargeTransactionUnits(db, organizationId)) ?? DEFAULT_LARGE_TRANSACTION_UNITS;

/** Whether an amount (minor units) is at least `units` whole units of its currency, either way. */
export const isLargeAmount = (amount: number, currency: string, units: number) =>
  BigInt(Math.abs(amount)) >= thresholdMinor(units, currency);

/** At most this many "large transaction" notifications per statement import (the rest summed up). */
export const MAX_LARGE_PER_IMPORT = 10;

const thresholdMinor = (units: number, currency: string) =>
  BigInt(units) * 10n ** BigInt(currencyExponent(currency.trim()));

type BankLine = {
  id: string;
  amount: number | string;
  date: string;
  description: string;
  currency: string;
  money_id: string;
  money_name: string;
};

const notifyLargeLine = (ctx: AppContext, db: Executor, organizationId: string, r: BankLine) => {
  const amount = Number(r.amount);
  return notifyCompany(ctx, db, {
    kind: 'large_transaction',
    organizationId,
    title: (f) => `Large transaction: ${money(f, amount, r.currency)}`,
    body: (f) =>
      `${amount < 0 ? 'Money out' : 'Money in'} of ${money(f, Math.abs(amount), r.currency)} in ${r.money_name} on ${f.date(r.date)}: ${r.description}`.slice(
        0,
        500,
      ),
    link: `/transactions?account=${encodeURIComponent(r.money_id)}`,
    dedupeKey: `large-transaction:${r.id}`,
  });
};

/**
 * New bank lines, typed in (`transactionIds`) or from one statement import (`importIds`, with
 * the import's counts, which the import service knows): a notification per line at or above the
 * company's threshold (for an import, its MAX_LARGE_PER_IMPORT largest, found through the amount
 * index, so a 100,000-line statement reads only its large lines), and for an import one "N
 * transactions need a category" when any of its lines still need one.
 */
export const notifyBankLinesAdded = async (
  ctx: AppContext,
  db: Executor,
  organizationId: string,
  added: {
    transactionIds?: readonly string[];
    importIds?: readonly string[];
    imported?: number;
    uncategorized?: number;
  },
) => {
  const units = await largeTransactionUnits(db, organizationId);
  const lines = db
    .selectFrom('bank_transactions as t')
    .innerJoin('money_accounts as m', (j) =>
      j.onRef('m.organization_id', '=', 't.organization_id').onRef('m.id', '=', 't.money_account_id'),
    )
    .select([
      't.id',
      't.amount',
      't.date',
      't.description',
      'm.currency',
      'm.id as money_id',
      'm.name as money_name',
    ])
    .where('t.organization_id', '=', organizationId);
  if (added.transactionIds?.length) {
    for (const r of await lines.where('t.id', 'in', [...added.transactionIds]).execute()) {
      if (isLargeAmount(Number(r.amount), r.currency, units))
        await notifyLargeLine(ctx, db, organizationId, r);
    }
  }
  const importIds = [...(added.importIds ?? [])];
  if (importIds.length === 0) return;
  const accounts = await db
    .selectFrom('statement_imports as s')
    .innerJoin('money_accounts as m', (j) =>
      j.onRef('m.organization_id', '=', 's.organization_id').onRef('m.id', '=', 's.money_account_id'),
    )
    .select(['s.id as import_id', 'm.id', 'm.name', 'm.currency'])
    .where('s.organization_id', '=', organizationId)
    .where('s.id', 'in', importIds)
    .orderBy('s.id')
    .execute();
  if (accounts.length === 0) return;
  for (const currency of new Set(accounts.map((a) => a.currency.trim()))) {
    const floor = thresholdMinor(units, currency).toString();
    const ofCurrency = accounts.filter((a) => a.currency.trim() === currency).map((a) => a.import_id);
    const large = await lines
      .where((eb) =>
        eb.or([
          eb('t.amount', '>=', sql<number>`${floor}::bigint`),
          eb('t.amount', '<=', sql<number>`-${floor}::bigint`),
        ]),
      )
      .where('t.import_id', 'in', ofCurrency)
      .orderBy(sql`abs(t.amount)`, 'desc')
      .orderBy('t.id')
      .limit(MAX_LARGE_PER_IMPORT)
      .execute();
    for (const r of large) await notifyLargeLine(ctx, db, organizationId, r);
  }
  const open = added.uncategorized ?? 0;
  if (open <= 0) return;
  const first = accounts.find((a) => a.import_id === importIds[0]) ?? accounts[0]!;
  const into = new Set(accounts.map((a) => a.name));
  await notifyCompany(ctx, db, {
    kind: 'uncategorized_transactions',
    organizationId,
    title: open === 1 ? '1 transaction needs a category' : `${open} transactions need a category`,
    body: `The statement imported into ${[...into].join(', ')} added ${added.imported ?? open} transactions; ${open} of them need a category.`,
    link: `/transactions?account=${encodeURIComponent(first.id)}`,
    dedupeKey: `uncategorized:${importIds[0]}`,
  });
};

/**
 * A bank feed that failed (issue 18 brings bank feeds; nothing calls this yet). Once per feed,
 * error and day.
 */
export const notifyBankFeedError = (
  ctx: AppContext,
  db: Executor,
  feed: {
    organizationId: string;
    connectionId: string;
    institution: string | null;
    error: string;
    day: string;
  },
) => {
  const bank = feed.institution ?? 'your bank';
  return notifyCompany(ctx, db, {
    kind: 'bank_feed_error',
    organizationId: feed.organizationId,
    title: `Bank connection to ${bank} needs attention`,
    body: `Kontor could not fetch new transactions from ${bank}: ${feed.error}`.slice(0, 500),
    link: '/wallet',
    dedupeKey: `bank-feed-error:${feed.connectionId}:${feed.error.slice(0, 100)}:${feed.day}`,
  });
};

/** A sign-in from a device the user had not signed in with before (login alerts on). */
export const notifyNewSignIn = (
  ctx: AppContext,
  db: Executor,
  signIn: {
    userId: string;
    eventId: string;
    at: Date;
    ip: string | null;
    device: string;
    userAgent: string | null;
  },
) => {
  const event: NotifyEvent = {
    kind: 'new_sign_in',
    organizationId: null,
    title: 'New sign-in from a new device',
    body: `${signIn.device}${signIn.ip ? ` (IP ${signIn.ip})` : ''} signed in to your account. If this was not you, change your password and sign out the other sessions in Settings → Security.`,
    link: '/settings?tab=security',
    dedupeKey: `sign-in:${signIn.eventId}`,
    mail: (to, f) =>
      loginAlertMail(to, {
        at: `${f.dateTime(signIn.at)} (${f.prefs.timeZone})`,
        ip: signIn.ip ?? 'unknown',
        device: signIn.userAgent ? `${signIn.device} (${signIn.userAgent})` : signIn.device,
        settingsUrl: `${ctx.config.publicUrl}/settings?tab=security`,
      }),
  };
  return notify(ctx, db, event, [signIn.userId]);
};

import { randomBytes } from 'node:crypto';
import type { WebhookEventData, WebhookEventType, WebhookPayload } from '../../../shared/webhooks.ts';
import type { Executor } from '../../db/transaction.ts';
import { sendJob } from '../jobs/queue.ts';
import { selectSubscribedEndpoints, webhookDb } from './queries.ts';

// The outbox (docs/webhooks.md, decision 0039). `emitWebhookEvent` is called where a change
// happens, with that change's transaction: it writes the event, one delivery per enabled
// endpoint that takes its type, and a `webhook.deliver` job per delivery, all in the same
// transaction — so a change that rolls back sends nothing, and one that commits is delivered
// even if the process stops right after (the jobs are rows). A company without a subscribed
// endpoint pays one indexed read per change and writes nothing; the payload is only built
// (often a read of the changed row) when someone will receive it.

/** The job queue of webhook deliveries: one job per attempt (deliver.ts). */
export const WEBHOOK_JOB = 'webhook.deliver';
export type WebhookJob = { organizationId: string; deliveryId: string; attempt: number };

/** Job bookkeeping failures (not the receiver's answers, which deliver.ts schedules) retry twice. */
export const WEBHOOK_JOB_RETRY = { retryLimit: 2, retryDelaySeconds: 5 };

const randomId = (prefix: string) => `${prefix}_${randomBytes(16).toString('base64url')}`;

/** Whose event and when: an invoice `Actor`, or `{ organizationId, now: ctx.now() }`. */
export type EventSource = { organizationId: string; now: Date };

export type EmitOptions = {
  /** Deliver to these endpoints only (the test event), whatever they subscribe to. */
  endpointIds?: readonly string[];
};

/**
 * Records one event for the company's subscribed endpoints in `trx` (the change's
 * transaction). `data` may be a function, called only when an endpoint will receive the event.
 * Answers the event's id and its deliveries, or null when no endpoint takes it.
 */
export const emitWebhookEvent = async <T extends WebhookEventType>(
  trx: Executor,
  source: EventSource,
  type: T,
  data: WebhookEventData<T> | (() => Promise<WebhookEventData<T> | null>),
  options: EmitOptions = {},
): Promise<{ eventId: string; deliveryIds: string[] } | null> => {
  const { organizationId, now } = source;
  const endpointIds = options.endpointIds ?? (await selectSubscribedEndpoints(trx, organizationId, type));
  if (endpointIds.length === 0) return null;
  const resolved = typeof data === 'function' ? await data() : data;
  if (resolved === null) return null;
  const eventId = randomId('msg');
  const payload: WebhookPayload = { type, timestamp: now.toISOString(), data: resolved };
  const db = webhookDb(trx);
  await db
    .insertInto('webhook_events')
    .values({
      organization_id: organizationId,
      id: eventId,
      type,
      payload: JSON.stringify(payload),
      created_at: now,
    })
    .execute();
  const deliveryIds = endpointIds.map(() => randomId('whd'));
  await db
    .insertInto('webhook_deliveries')
    .values(
      endpointIds.map((endpointId, i) => ({
        organization_id: organizationId,
        id: deliveryIds[i]!,
        endpoint_id: endpointId,
        event_id: eventId,
        next_attempt_at: now,
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
  for (const deliveryId of deliveryIds) {
    await sendJob<WebhookJob>(
      trx,
      WEBHOOK_JOB,
      { organizationId, deliveryId, attempt: 0 },
      { ...WEBHOOK_JOB_RETRY, now },
    );
  }
  return { eventId, deliveryIds };
};

// --- The payloads of the catalogue's events, read from the changed rows --------------------

const invoiceData = async (db: Executor, organizationId: string, id: string) => {
  const r = await db
    .selectFrom('invoices')
    .select([
      'id',
      'number',
      'customer_id',
      'status',
      'currency',
      'total',
      'amount_paid',
      'amount_due',
      'issue_date',
      'due_date',
    ])
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();
  return r
    ? {
        id: r.id,
        number: r.number,
        customerId: r.customer_id,
        status: String(r.status),
        currency: r.currency.trim(),
        total: Number(r.total),
        amountPaid: Number(r.amount_paid),
        amountDue: Number(r.amount_due),
        issueDate: r.issue_date,
        dueDate: r.due_date,
      }
    : null;
};

type InvoiceEvent = 'invoice.created' | 'invoice.sent' | 'invoice.paid' | 'invoice.overdue';

/** An invoice event (created, sent, paid, overdue) with the invoice as it is now. */
export const emitInvoiceEvent = (trx: Executor, source: EventSource, type: InvoiceEvent, invoiceId: string) =>
  emitWebhookEvent(trx, source, type, () => invoiceData(trx, source.organizationId, invoiceId));

type BillEvent = 'bill.approved' | 'bill.paid';

/** A bill event (approved, paid) with the bill as it is now. */
export const emitBillEvent = (trx: Executor, source: EventSource, type: BillEvent, billId: string) =>
  emitWebhookEvent(trx, source, type, async () => {
    const { organizationId } = source;
    const r = await trx
      .selectFrom('bills')
      .select([
        'id',
        'number',
        'supplier_id',
        'status',
        'currency',
        'total',
        'amount_paid',
        'amount_due',
        'issue_date',
        'due_date',
      ])
      .where('organization_id', '=', organizationId)
      .where('id', '=', billId)
      .executeTakeFirst();
    return r
      ? {
          id: r.id,
          number: r.number,
          supplierId: r.supplier_id,
          status: String(r.status),
          currency: r.currency.trim(),
          total: Number(r.total),
          amountPaid: Number(r.amount_paid),
          amountDue: Number(r.amount_due),
          issueDate: r.issue_date,
          dueDate: r.due_date,
        }
      : null;
  });

type TransactionEvent = 'transaction.created' | 'transaction.categorized';

/** A bank transaction event (added by hand, categorised) with the line as it is now. */
export const emitTransactionEvent = (
  trx: Executor,
  source: EventSource,
  type: TransactionEvent,
  transactionId: string,
) =>
  emitWebhookEvent(trx, source, type, async () => {
    const { organizationId } = source;
    const r = await trx
      .selectFrom('bank_transactions as t')
      .innerJoin('money_accounts as m', (j) =>
        j.onRef('m.organization_id', '=', 't.organization_id').onRef('m.id', '=', 't.money_account_id'),
      )
      .select([
        't.id',
        't.money_account_id',
        't.date',
        't.description',
        't.payee',
        't.amount',
        'm.currency',
        't.status',
        't.category_kind',
        't.category_account_id',
      ])
      .where('t.organization_id', '=', organizationId)
      .where('t.id', '=', transactionId)
      .executeTakeFirst();
    return r
      ? {
          id: r.id,
          moneyAccountId: r.money_account_id,
          date: r.date,
          description: r.description,
          payee: r.payee,
          amount: Number(r.amount),
          currency: r.currency.trim(),
          status: r.status,
          categoryKind: r.category_kind,
          categoryAccountId: r.category_account_id,
        }
      : null;
  });

/**
 * Payments recorded against invoices (typed in or matched from a bank line): `payment.received`
 * for each. (`invoice.paid` comes from the settlement itself, invoices/documents.ts, whatever
 * settled the invoice: a payment, a bank match or a credit.)
 */
export const emitPaymentsRecorded = async (
  trx: Executor,
  source: EventSource,
  paymentIds: readonly string[],
) => {
  const { organizationId } = source;
  if (paymentIds.length === 0) return;
  const rows = await trx
    .selectFrom('invoice_payments as p')
    .select(['p.id', 'p.invoice_id', 'p.date', 'p.amount', 'p.currency', 'p.method', 'p.reference'])
    .where('p.organization_id', '=', organizationId)
    .where('p.id', 'in', [...paymentIds])
    .orderBy('p.id')
    .execute();
  for (const r of rows) {
    await emitWebhookEvent(trx, source, 'payment.received', {
      id: r.id,
      invoiceId: r.invoice_id,
      date: r.date,
      amount: Number(r.amount),
      currency: r.currency.trim(),
      method: r.method,
      reference: String(r.reference),
    });
  }
};

import { z } from 'zod';
import { cursorPage, cursorQuery } from './schema-parts.ts';

// Outgoing webhooks (issue 19 item 3; docs/webhooks.md): the event catalogue — one payload
// schema per event type, each inside the envelope `{ type, timestamp, data }` — and the shapes
// of the endpoint, delivery and event routes. The OpenAPI document shows the catalogue
// (`webhooks` section), so it is the one description integrators read.

const minor = z.number().int().describe('An amount in minor units (cents) of `currency`');
const isoDay = z.string().describe('A calendar date, YYYY-MM-DD');

const invoiceData = z.object({
  id: z.string(),
  number: z.string().nullable(),
  customerId: z.string(),
  status: z.string(),
  currency: z.string(),
  total: minor,
  amountPaid: minor,
  amountDue: minor,
  issueDate: isoDay,
  dueDate: isoDay,
});

const billData = z.object({
  id: z.string(),
  number: z.string(),
  supplierId: z.string(),
  status: z.string(),
  currency: z.string(),
  total: minor,
  amountPaid: minor,
  amountDue: minor,
  issueDate: isoDay,
  dueDate: isoDay,
});

const transactionData = z.object({
  id: z.string(),
  moneyAccountId: z.string(),
  date: isoDay,
  description: z.string(),
  payee: z.string().nullable(),
  amount: minor.describe('Signed: money in is positive, money out negative (minor units)'),
  currency: z.string(),
  status: z.enum(['uncategorized', 'categorized', 'reconciled']),
  categoryKind: z.string(),
  categoryAccountId: z.string().nullable(),
});

/** Each event type's `data`. */
export const WEBHOOK_EVENT_DATA = {
  'invoice.created': invoiceData,
  'invoice.sent': invoiceData,
  'invoice.paid': invoiceData,
  'invoice.overdue': invoiceData,
  'payment.received': z.object({
    id: z.string(),
    invoiceId: z.string(),
    date: isoDay,
    amount: minor,
    currency: z.string(),
    method: z.string(),
    reference: z.string(),
  }),
  'bill.approved': billData,
  'bill.paid': billData,
  'transaction.created': transactionData,
  'transaction.categorized': transactionData,
  'transactions.imported': z.object({
    importId: z.string(),
    moneyAccountId: z.string(),
    imported: z.number().int(),
    uncategorized: z.number().int(),
  }),
  'member.joined': z.object({ userId: z.string(), email: z.string(), role: z.string() }),
  'bank_feed.error': z.object({
    connectionId: z.string(),
    institution: z.string().nullable(),
    code: z.string().describe("The provider's error code, e.g. ITEM_LOGIN_REQUIRED"),
    message: z.string(),
  }),
  'webhook.test': z.object({ endpointId: z.string(), message: z.string() }),
} as const;

export type WebhookEventType = keyof typeof WEBHOOK_EVENT_DATA;
export const WEBHOOK_EVENT_TYPES = Object.keys(WEBHOOK_EVENT_DATA) as WebhookEventType[];
export type WebhookEventData<T extends WebhookEventType> = z.infer<(typeof WEBHOOK_EVENT_DATA)[T]>;

/** What an endpoint can subscribe to (every type but the test event, which goes to one endpoint on request). */
export const SUBSCRIBABLE_EVENT_TYPES = WEBHOOK_EVENT_TYPES.filter((t) => t !== 'webhook.test');

export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'invoice.created': 'An invoice was created (draft or recurring)',
  'invoice.sent': 'An invoice was sent (issued)',
  'invoice.paid': 'An invoice was paid in full',
  'invoice.overdue': 'An invoice became overdue',
  'payment.received': 'A payment was recorded against an invoice',
  'bill.approved': 'A bill was approved',
  'bill.paid': 'A bill was paid in full',
  'transaction.created': 'A bank transaction was added by hand',
  'transaction.categorized': 'A bank transaction was categorised',
  'transactions.imported': 'A bank statement was imported (one event per import)',
  'member.joined': 'Someone joined the company',
  'bank_feed.error': 'A bank feed failed to fetch transactions',
  'webhook.test': 'A test event sent from the settings page',
};

/** The JSON body of every webhook: `{ type, timestamp, data }`. */
export const webhookEnvelope = <T extends WebhookEventType>(type: T) =>
  z.object({
    type: z.literal(type),
    timestamp: z.string().describe('When the event happened (ISO 8601, UTC)'),
    data: WEBHOOK_EVENT_DATA[type],
  });

export type WebhookPayload = { type: WebhookEventType; timestamp: string; data: unknown };

const eventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES as [WebhookEventType, ...WebhookEventType[]]);
const subscribableTypeSchema = z.enum(SUBSCRIBABLE_EVENT_TYPES as [WebhookEventType, ...WebhookEventType[]]);

const urlText = z
  .string()
  .trim()
  .min(1, 'Enter the URL that receives the webhooks.')
  .max(2000, 'The URL is longer than 2,000 characters.')
  .refine((s) => {
    try {
      const u = new URL(s);
      return u.protocol === 'https:' || u.protocol === 'http:';
    } catch {
      return false;
    }
  }, 'Enter a full http(s) URL, e.g. https://example.com/webhooks.');

export const webhookEndpointInputSchema = z.object({
  url: urlText,
  description: z.string().trim().max(200).default(''),
  /** null: every event type, including ones added later. */
  eventTypes: z.array(subscribableTypeSchema).min(1).max(50).nullable().default(null),
});
export type WebhookEndpointInput = z.input<typeof webhookEndpointInputSchema>;

export const webhookEndpointUpdateSchema = z.object({
  url: urlText.optional(),
  description: z.string().trim().max(200).optional(),
  eventTypes: z.array(subscribableTypeSchema).min(1).max(50).nullable().optional(),
});
export type WebhookEndpointUpdate = z.input<typeof webhookEndpointUpdateSchema>;

export const webhookEndpointEnableSchema = z.object({ enabled: z.boolean() });

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  eventTypes: z.array(eventTypeSchema).nullable(),
  enabled: z.boolean(),
  disabledReason: z.string().nullable(),
  disabledAt: z.string().nullable(),
  failureStreak: z.number().int(),
  failingSince: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;

export const webhookEndpointListSchema = z.object({ endpoints: z.array(webhookEndpointSchema) });

/** The answer that carries the signing secret (on create, on rotate, and on asking for it). */
export const webhookEndpointWithSecretSchema = webhookEndpointSchema.extend({
  secret: z.string().describe('The Standard Webhooks signing secret, `whsec_` + base64'),
});
export type WebhookEndpointWithSecret = z.infer<typeof webhookEndpointWithSecretSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

export const webhookDeliverySchema = z.object({
  id: z.string(),
  endpointId: z.string(),
  eventId: z.string(),
  eventType: eventTypeSchema,
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  attempts: z.number().int(),
  nextAttemptAt: z.string().nullable(),
  lastAttemptAt: z.string().nullable(),
  responseStatus: z.number().int().nullable(),
  durationMs: z.number().int().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

export const webhookDeliveryDetailSchema = webhookDeliverySchema.extend({
  request: z
    .object({ headers: z.record(z.string(), z.string()), body: z.string() })
    .nullable()
    .describe('The last attempt: what was sent'),
  response: z
    .object({ status: z.number().int(), headers: z.record(z.string(), z.string()), body: z.string() })
    .nullable()
    .describe('The last answer (its body cut to 4 KB), or null when none came'),
});
export type WebhookDeliveryDetail = z.infer<typeof webhookDeliveryDetailSchema>;

export const webhookDeliveryPageSchema = cursorPage('deliveries', webhookDeliverySchema);
export type WebhookDeliveryPage = z.infer<typeof webhookDeliveryPageSchema>;

export const webhookDeliveryQuerySchema = z.object({
  ...cursorQuery(100, 25),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES).optional(),
});

export const webhookEventTypesSchema = z.object({
  types: z.array(z.object({ type: eventTypeSchema, label: z.string() })),
});

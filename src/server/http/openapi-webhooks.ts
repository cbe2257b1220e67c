import { z } from 'zod';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENT_TYPES, webhookEnvelope } from '../../shared/webhooks.ts';

// The webhook event catalogue in the OpenAPI document (docs/webhooks.md): one schema per event
// type, `WebhookEvent_<type>` (the envelope `{ type, timestamp, data }` with that type's data),
// and an `x-webhooks` entry per type (the document is OpenAPI 3.0, which has no `webhooks`
// section; Redoc and Scalar read `x-webhooks`) describing the signed POST an endpoint receives.

type JsonSchema = Record<string, unknown>;

const schemaName = (type: string) => `WebhookEvent_${type.replace(/[^A-Za-z0-9_]/g, '_')}`;

const HEADERS_NOTE =
  'Signed per Standard Webhooks: headers `webhook-id` (the event id, `msg_…`, the same on every retry), `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` with the endpoint secret). Answer 2xx within 10 seconds; anything else is retried for about 3 days. Guide: docs/webhooks.md.';

export const webhookOpenApi = () => {
  const schemas: Record<string, JsonSchema> = {};
  const operations: Record<string, unknown> = {};
  for (const type of WEBHOOK_EVENT_TYPES) {
    const schema = z.toJSONSchema(webhookEnvelope(type), { target: 'openapi-3.0' }) as JsonSchema;
    delete schema.$schema;
    const name = schemaName(type);
    schemas[name] = { ...schema, description: WEBHOOK_EVENT_LABELS[type] };
    operations[type] = {
      post: {
        summary: WEBHOOK_EVENT_LABELS[type],
        description: HEADERS_NOTE,
        tags: ['webhooks'],
        parameters: ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((header) => ({
          in: 'header',
          name: header,
          required: true,
          schema: { type: 'string' },
        })),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
        },
        responses: { '200': { description: 'Received (any 2xx).' } },
      },
    };
  }
  return { schemas, operations };
};

import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { errorBody } from './errors.ts';
import { MAX_PARAM_LENGTH } from './input.ts';
import { webhookOpenApi } from './openapi-webhooks.ts';
import type { RouteDoc } from './routes.ts';

// The OpenAPI document at /api/openapi.json (docs/api.md): the routes' zod schemas turned into
// JSON Schema by fastify-type-provider-zod, plus, from one place, every error answer a route
// can give. A route's statuses follow from what it is — its path parameters, query and body,
// who may call it (routes.ts `RouteDoc`), whether it changes data or takes an Idempotency-Key —
// and from the statuses it documents itself (`otherResponses`). Each 4xx/5xx is one shared
// response in the `{ error: { code, message, details? } }` shape; a 204 has no body.
// src/server/fuzz.test.ts checks every answer against this document.

type JsonSchema = Record<string, unknown>;
type Operation = {
  parameters?: { in: string; name: string }[];
  requestBody?: unknown;
  responses: Record<string, JsonSchema>;
  security?: Record<string, string[]>[];
};
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components?: Record<string, Record<string, unknown>>;
  tags?: { name: string; description?: string }[];
};

const ERROR_SCHEMA = z.toJSONSchema(errorBody, { target: 'openapi-3.0' }) as JsonSchema;
delete ERROR_SCHEMA.$schema;

/** The shared error responses: their names in components.responses and what each means here. */
const ERRORS: Record<number, [name: string, description: string]> = {
  400: [
    'BadRequest',
    'The request is not valid: a field fails its schema (`validation_failed`, `details` lists each field), the JSON does not parse, the address has a malformed %XX sequence (`bad_url`), text holds a NUL character or a lone surrogate, or a rule of the operation refuses it (its own `code`).',
  ],
  401: [
    'Unauthorized',
    'Not signed in (`unauthorized`): send the session cookie or `Authorization: Bearer <token>`. With an API key: the key is malformed or unknown (`api_key_invalid`, also when its creator has left the company), revoked (`api_key_revoked`) or expired (`api_key_expired`), or the route is not a company route (`api_key_not_accepted`).',
  ],
  402: [
    'PaymentRequired',
    "The company's billing account is read-only (`account_read_only`: the trial ended unpaid; reads still work) or a plan limit is reached (`plan_limit`, `details` names the limit and the plan that lifts it).",
  ],
  403: [
    'Forbidden',
    "Not allowed: the member's role cannot do this (`forbidden`), a platform-admin route (`admin_only`), a development tool asked from another machine, a state-changing request from a page on an address the server does not trust (`untrusted_origin`), an API key without the scope the operation needs (`api_key_scope`, the message names it), or an API key on members, invitations, company settings or API keys (`api_key_not_allowed`).",
  ],
  404: [
    'NotFound',
    `Not found (\`not_found\`): no such record, a company the user is not a member of (its existence is not revealed), or a path parameter longer than ${MAX_PARAM_LENGTH} characters.`,
  ],
  409: [
    'Conflict',
    "The request conflicts with the current state: a rule of the operation (e.g. a locked period, a document that is no longer a draft), a record that already exists (`already_exists`) or is still used (`still_referenced`), the ledger's volume limit (`ledger_limit_reached`), or an Idempotency-Key reused for another request (`idempotency_key_reused`) or still running (`idempotency_in_progress`).",
  ],
  410: ['Gone', 'The link or invitation has expired or was already used.'],
  413: ['PayloadTooLarge', "The body is over the limit: 5 MB, or the operation's own (uploads)."],
  415: [
    'UnsupportedMediaType',
    'The body is in a content type the operation does not read (JSON unless the operation lists another), or an upload is of a kind the product does not store.',
  ],
  429: [
    'TooManyRequests',
    'Too many requests (`rate_limited`): wait the seconds `Retry-After` names. The API allows a number of requests a minute per session or, anonymous, per address; some operations have their own, lower limit.',
  ],
  431: ['RequestHeaderFieldsTooLarge', 'The address or the headers are over 16 KB (`headers_too_large`).'],
  500: ['InternalError', 'A fault on the server (`internal_error`); it is logged. Try again.'],
  503: ['ServiceUnavailable', 'The service cannot answer now.'],
};

const RATE_LIMIT_HEADERS = {
  'retry-after': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
  'x-ratelimit-limit': { description: 'Requests allowed in the window.', schema: { type: 'integer' } },
  'x-ratelimit-remaining': { description: 'Requests left in the window.', schema: { type: 'integer' } },
  'x-ratelimit-reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
};

const errorResponse = (status: number) => ({
  description: ERRORS[status]?.[1] ?? 'An error.',
  ...(status === 429 && { headers: RATE_LIMIT_HEADERS }),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const IDEMPOTENCY_KEY = {
  in: 'header',
  name: 'Idempotency-Key',
  required: false,
  description:
    'Makes a retry safe: a repeat with the same key and body answers the first answer again (`Idempotent-Replayed: true`) without doing it twice; the same key with another body is 409 `idempotency_key_reused`. 1-200 visible ASCII characters, per company.',
  schema: { type: 'string', minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' },
};

/** Success answers that are files, not JSON: any of these types, as bytes. */
const fileContent = (types: string[]) =>
  Object.fromEntries(
    types.map((type) => [
      type,
      { schema: type === 'application/json' ? { type: 'object' } : { type: 'string', format: 'binary' } },
    ]),
  );

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type RouteFacts = {
  statuses: Set<number>;
  session: boolean;
  /** A company route, which an API key may call too. */
  company?: boolean;
  idempotent: boolean;
  produces?: string[];
  answersWithoutBody?: Record<number, string>;
};

export type OpenApiExtras = {
  /** Company POSTs the read-only billing guard lets through (billing/read-only.ts): no 402. */
  readOnlyExempt: ReadonlySet<string>;
  /** Operations served outside the route declarers (Better Auth under /api/auth), merged in as they are. */
  paths?: Record<string, Record<string, Record<string, unknown>>>;
  /** Schemas those operations refer to. */
  schemas?: Record<string, unknown>;
  tags?: { name: string; description?: string }[];
};

const COMPANY = '/api/orgs/:organizationId';

/** What statuses a route can answer, from what it is. */
export const routeFacts = (
  route: Pick<RouteOptions, 'method' | 'url' | 'schema' | 'config'>,
  method: string,
  readOnlyExempt: ReadonlySet<string>,
): RouteFacts => {
  const url = route.url;
  const schema = (route.schema ?? {}) as Record<string, unknown>;
  const config = (route.config ?? {}) as { doc?: RouteDoc; rateLimit?: unknown };
  const doc = config.doc;
  const company = url === COMPANY || url.startsWith(`${COMPANY}/`) || doc?.caller === 'company';
  const admin = url.startsWith('/api/admin/') && url !== '/api/admin/me';
  const development = url.startsWith('/api/dev/');
  const session = company || admin || doc?.caller === 'user';
  const write = WRITES.has(method);
  const params = url.includes(':');
  const headers = schema.headers as { shape?: Record<string, unknown> } | undefined;
  const idempotent = Boolean(doc?.idempotent || headers?.shape?.['idempotency-key']);
  const input = params || schema.querystring !== undefined || schema.body !== undefined || idempotent;
  const statuses = new Set<number>([431, 500]);
  if (input || write) statuses.add(400);
  if (session) statuses.add(401);
  if (company && write && !readOnlyExempt.has(url)) statuses.add(402);
  if (company || admin || development || write) statuses.add(403);
  if (params || company || development) statuses.add(404);
  if (write || idempotent) statuses.add(409);
  if (write) {
    statuses.add(413);
    statuses.add(415);
  }
  if (config.rateLimit !== false) statuses.add(429);
  // With S3_* set, an attachment's bytes live in the object store: uploading or reading them
  // answers 503 storage_unavailable while it cannot be reached (decision 0043). Listing and
  // deleting do not wait for it.
  if (
    (method === 'POST' && /\/attachments$/.test(url)) ||
    (method === 'GET' && /\/attachments\/:\w+$/.test(url))
  )
    statuses.add(503);
  for (const status of Object.keys((schema.response as object | undefined) ?? {}))
    statuses.add(Number(status));
  return {
    statuses,
    session,
    company,
    idempotent,
    ...(doc?.produces && { produces: doc.produces }),
    ...(doc?.answersWithoutBody && { answersWithoutBody: doc.answersWithoutBody }),
  };
};

const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

const isErrorSchema = (response: JsonSchema) => {
  const content = response.content as Record<string, { schema?: unknown }> | undefined;
  const schema = content?.['application/json']?.schema;
  return JSON.stringify(schema) === JSON.stringify(ERROR_SCHEMA);
};

/** Applies a route's facts to its operation in the generated document. */
const completeOperation = (operation: Operation, facts: RouteFacts) => {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    const code = Number(status);
    if (code === 204) {
      // No body: nothing to describe but the status.
      responses[status] = { description: 'Done; no content.' };
    } else if (code >= 400 && (isErrorSchema(response) || !response.content)) {
      responses[status] = { $ref: `#/components/responses/${ERRORS[code]?.[0] ?? 'InternalError'}` };
    } else {
      responses[status] = response;
    }
  }
  if (facts.produces) {
    const success = Object.keys(responses).find((s) => s.startsWith('2')) ?? '200';
    const existing = responses[success];
    const hasJson = Boolean(
      (existing?.content as object | undefined) && 'application/json' in (existing!.content as object),
    );
    responses[success] = {
      description: hasJson
        ? `JSON, or the file in the media type asked for.`
        : existing?.description && existing.description !== 'Default Response'
          ? existing.description
          : 'The file.',
      content: { ...(hasJson ? (existing!.content as object) : {}), ...fileContent(facts.produces) },
    };
  }
  for (const [status, description] of Object.entries(facts.answersWithoutBody ?? {}))
    responses[status] = { description };
  for (const status of facts.statuses) {
    if (status >= 400 && !responses[status] && ERRORS[status]) {
      responses[status] = { $ref: `#/components/responses/${ERRORS[status][0]}` };
    }
  }
  for (const response of Object.values(responses)) {
    if (response.description === 'Default Response') response.description = 'Success.';
  }
  operation.responses = Object.fromEntries(
    Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)),
  );
  if (
    facts.idempotent &&
    !operation.parameters?.some((p) => p.in === 'header' && /^idempotency-key$/i.test(p.name))
  ) {
    operation.parameters = [...(operation.parameters ?? []), IDEMPOTENCY_KEY];
  }
  if (facts.session)
    operation.security = [
      { sessionCookie: [] },
      { bearerAuth: [] },
      ...(facts.company ? [{ apiKey: [] }] : []),
    ];
};

// The document's introduction, shown at the top of /api/docs: how to authenticate with a key,
// a first request, webhooks and their verification (issue 19 §4). The whole guide: docs/api.md.
const API_GUIDE = [
  'Business finance platform. Amounts are integer minor units with an ISO 4217 currency; dates are `YYYY-MM-DD`. Every error is `{ "error": { "code", "message", "details"? } }` (the sign-in operations under /api/auth answer `{ "code", "message" }`); every answer carries `x-request-id`. Guide: docs/api.md.',
  '## Authenticate with an API key',
  "An owner or admin creates a key in **Settings → API keys** (shown once). Send it as a bearer token from a server, never from a browser page. A key opens only its company's operations (`/api/orgs/{organizationId}/…`), within its scopes: `read` for GET; `write`, or the area's `invoices:write`, `bills:write`, `banking:write`, `ledger:write`, for changes. Use **Authorize → apiKey** here to try operations with it.",
  '```sh\ncurl -H "Authorization: Bearer $KONTOR_API_KEY" \\\n  "$KONTOR_URL/api/orgs/$COMPANY_ID/invoices?status=sent"\n```',
  'Changes that move money (payments, journal entries, transfers, bank transactions, statement imports) accept an `Idempotency-Key` header: a repeat returns the first answer (`idempotent-replayed: true`) and writes nothing. Recording $1,250.00 received on an invoice:',
  '```sh\ncurl -X POST -H "Authorization: Bearer $KONTOR_API_KEY" -H "Idempotency-Key: $(uuidgen)" \\\n  -H "Content-Type: application/json" "$KONTOR_URL/api/orgs/$COMPANY_ID/invoices/$INVOICE_ID/payments" \\\n  -d \'{"date": "2026-11-28", "amount": 125000, "method": "bank_transfer", "reference": "WIRE-4471"}\'\n```',
  '## Webhooks',
  'Add an endpoint in **Settings → Webhooks** (or `POST /api/orgs/{organizationId}/webhooks/endpoints`). Kontor POSTs `{ "type", "timestamp", "data" }`, signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`), and retries for 3 days. Each event\'s payload is a `WebhookEvent_<type>` schema below (Schemas), and `x-webhooks` lists them. Verify with the `standardwebhooks` package:',
  "```js\nimport { Webhook } from 'standardwebhooks';\nconst wh = new Webhook(process.env.KONTOR_WEBHOOK_SECRET); // whsec_…\n// rawBody: the request body exactly as received (a string or Buffer)\nconst event = wh.verify(rawBody, {\n  'webhook-id': req.headers['webhook-id'],\n  'webhook-timestamp': req.headers['webhook-timestamp'],\n  'webhook-signature': req.headers['webhook-signature'],\n}); // throws when the signature or timestamp is wrong\n```",
].join('\n\n');

/** @fastify/swagger's options: the document's head, the zod transform, and the error answers. */
export const openApiOptions = (ctx: AppContext, extras: OpenApiExtras): FastifyDynamicSwaggerOptions => {
  const facts = new Map<string, RouteFacts>();
  return {
    openapi: {
      info: {
        title: 'Kontor API',
        description: API_GUIDE,
        version: ctx.config.version,
      },
      servers: [{ url: ctx.config.publicUrl }],
    },
    transform: (input) => {
      const route = input.route as RouteOptions;
      for (const method of [route.method].flat()) {
        facts.set(
          `${String(method).toLowerCase()} ${openApiPath(input.url)}`,
          routeFacts(route, String(method), extras.readOnlyExempt),
        );
      }
      return jsonSchemaTransform(input);
    },
    transformObject: (input) => {
      const document = (input as unknown as { openapiObject: Document }).openapiObject;
      for (const [path, methods] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(methods)) {
          const found = facts.get(`${method} ${path}`);
          if (found) completeOperation(operation, found);
        }
      }
      Object.assign(document.paths, extras.paths as Document['paths']);
      document.components = {
        ...document.components,
        schemas: { ...document.components?.schemas, Error: ERROR_SCHEMA, ...extras.schemas },
        responses: Object.fromEntries(
          Object.entries(ERRORS).map(([status, [name]]) => [name, errorResponse(Number(status))]),
        ),
        securitySchemes: {
          sessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'better-auth.session_token',
            description:
              'The session cookie sign-in sets (`__Secure-better-auth.session_token` over HTTPS in production).',
          },
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'The session token (the `set-auth-token` header of sign-in and sign-up).',
          },
          apiKey: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'kontor_ API key',
            description:
              "A company's API key, `Authorization: Bearer kontor_…` (owners and admins create them in Settings → API keys; shown once). It opens only its company's routes (`/api/orgs/{organizationId}/…`), within its scopes: `read` for GET, `write` or the area's `invoices:write`, `bills:write`, `banking:write`, `ledger:write` for changes. Its own rate limit. Guide: docs/api.md, Authentication.",
          },
        },
      };
      if (extras.tags) document.tags = [...(document.tags ?? []), ...extras.tags];
      // The webhook event catalogue: a schema per event and the POSTs endpoints receive.
      const webhooks = webhookOpenApi();
      Object.assign(document.components.schemas as object, webhooks.schemas);
      (document as Record<string, unknown>)['x-webhooks'] = webhooks.operations;
      return document as never;
    },
  };
};

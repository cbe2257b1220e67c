import { openAPI } from 'better-auth/plugins';
import type { AppContext } from '../context.ts';
import { getAuth } from './auth.ts';

// The /api/auth operations the web app calls (src/web/auth/client.ts, the email change and the
// emailed verification link), for the OpenAPI document (docs/api.md): Better Auth's own OpenAPI
// output for them, made valid OpenAPI 3.0 and true to what routes.ts answers — Better Auth's
// errors are `{ code, message }`, while the API's own refusals before it (untrusted origin,
// body too large, rate limit) keep the `{ error: { code, message } }` shape.

/** The operations the web app uses, by path and method. */
export const USED_AUTH_OPERATIONS: Record<string, string[]> = {
  '/get-session': ['get'],
  '/sign-up/email': ['post'],
  '/sign-in/email': ['post'],
  '/sign-out': ['post'],
  '/two-factor/verify-totp': ['post'],
  '/two-factor/verify-backup-code': ['post'],
  '/two-factor/enable': ['post'],
  '/two-factor/disable': ['post'],
  '/two-factor/generate-backup-codes': ['post'],
  '/request-password-reset': ['post'],
  '/reset-password': ['post'],
  '/change-password': ['post'],
  '/change-email': ['post'],
  '/send-verification-email': ['post'],
  '/verify-email': ['get'],
  '/list-sessions': ['get'],
  '/revoke-session': ['post'],
  '/revoke-other-sessions': ['post'],
};

/** Operations that need the session (401 without it). */
const SIGNED_IN_OPERATIONS = new Set([
  '/list-sessions',
  '/revoke-session',
  '/revoke-other-sessions',
  '/change-password',
  '/change-email',
  '/two-factor/enable',
  '/two-factor/disable',
  '/two-factor/generate-backup-codes',
]);
/** Operations that answer signed out too (the session, or sign-in's pending two-factor cookie). */
const MAYBE_SIGNED_IN_OPERATIONS = new Set([
  '/get-session',
  '/sign-out',
  '/two-factor/verify-totp',
  '/two-factor/verify-backup-code',
]);

type Json = Record<string, unknown>;

/** OpenAPI 3.0 has no `type: [..., 'null']`: write it as `nullable`, everywhere below `node`. */
const toOpenApi30 = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(toOpenApi30);
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) out[key] = toOpenApi30(value);
  if (Array.isArray(out.type)) {
    const types = (out.type as string[]).filter((t) => t !== 'null');
    if (types.length < (out.type as string[]).length) out.nullable = true;
    out.type = types.length === 1 ? types[0] : undefined;
    if (out.type === undefined) delete out.type;
  }
  // A `$ref` stands alone in OpenAPI 3.0.
  if (typeof out.$ref === 'string') return { $ref: out.$ref };
  return out;
};

/** Model fields that are not required may be null in Better Auth's answers (image, banReason, …). */
const nullableOptionalFields = (schema: Json) => {
  const required = new Set((schema.required as string[] | undefined) ?? []);
  for (const [name, field] of Object.entries((schema.properties as Record<string, Json>) ?? {})) {
    if (!required.has(name)) field.nullable = true;
  }
  return schema;
};

const AUTH_ERROR = {
  type: 'object',
  description: "Better Auth's refusal: a code such as INVALID_EMAIL_OR_PASSWORD and its message.",
  properties: { code: { type: 'string' }, message: { type: 'string' } },
  required: ['message'],
};

const authErrorResponse = (description: string) => ({
  description,
  content: {
    'application/json': {
      schema: { anyOf: [{ $ref: '#/components/schemas/AuthError' }, { $ref: '#/components/schemas/Error' }] },
    },
  },
});

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Not valid: a missing or malformed field (e.g. INVALID_EMAIL, VALIDATION_ERROR), a weak or common password, or an invalid token or code.',
  401: 'Not signed in, or the email and password or the code do not match.',
  403: 'Refused: the email is not confirmed yet, the account is disabled, or the request came from an untrusted origin.',
  404: 'Not found (e.g. no such session).',
  413: 'The body is over 5 MB.',
  415: 'The body is not JSON.',
  422: 'Not processable (e.g. the account cannot be created).',
  429: 'Too many attempts; wait the seconds `X-Retry-After` (or `Retry-After`) names.',
  431: 'The address or headers are over 16 KB.',
  500: 'A fault on the server.',
};

/** The used /api/auth operations as OpenAPI 3.0 paths, plus the schemas they refer to. */
export const authOpenApi = async (ctx: AppContext) => {
  const context = await getAuth(ctx).$context;
  const generate = openAPI().endpoints.generateOpenAPISchema as unknown as (input: {
    context: unknown;
  }) => Promise<{
    paths: Record<string, Record<string, Json>>;
    components: { schemas: Record<string, Json> };
  }>;
  const generated = await generate({ context });
  const paths: Record<string, Record<string, Json>> = {};
  for (const [path, methods] of Object.entries(USED_AUTH_OPERATIONS)) {
    const found = generated.paths[path];
    if (!found) continue;
    const operations: Record<string, Json> = {};
    for (const method of methods) {
      const operation = found[method];
      if (!operation) continue;
      const responses = (operation.responses ?? {}) as Record<string, Json>;
      const success = toOpenApi30(responses['200']) as Json;
      const statuses = [400, 401, 403, 404, ...(path === '/sign-up/email' ? [422] : []), 429, 431, 500];
      if (method === 'post') statuses.push(413, 415);
      const out: Record<string, Json> = { '200': success };
      if (path === '/verify-email') out['302'] = { description: 'Confirmed: on to `callbackURL`.' };
      for (const status of statuses.sort((a, b) => a - b))
        out[String(status)] = authErrorResponse(ERROR_DESCRIPTIONS[status] ?? 'An error.');
      operations[method] = {
        ...(toOpenApi30(operation) as Json),
        tags: ['auth'],
        operationId: undefined,
        security: SIGNED_IN_OPERATIONS.has(path)
          ? [{ sessionCookie: [] }, { bearerAuth: [] }]
          : MAYBE_SIGNED_IN_OPERATIONS.has(path)
            ? [{}, { sessionCookie: [] }, { bearerAuth: [] }]
            : [],
        responses: out,
      };
      for (const key of Object.keys(operations[method]!))
        if (operations[method]![key] === undefined) delete operations[method]![key];
    }
    paths[`/api/auth${path}`] = operations;
  }
  // Sign-in of an account with two-factor on answers `{ twoFactorRedirect: true }` and no session.
  const signIn = paths['/api/auth/sign-in/email']?.post as Json | undefined;
  const signInOk = (signIn?.responses as Record<string, Json> | undefined)?.['200'];
  const media = (signInOk?.content as Record<string, Json> | undefined)?.['application/json'];
  if (media) {
    media.schema = {
      anyOf: [
        media.schema,
        {
          type: 'object',
          description: 'Two-factor is on: verify a code at /api/auth/two-factor/verify-totp next.',
          properties: { twoFactorRedirect: { type: 'boolean', enum: [true] } },
          required: ['twoFactorRedirect'],
        },
      ],
    };
  }
  // Confirming an address while signed out answers `user: null`.
  const verify = (paths['/api/auth/verify-email']?.get?.responses as Record<string, Json> | undefined)?.[
    '200'
  ];
  const verified = (verify?.content as Record<string, { schema: Json }> | undefined)?.['application/json']
    ?.schema;
  const verifiedUser = (verified?.properties as Record<string, Json> | undefined)?.user;
  if (verified && verifiedUser) {
    (verified.properties as Record<string, Json>).user = {
      anyOf: [verifiedUser, { type: 'object', nullable: true, enum: [null] }],
    };
  }
  const schemas: Record<string, Json> = { AuthError: AUTH_ERROR };
  for (const [name, schema] of Object.entries(generated.components.schemas)) {
    if (name === 'User' || name === 'Session')
      schemas[name] = nullableOptionalFields(toOpenApi30(schema) as Json);
  }
  return {
    paths,
    schemas,
    tags: [
      {
        name: 'auth',
        description: 'Sign-up, sign-in, sessions, two-factor and password reset (Better Auth).',
      },
    ],
  };
};

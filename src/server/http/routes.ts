import type { FastifyContextConfig, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type SessionUser, requireUser } from '../auth/session.ts';
import type { AppContext } from '../context.ts';
import { replyIdempotent } from './idempotency.ts';
import type { Permission } from './permissions.ts';
import { type MemberContext, memberOf, requirePermission, withActingApiKey } from './tenancy.ts';

// One way to declare a route (docs/architecture.md, "route"): the path, its summary and zod
// schemas from src/shared, and one service call whose `input` is the query and body with the
// path's ids merged in as fields.
// - companyRoutes: below /orgs/:organizationId, guarded by a permission, the call
//   `(ctx, member, input)`. The path ids are checked as 1-100 characters unless `params` says
//   otherwise. `idempotent` names the Idempotency-Key scope (stored with each key, so it never
//   changes) and runs the call through replyIdempotent.
// - userRoutes: the signed-in user's own routes (401 when signed out), the call
//   `(ctx, user, input)`; publicRoutes: no sign-in, the call `(ctx, input)`.
// `response: null` answers 204 with no body, and a route without `response` answers through
// `http.reply` itself (CSV, file downloads), as may one with `response` that returns
// `http.reply` (a report asked for as CSV or PDF, a refusal in the route's own shape).

type App = Parameters<FastifyPluginAsyncZod>[0];

/**
 * What the OpenAPI document derives a route's error answers from (src/server/http/openapi.ts):
 * who may call it, whether it takes an Idempotency-Key, and what its success answer is when not JSON.
 */
export type RouteDoc = {
  caller: 'company' | 'user' | 'public';
  idempotent?: boolean;
  produces?: string[];
  answersWithoutBody?: Record<number, string>;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    doc?: RouteDoc;
  }
}

/** The names of a path's `:id` segments. */
type PathIds<S extends string> = S extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathIds<Rest>
  : S extends `${string}:${infer Name}`
    ? Name
    : never;

type Fields<T> = T extends z.ZodType ? z.infer<T> : unknown;

export type RouteInput<Path extends string, Q, B> = Record<PathIds<Path>, string> & Fields<Q> & Fields<B>;

type Output<R> = R extends z.ZodType ? z.input<R> : R extends null ? unknown : FastifyReply;

type Http = { request: FastifyRequest; reply: FastifyReply };

/** What every route declares, whoever may call it. */
type RouteSpec<Q, B, R> = {
  summary: string;
  query?: Q;
  body?: B;
  /** The success body's schema; null answers 204; absent, the handler answers through the reply. */
  response?: R;
  /** 202: the work was queued (e.g. a bank-feed sync). */
  status?: 200 | 201 | 202;
  /** Other answers the route documents, e.g. `{ 409: errorBody }`. */
  otherResponses?: Record<number, z.ZodType>;
  /** Request content types other than JSON, e.g. `['multipart/form-data']`. */
  consumes?: string[];
  /**
   * What the success answer is when it is not (only) JSON: its media types, e.g. `['text/csv']`
   * for a CSV export or `['text/csv', 'application/pdf']` beside a report's JSON (OpenAPI).
   */
  produces?: string[];
  /** Answers without a body beyond the success, e.g. `{ 304: 'Not modified' }` (OpenAPI only). */
  answersWithoutBody?: Record<number, string>;
  bodyLimit?: number;
  /** Route hooks run before the guard, e.g. reading a multipart upload into the body. */
  onRequest?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  preValidation?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
};

export type CompanyRouteSpec<Path extends string, Q, B, R> = RouteSpec<Q, B, R> & {
  permission: Permission;
  idempotent?: string | ((input: RouteInput<Path, Q, B>) => string);
  /** What an Idempotency-Key is stored with (compared on a repeat); the request body unless given. */
  idempotentPayload?: (input: RouteInput<Path, Q, B>, member: MemberContext) => unknown;
  /** Path parameters when they are not the usual 1-100 character ids. */
  params?: z.ZodObject;
};

export type CompanyRouteHandler<Path extends string, Q, B, R> = (
  ctx: AppContext,
  member: MemberContext,
  input: RouteInput<Path, Q, B>,
  http: Http,
) => Promise<Output<R> | FastifyReply>;

/** A route outside a company: its path parameters (if any) and route config (e.g. its rate limit). */
export type PlainRouteSpec<P, Q, B, R> = RouteSpec<Q, B, R> & { params?: P; config?: FastifyContextConfig };

type PlainInput<P, Q, B> = Fields<P> & Fields<Q> & Fields<B>;

export const orgParams = z.object({ organizationId: z.string().min(1) });

const pathParams = (path: string) =>
  orgParams.extend(
    Object.fromEntries(
      [...path.matchAll(/:(\w+)/g)].map(([, name]) => [name, z.string().min(1).max(100)] as const),
    ),
  );

/**
 * Registers one route: its schema from the spec, and a handler that reads the input, lets
 * `run` answer, and sends its result with the spec's status unless `run` answered itself.
 */
const declareRoute = (
  app: App,
  tags: string[],
  method: HTTPMethods,
  url: string,
  spec: RouteSpec<unknown, unknown, unknown> & { params?: unknown; config?: FastifyContextConfig },
  doc: RouteDoc,
  preHandler: ((request: FastifyRequest, reply: FastifyReply) => Promise<void>) | undefined,
  run: (input: Record<string, unknown>, http: Http, status: number) => Promise<unknown>,
) => {
  const status = spec.response === null ? 204 : (spec.status ?? 200);
  app.route({
    method,
    url,
    ...(spec.bodyLimit !== undefined && { bodyLimit: spec.bodyLimit }),
    config: {
      ...spec.config,
      doc: {
        ...doc,
        ...(spec.produces && { produces: spec.produces }),
        ...(spec.answersWithoutBody && { answersWithoutBody: spec.answersWithoutBody }),
      },
    },
    ...(spec.onRequest && { onRequest: spec.onRequest }),
    ...(spec.preValidation && { preValidation: spec.preValidation }),
    schema: {
      tags,
      summary: spec.summary,
      ...(spec.params !== undefined && { params: spec.params }),
      ...(spec.query !== undefined && { querystring: spec.query }),
      ...(spec.body !== undefined && { body: spec.body }),
      ...(spec.consumes && { consumes: spec.consumes }),
      ...((spec.response !== undefined || spec.otherResponses) && {
        response: {
          ...(spec.response !== undefined && { [status]: spec.response ?? z.null() }),
          ...spec.otherResponses,
        },
      }),
    },
    ...(preHandler && { preHandler }),
    handler: async (request, reply) => {
      const { organizationId: _, ...ids } = (request.params ?? {}) as Record<string, string>;
      const input = {
        ...(spec.query !== undefined && (request.query as object)),
        ...(spec.body !== undefined && (request.body as object)),
        ...ids,
      };
      const result = await run(input, { request, reply }, status);
      // A reply already sent (replyIdempotent sends its own; a Fastify reply is thenable, so an
      // awaited one resolves to undefined, not to the reply) is returned as it is, not sent twice.
      if (reply.sent) return reply;
      if (spec.response === undefined || result === reply) return result;
      return reply.status(status).send(status === 204 ? null : result);
    },
  });
};

/** A declarer's `get`, `post`, `put`, `patch` and `delete`. */
const methodsOf = <F>(add: (method: HTTPMethods) => F) => ({
  get: add('GET'),
  post: add('POST'),
  put: add('PUT'),
  patch: add('PATCH'),
  delete: add('DELETE'),
});

/** A plugin of routes under one tag, declared through `routesOf`'s declarer. */
const pluginOf =
  <Routes>(routesOf: (app: App, ctx: AppContext, tags: string[]) => Routes) =>
  (tags: string[], declare: (route: Routes) => void) =>
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) =>
    declare(routesOf(app, ctx, tags));

/** The route declarer of one plugin: `route.get('/wallet', spec, handler)`. */
export const companyRoutes = (app: App, ctx: AppContext, tags: string[]) => {
  const add =
    (method: HTTPMethods) =>
    <
      const Path extends string,
      Q extends z.ZodType | undefined = undefined,
      B extends z.ZodType | undefined = undefined,
      R extends z.ZodType | null | undefined = undefined,
    >(
      path: Path,
      spec: CompanyRouteSpec<Path, Q, B, R>,
      handler: CompanyRouteHandler<Path, Q, B, R>,
    ) =>
      declareRoute(
        app,
        tags,
        method,
        `/orgs/:organizationId${path}`,
        { ...spec, params: spec.params ?? pathParams(path) },
        { caller: 'company', idempotent: spec.idempotent !== undefined },
        requirePermission(ctx, spec.permission),
        // The work runs with the request's API key (if any) named in its audit rows.
        async (fields, http, status) =>
          withActingApiKey(memberOf(http.request), () => {
            const input = fields as RouteInput<Path, Q, B>;
            const { idempotent, idempotentPayload } = spec;
            if (!idempotent) return handler(ctx, memberOf(http.request), input, http);
            const scope = typeof idempotent === 'string' ? idempotent : idempotent(input);
            const options = {
              scope,
              statusCode: status,
              ...(idempotentPayload && { payload: idempotentPayload(input, memberOf(http.request)) }),
            };
            return replyIdempotent(ctx, http.request, http.reply, options, (trxCtx, member) =>
              handler(trxCtx, member, input, http),
            );
          }),
      );
  return methodsOf(add);
};

export type CompanyRoutes = ReturnType<typeof companyRoutes>;

/** A plugin of company routes under one tag: `companyRoutePlugin(['wallet'], (route) => { route.get(…) })`. */
export const companyRoutePlugin = pluginOf(companyRoutes);

type PlainHandler<Caller extends unknown[], P, Q, B, R> = (
  ctx: AppContext,
  ...args: [...Caller, input: PlainInput<P, Q, B>, http: Http]
) => Promise<Output<R> | FastifyReply>;

/** Routes outside a company; `callerOf` gives what the handler is called with before its input. */
const plainRoutes = <Caller extends unknown[]>(
  app: App,
  ctx: AppContext,
  tags: string[],
  caller: RouteDoc['caller'],
  callerOf: (request: FastifyRequest) => Promise<Caller>,
) => {
  const add =
    (method: HTTPMethods) =>
    <
      P extends z.ZodType | undefined = undefined,
      Q extends z.ZodType | undefined = undefined,
      B extends z.ZodType | undefined = undefined,
      R extends z.ZodType | null | undefined = undefined,
    >(
      path: string,
      spec: PlainRouteSpec<P, Q, B, R>,
      handler: PlainHandler<Caller, P, Q, B, R>,
    ) =>
      declareRoute(app, tags, method, path, spec, { caller }, undefined, async (input, http) =>
        handler(ctx, ...(await callerOf(http.request)), input as PlainInput<P, Q, B>, http),
      );
  return methodsOf(add);
};

/** The signed-in user's own routes: `route.get('/me/profile', spec, (ctx, user, input) => …)`; 401 when signed out. */
export const userRoutes = (app: App, ctx: AppContext, tags: string[]) =>
  plainRoutes(
    app,
    ctx,
    tags,
    'user',
    async (request): Promise<[user: SessionUser]> => [await requireUser(ctx, request)],
  );

/** Routes anyone may call: `route.post('/contact', spec, (ctx, input, http) => …)`. */
export const publicRoutes = (app: App, ctx: AppContext, tags: string[]) =>
  plainRoutes(app, ctx, tags, 'public', async (): Promise<[]> => []);

export type UserRoutes = ReturnType<typeof userRoutes>;
export type PublicRoutes = ReturnType<typeof publicRoutes>;

/** A plugin of a signed-in user's routes: `userRoutePlugin(['accounts'], (route) => { route.get(…) })`. */
export const userRoutePlugin = pluginOf(userRoutes);

/** A plugin of public routes: `publicRoutePlugin(['public'], (route) => { route.post(…) })`. */
export const publicRoutePlugin = pluginOf(publicRoutes);

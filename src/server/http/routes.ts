import type { FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { replyIdempotent } from './idempotency.ts';
import type { Permission } from './permissions.ts';
import { type MemberContext, memberOf, requirePermission } from './tenancy.ts';

// One way to declare a company route (docs/architecture.md, "route"): the path below
// /orgs/:organizationId, its summary, guard and zod schemas from src/shared, and one service
// call `(ctx, member, input)`, where `input` is the query and body with the path's ids merged
// in as fields. The path ids are checked as 1-100 characters unless `params` says otherwise.
// `idempotent` names the Idempotency-Key scope (stored with each key, so it never changes)
// and runs the call through replyIdempotent; `response: null` answers 204 with no body, and
// a route without `response` answers through `http.reply` itself (CSV, file downloads), as may
// one with `response` that returns `http.reply` (a report asked for as CSV or PDF).

type App = Parameters<FastifyPluginAsyncZod>[0];

/** The names of a path's `:id` segments. */
type PathIds<S extends string> = S extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathIds<Rest>
  : S extends `${string}:${infer Name}`
    ? Name
    : never;

type Fields<T> = T extends z.ZodType ? z.infer<T> : unknown;

export type RouteInput<Path extends string, Q, B> = Record<PathIds<Path>, string> & Fields<Q> & Fields<B>;

type Output<R> = R extends z.ZodType ? z.input<R> : R extends null ? unknown : FastifyReply;

export type CompanyRouteSpec<Path extends string, Q, B, R> = {
  summary: string;
  permission: Permission;
  query?: Q;
  body?: B;
  /** The success body's schema; null answers 204; absent, the handler answers through the reply. */
  response?: R;
  status?: 200 | 201;
  idempotent?: string | ((input: RouteInput<Path, Q, B>) => string);
  /** What an Idempotency-Key is stored with (compared on a repeat); the request body unless given. */
  idempotentPayload?: (input: RouteInput<Path, Q, B>, member: MemberContext) => unknown;
  /** Other answers the route documents, e.g. `{ 409: errorBody }`. */
  otherResponses?: Record<number, z.ZodType>;
  /** Request content types other than JSON, e.g. `['multipart/form-data']`. */
  consumes?: string[];
  /** Path parameters when they are not the usual 1-100 character ids. */
  params?: z.ZodObject;
  bodyLimit?: number;
  /** Route hooks run before the guard, e.g. reading a multipart upload into the body. */
  onRequest?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  preValidation?: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
};

export type CompanyRouteHandler<Path extends string, Q, B, R> = (
  ctx: AppContext,
  member: MemberContext,
  input: RouteInput<Path, Q, B>,
  http: { request: FastifyRequest; reply: FastifyReply },
) => Promise<Output<R> | FastifyReply>;

export const orgParams = z.object({ organizationId: z.string().min(1) });

const pathParams = (path: string) =>
  orgParams.extend(
    Object.fromEntries(
      [...path.matchAll(/:(\w+)/g)].map(([, name]) => [name, z.string().min(1).max(100)] as const),
    ),
  );

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
    ) => {
      const status = spec.response === null ? 204 : (spec.status ?? 200);
      app.route({
        method,
        url: `/orgs/:organizationId${path}`,
        ...(spec.bodyLimit !== undefined && { bodyLimit: spec.bodyLimit }),
        ...(spec.onRequest && { onRequest: spec.onRequest }),
        ...(spec.preValidation && { preValidation: spec.preValidation }),
        schema: {
          tags,
          summary: spec.summary,
          params: spec.params ?? pathParams(path),
          ...(spec.query && { querystring: spec.query }),
          ...(spec.body && { body: spec.body }),
          ...(spec.consumes && { consumes: spec.consumes }),
          ...((spec.response !== undefined || spec.otherResponses) && {
            response: {
              ...(spec.response !== undefined && { [status]: spec.response ?? z.null() }),
              ...spec.otherResponses,
            },
          }),
        },
        preHandler: requirePermission(ctx, spec.permission),
        handler: async (request, reply) => {
          const { organizationId: _, ...ids } = request.params as Record<string, string>;
          const input = {
            ...(spec.query && (request.query as object)),
            ...(spec.body && (request.body as object)),
            ...ids,
          } as RouteInput<Path, Q, B>;
          const http = { request, reply };
          const { idempotent, idempotentPayload } = spec;
          if (idempotent) {
            const scope = typeof idempotent === 'string' ? idempotent : idempotent(input);
            const options = {
              scope,
              statusCode: status,
              ...(idempotentPayload && { payload: idempotentPayload(input, memberOf(request)) }),
            };
            return replyIdempotent(ctx, request, reply, options, (trxCtx, member) =>
              handler(trxCtx, member, input, http),
            );
          }
          const result = await handler(ctx, memberOf(request), input, http);
          if (spec.response === undefined || result === reply) return result;
          return reply.status(status).send(status === 204 ? null : result);
        },
      });
    };
  return { get: add('GET'), post: add('POST'), put: add('PUT'), patch: add('PATCH'), delete: add('DELETE') };
};

export type CompanyRoutes = ReturnType<typeof companyRoutes>;

/** A plugin of company routes under one tag: `companyRoutePlugin(['wallet'], (route) => { route.get(…) })`. */
export const companyRoutePlugin =
  (tags: string[], declare: (route: CompanyRoutes) => void) =>
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) =>
    declare(companyRoutes(app, ctx, tags));

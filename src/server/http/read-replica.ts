import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import {
  type Lsn,
  type ReadChoice,
  type ReplicaRouter,
  formatLsn,
  isUnavailable,
  parseLsn,
} from '../db/replica.ts';

// Reads on the replica, writes seen at once (decision 0047). GET routes of reports and lists
// wrap their service with `onReplica(service)`: the service runs on a context whose
// `database.db` is the replica's when src/server/db/replica.ts says the replica may answer,
// else on the primary's, as before. Never inside a write transaction: only the service of a
// GET route, which opens none.
//
// Read-your-writes, statelessly (two app nodes need no shared memory): every write request
// (POST, PUT, PATCH, DELETE) answered 2xx sets the cookie kontor_lsn to the primary's WAL
// position after it; a read carrying it goes to the replica only once the replica has
// replayed that far. The cookie only ever sends its holder's reads to the primary sooner, so a
// forged one gains nothing; it expires when the lag bound alone would keep the replica away.

export const LSN_COOKIE = 'kontor_lsn';
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Written when the primary's position could not be read: the primary until the cookie expires. */
const UNKNOWN_LSN = 'FFFFFFFF/FFFFFFFF';

type Http = { request: FastifyRequest; reply: FastifyReply };

/**
 * The WAL position of the request's last write (its kontor_lsn cookie), or null. Of several
 * (a client that kept two), the latest: the safe one.
 */
export const lastWriteLsn = (request: FastifyRequest): Lsn | null => {
  let latest: Lsn | null = null;
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at <= 0 || part.slice(0, at).trim() !== LSN_COOKIE) continue;
    const lsn = parseLsn(part.slice(at + 1).trim());
    if (lsn !== null && (latest === null || lsn > latest)) latest = lsn;
  }
  return latest;
};

type ReadListener = (choice: ReadChoice, db: Db, request: FastifyRequest) => void;
const listeners = new WeakMap<ReplicaRouter, ReadListener>();

/** Tests: called with each read's choice and the database it was given. */
export const observeReads = (ctx: AppContext, listener: ReadListener | null) => {
  const router = ctx.database.replica;
  if (!router) return;
  if (listener) listeners.set(router, listener);
  else listeners.delete(router);
};

/** The context with the replica as its database (and no replica of its own). */
const onReplicaContext = (ctx: AppContext, router: ReplicaRouter): AppContext => {
  const { replica: _, ...primary } = ctx.database;
  return { ...ctx, database: { ...primary, db: router.db } };
};

/** Where this request's reads go now, and the database to read from. */
const choose = async (ctx: AppContext, request: FastifyRequest) => {
  const router = ctx.database.replica;
  if (!router) return null;
  let choice: ReadChoice;
  try {
    choice = await router.choose(lastWriteLsn(request));
  } catch (error) {
    request.log.warn({ err: error }, 'read replica: choosing failed; reading from the primary');
    choice = { target: 'primary', reason: 'down' };
  }
  const db = choice.target === 'replica' ? router.db : ctx.database.db;
  listeners.get(router)?.(choice, db, request);
  return { router, choice, db };
};

/** The database this request's report or list read should use: the replica's when it may answer. */
export const readDb = async (ctx: AppContext, request: FastifyRequest): Promise<Db> =>
  (await choose(ctx, request))?.db ?? ctx.database.db;

/**
 * A GET route's service run against the replica when it may answer. If the replica fails
 * the read (gone, a query cancelled by recovery, a row it has not replayed yet: 404), the
 * service runs again on the primary; the replica is left alone for a while when it is gone.
 */
export const onReplica =
  <M, I, R>(service: (ctx: AppContext, member: M, input: I, http: Http) => Promise<R>) =>
  async (ctx: AppContext, member: M, input: I, http: Http): Promise<R> => {
    const chosen = await choose(ctx, http.request);
    if (!chosen || chosen.choice.target === 'primary') return service(ctx, member, input, http);
    try {
      return await service(onReplicaContext(ctx, chosen.router), member, input, http);
    } catch (error) {
      if (http.reply.sent || (error instanceof AppError && error.status !== 404)) throw error;
      if (isUnavailable(error)) chosen.router.markDown(error);
      else if (!(error instanceof AppError))
        http.request.log.warn(
          { err: error },
          'read replica: the read failed there; reading from the primary',
        );
      return service(ctx, member, input, http);
    }
  };

/**
 * With a replica: a write answered 2xx sets kontor_lsn (read-your-writes), and the replica's
 * state changes are logged. Nothing without one.
 */
export const registerReadReplica = (app: FastifyInstance, ctx: AppContext) => {
  const router = ctx.database.replica;
  if (!router) return;
  router.setLog({ warn: (m) => app.log.warn(m), info: (m) => app.log.info(m) });
  // Past the lag bound the replica is refused anyway; a second on top for the clock's steps.
  const maxAge = Math.ceil(router.maxLagMs / 1000) + 1;
  const secure = ctx.config.app.SECURE_COOKIES ? '; Secure' : '';
  app.addHook('onSend', async (request, reply, payload) => {
    if (!WRITE_METHODS.has(request.method) || reply.statusCode < 200 || reply.statusCode >= 300)
      return payload;
    let lsn = UNKNOWN_LSN;
    try {
      lsn = formatLsn(await router.primaryLsn());
    } catch (error) {
      request.log.warn({ err: error }, 'read replica: could not read the WAL position after a write');
    }
    reply.header(
      'set-cookie',
      `${LSN_COOKIE}=${lsn}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`,
    );
    return payload;
  });
};

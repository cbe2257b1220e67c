import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { notFound } from '../../../shared/errors.ts';
import type { StatementImportProgress } from '../../../shared/transactions.ts';
import type { AppContext } from '../../context.ts';
import type { Role } from '../../db/types.ts';
import { signedSessionToken } from '../../http/rate-limit.ts';

// How far a running statement import is, for the page that started it to poll. Kept in this
// process's memory only: an import runs on one node, and a poll that lands on another node
// finds nothing (404) and the page shows "Working…" — the import itself is unaffected.
//
// The poll must not need the database: on PGlite the one connection is held by the import's
// transaction from BEGIN to COMMIT, so the membership query of the usual guard would wait
// until the import is over. The entry therefore records, when the import starts (after the
// guard checked the member), the company, the user, the role and a hash of the session token
// that started it; a poll carrying the same signed session cookie is authorised from that.

export type ProgressPhase = StatementImportProgress['phase'];

type Entry = {
  organizationId: string;
  userId: string;
  role: Role;
  /** sha256 of the signed session token that started the import; null when it had none. */
  sessionKey: string | null;
  progress: StatementImportProgress;
  expiresAt: number;
};

/** An entry lives this long after its last update. */
export const PROGRESS_TTL_MS = 5 * 60 * 1000;
/** At most this many imports are tracked at once (oldest dropped first). */
const MAX_ENTRIES = 2000;

const entries = new Map<string, Entry>();
const keyOf = (organizationId: string, progressId: string) => `${organizationId}\u0000${progressId}`;

const sweep = (now: number) => {
  for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key);
  while (entries.size > MAX_ENTRIES) {
    const oldest = entries.keys().next().value;
    if (oldest === undefined) break;
    entries.delete(oldest);
  }
};

const sessionKeyOf = async (ctx: AppContext, request: FastifyRequest) => {
  const token = await signedSessionToken(ctx, request);
  return token ? createHash('sha256').update(token).digest('base64url') : null;
};

/** Starts tracking an import; returns the callback the commit reports through. */
export const startProgress = async (
  ctx: AppContext,
  request: FastifyRequest,
  member: { organizationId: string; userId: string; role: Role },
  progressId: string,
) => {
  const now = Date.now();
  sweep(now);
  const key = keyOf(member.organizationId, progressId);
  const entry: Entry = {
    organizationId: member.organizationId,
    userId: member.userId,
    role: member.role,
    sessionKey: await sessionKeyOf(ctx, request),
    progress: { phase: 'reading', done: 0, total: 0 },
    expiresAt: now + PROGRESS_TTL_MS,
  };
  entries.delete(key);
  entries.set(key, entry);
  // After each report the import yields to the event loop once: PGlite's queries run on this
  // thread and resolve without giving timers and sockets a turn, so without it no request
  // (not even this progress poll) is answered until the import's last query.
  return async (done: number, total: number, phase: ProgressPhase) => {
    entry.progress = { phase, done, total };
    entry.expiresAt = Date.now() + PROGRESS_TTL_MS;
    await new Promise<void>((resolve) => setImmediate(resolve));
  };
};

/**
 * For the progress route, before the membership guard, without a database query: a request
 * carrying the signed session that started this import gets the member recorded in the entry;
 * any other signed-in request gets 404 at once (as an outsider gets from the guard), since a
 * guard query issued while an import runs would wait for its commit on PGlite. Signed-out
 * requests go on to the guard and get its 401.
 */
export const authorizeFromProgress = async (ctx: AppContext, request: FastifyRequest) => {
  const sessionKey = await sessionKeyOf(ctx, request);
  if (sessionKey === null) return;
  const params = request.params as { organizationId?: unknown; progressId?: unknown };
  const entry =
    typeof params.organizationId === 'string' && typeof params.progressId === 'string'
      ? entries.get(keyOf(params.organizationId, params.progressId))
      : undefined;
  if (!entry || entry.expiresAt <= Date.now() || entry.sessionKey !== sessionKey) throw notRunning();
  request.member = { organizationId: entry.organizationId, userId: entry.userId, role: entry.role };
};

export const notRunning = () => notFound('No import with this progress id is running.');

/** The progress of one of this user's imports in this company, or null. */
export const readProgress = (
  organizationId: string,
  userId: string,
  progressId: string,
): StatementImportProgress | null => {
  const entry = entries.get(keyOf(organizationId, progressId));
  if (!entry || entry.expiresAt <= Date.now() || entry.userId !== userId) return null;
  return entry.progress;
};

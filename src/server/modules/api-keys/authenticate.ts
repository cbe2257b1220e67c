import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isWellFormedApiKey } from '../../../shared/api-keys.ts';
import { type ApiKeyCaller, apiKeyNotAccepted, bearerApiKeyOf } from '../../auth/session.ts';
import type { AppContext } from '../../context.ts';
import type { Role } from '../../db/types.ts';
import { isApiPath } from '../../http/request-security.ts';
import { selectKeyForBearer, touchApiKey } from './queries.ts';
import { hashApiKey } from './service.ts';

// Resolves `Authorization: Bearer kontor_…` (decision 0038) once per request, first thing
// (before the rate limit, which gives a found key its own bucket): one index probe by the
// key's SHA-256, joined to its creator's membership. The answer waits in `request.apiKey`; the
// refusal (401 for a malformed, unknown, revoked or expired key, or one whose creator has left)
// is thrown by the route's guard (http/tenancy.ts) or requireUser, after the rate limit has
// counted the request against the address. The sign-in routes (/api/auth) refuse a key outright.

const refuse = (code: string, message: string): ApiKeyCaller => ({ ok: false, code, message });

export const resolveApiKey = async (ctx: AppContext, token: string): Promise<ApiKeyCaller> => {
  if (!isWellFormedApiKey(token)) {
    return refuse(
      'api_key_invalid',
      'This API key is malformed: a key is `kontor_` and 38 letters and digits. Check that it was copied whole.',
    );
  }
  const row = await selectKeyForBearer(ctx.database.db, hashApiKey(token));
  if (!row) return refuse('api_key_invalid', 'This API key is not known. Check that it was copied whole.');
  const name = `This API key (${row.prefix}…)`;
  const now = ctx.now();
  if (row.revoked_at) {
    return refuse(
      'api_key_revoked',
      `${name} was revoked on ${new Date(row.revoked_at).toISOString()}. Ask an owner or admin of the company for a new key.`,
    );
  }
  if (row.expires_at && new Date(row.expires_at) <= now) {
    return refuse(
      'api_key_expired',
      `${name} expired on ${new Date(row.expires_at).toISOString()}. Ask an owner or admin of the company for a new key.`,
    );
  }
  if (!row.created_by || !row.role) {
    return refuse(
      'api_key_invalid',
      `${name} no longer works: the member who created it has left the company. Ask an owner or admin for a new key.`,
    );
  }
  const lastUsed = row.last_used_at ? new Date(row.last_used_at).getTime() : 0;
  if (now.getTime() - lastUsed >= 60_000)
    await touchApiKey(ctx.database.db, row.organization_id, row.id, now);
  return {
    ok: true,
    id: row.id,
    organizationId: row.organization_id,
    userId: row.created_by,
    role: row.role as Role,
    scopes: row.scopes,
  };
};

const isSignInPath = (url: string) =>
  url === '/api/auth' || url.startsWith('/api/auth/') || url.startsWith('/api/auth?');

/** Registers the look-up; call it before the rate limit is registered (app.ts). */
export const registerApiKeyAuthentication = (app: FastifyInstance, ctx: AppContext) => {
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!isApiPath(request.url)) return;
    const token = bearerApiKeyOf(request);
    if (token === null) return;
    if (isSignInPath(request.url)) throw apiKeyNotAccepted();
    request.apiKey = await resolveApiKey(ctx, token);
  });
};

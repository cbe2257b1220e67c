import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, forbidden, notFound } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import { isLoopbackAddress, isLoopbackHostname, originOf } from './origins.ts';

// Request-level defences for the whole API (issue 11 §3 and §5; docs/security.md):
// - a state-changing /api request from another site is refused (403), whichever route it
//   names, before the route or its rate limit runs;
// - every /api answer says `Cache-Control: no-store` unless the route chose its own;
// - development-only routes answer only a client on this machine.

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const isApiPath = (url: string) =>
  url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

/** The origin a browser would send for a page on this very request's address. */
const ownOrigin = (request: FastifyRequest) => originOf(`${request.protocol}://${request.host}`);

/**
 * Why a state-changing request must be refused as cross-site, or null when it may go on.
 * Origin decides when present: trusted (PUBLIC_URL, CORS_ORIGINS, local addresses) or the
 * request's own origin. Without it, Sec-Fetch-Site decides; with neither (curl, scripts,
 * server-to-server) nothing shows another site, and sessions still guard what needs one.
 */
export const crossSiteRefusal = (
  request: FastifyRequest,
  trusted: ReadonlySet<string>,
  publicUrl: string,
): string | null => {
  const header = request.headers.origin;
  const site = String(request.headers['sec-fetch-site'] ?? '').toLowerCase();
  const where = `Open Kontor at ${publicUrl}, or ask the operator to add that address to CORS_ORIGINS.`;
  if (header !== undefined && header !== '') {
    if (header === 'null') {
      return site === 'same-origin'
        ? null
        : `This request came from a page without an address (Origin: null), so it was refused. ${where}`;
    }
    const origin = originOf(header);
    if (origin && (trusted.has(origin) || origin === ownOrigin(request))) return null;
    return `This request came from ${header}, an address this server does not trust, so it was refused. ${where}`;
  }
  if (site === 'cross-site' || site === 'same-site') {
    return `This request came from another site (Sec-Fetch-Site: ${site}), so it was refused. ${where}`;
  }
  return null;
};

export const registerRequestSecurity = (app: FastifyInstance, ctx: AppContext) => {
  const trusted = new Set(ctx.config.trustedOrigins);
  app.addHook('onRequest', async (request) => {
    if (!STATE_CHANGING.has(request.method) || !isApiPath(request.url)) return;
    const refusal = crossSiteRefusal(request, trusted, ctx.config.publicUrl);
    if (refusal) throw new AppError(403, 'untrusted_origin', refusal);
  });
  // Answers about someone's money must not stay in a browser's or proxy's cache.
  app.addHook('onSend', async (request, reply, payload) => {
    if (isApiPath(request.url) && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    return payload;
  });
};

// Headers through which a proxy or tunnel names the client it forwards (or the host it was
// asked for). The client can write any of them, but adding one only ever leads to refusal.
const FORWARDING_HEADERS = [
  'x-forwarded-for',
  'x-real-ip',
  'cf-connecting-ip',
  'true-client-ip',
  'x-client-ip',
  'forwarded',
  'x-forwarded-host',
] as const;

const stripPort = (host: string) => {
  const h = host.trim();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.split(':')[0] ?? '';
};

const forwardedNames = (name: (typeof FORWARDING_HEADERS)[number], value: string): string[] => {
  if (name === 'forwarded') {
    // RFC 7239: for=192.0.2.60;proto=http, for="[2001:db8::1]:4711"; host=... too.
    return [...value.matchAll(/(?:for|host)\s*=\s*"?([^";,]*)"?/gi)].map((m) => stripPort(m[1] ?? ''));
  }
  return value.split(',').map((part) => (name === 'x-forwarded-host' ? stripPort(part) : part.trim()));
};

const isLoopbackName = (name: string) =>
  isLoopbackAddress(name.replace(/^\[|\]$/g, '')) || isLoopbackHostname(name);

/**
 * Why a request is not from a developer on this machine, or null when it is. The socket's
 * own address decides (never X-Forwarded-For alone, which the client writes); and a request
 * that a proxy or tunnel on this machine relays for someone else (forwarding headers naming
 * another address), or that is addressed to a non-loopback host name (DNS rebinding: a web
 * page whose name now points at 127.0.0.1), is not local either.
 */
export const nonLocalReason = (request: FastifyRequest): string | null => {
  const socketAddress = request.socket.remoteAddress ?? 'unknown';
  if (!isLoopbackAddress(socketAddress)) return `it came from ${socketAddress}`;
  for (const name of FORWARDING_HEADERS) {
    const raw = request.headers[name];
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(',') : raw;
    const outside = forwardedNames(name, value).find((n) => !isLoopbackName(n));
    if (outside !== undefined) return `it was forwarded for ${outside || 'an unknown client'} (${name})`;
  }
  const host = stripPort(String(request.headers.host ?? ''));
  if (!isLoopbackName(host)) return `it was addressed to ${host || 'no host'}`;
  return null;
};

/**
 * onRequest hook for development-only routes (/api/dev/*): 404 outside development and test,
 * as if they did not exist, and 403 for anyone not on this machine.
 */
export const developmentOnly =
  (enabled: (ctx: AppContext) => boolean, ctx: AppContext) => async (request: FastifyRequest) => {
    if (!enabled(ctx)) throw notFound(`No route ${request.method} ${request.url.split('?')[0]}.`);
    const reason = nonLocalReason(request);
    if (reason) {
      throw forbidden(
        `Development tools answer only requests made on the machine running Kontor (open it at http://localhost); this one was not: ${reason}.`,
      );
    }
  };

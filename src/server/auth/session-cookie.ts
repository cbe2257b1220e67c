import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { getAuth } from './auth.ts';

// Better Auth's session cookie, read without Better Auth: its name, the secret it is signed
// with and the session settings, taken from the auth instance once per app context. Used by
// the rate limiter (a per-session key without a round trip) and by the session look-up
// (session.ts), which checks the signature with node:crypto instead of a WebCrypto call per
// request.

export type SessionCookieSettings = {
  name: string;
  secret: string;
  /** Seconds a session lives, and after how many seconds of its life a request extends it. */
  expiresIn: number;
  updateAge: number;
  /**
   * Whether the session lives in the database alone (no cookie cache, no secondary storage, no
   * deferred refresh): only then may the session look-up read the row itself (session.ts).
   */
  databaseOnly: boolean;
};

const settingsByContext = new WeakMap<AppContext, Promise<SessionCookieSettings>>();

export const sessionCookieSettings = (ctx: AppContext): Promise<SessionCookieSettings> => {
  let settings = settingsByContext.get(ctx);
  if (!settings) {
    settings = getAuth(ctx).$context.then((auth) => {
      // Typed as createAuth's own options; read as the general shape, so a later option shows.
      const session = auth.options.session as
        | {
            cookieCache?: { enabled?: boolean };
            deferSessionRefresh?: boolean;
            disableSessionRefresh?: boolean;
          }
        | undefined;
      return {
        name: auth.authCookies.sessionToken.name,
        secret: auth.secret,
        expiresIn: auth.sessionConfig.expiresIn,
        updateAge: auth.sessionConfig.updateAge,
        databaseOnly:
          !auth.secondaryStorage &&
          session?.cookieCache?.enabled !== true &&
          !session?.deferSessionRefresh &&
          !session?.disableSessionRefresh,
      };
    });
    // A failed look-up is not kept: the next request tries again.
    settings.catch(() => settingsByContext.delete(ctx));
    settingsByContext.set(ctx, settings);
  }
  return settings;
};

/** The first value of cookie `name` in a Cookie header, URL-decoded; null when absent or malformed. */
export const cookieValue = (header: string | undefined, name: string): string | null => {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
};

const cookieTokens = new WeakMap<object, string | null>();

/**
 * The token of the request's session cookie when the server signed it, else null; checked once
 * per request (the rate limiter's key and the session look-up both need it).
 */
export const signedCookieToken = (
  request: { headers: { cookie?: string } },
  settings: Pick<SessionCookieSettings, 'name' | 'secret'>,
): string | null => {
  const known = cookieTokens.get(request);
  if (known !== undefined) return known;
  const signed = cookieValue(request.headers.cookie, settings.name);
  const token = signed === null ? null : verifiedToken(signed, settings.secret);
  cookieTokens.set(request, token);
  return token;
};

// better-call's signature: standard base64 of the 32-byte HMAC-SHA256, 43 characters and "=".
const SIGNATURE = /^[A-Za-z0-9+/]{43}=$/;

/** The token of a correctly signed `<token>.<signature>` value, else null. */
export const verifiedToken = (signed: string, secret: string): string | null => {
  const dot = signed.lastIndexOf('.');
  if (dot < 1) return null;
  const token = signed.slice(0, dot);
  const signature = signed.slice(dot + 1);
  if (!SIGNATURE.test(signature)) return null;
  const expected = createHmac('sha256', secret).update(token).digest();
  const given = Buffer.from(signature, 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : null;
};

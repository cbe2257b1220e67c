import { betterAuth } from 'better-auth';
import { randomUUID } from 'node:crypto';
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { generateRandomString } from 'better-auth/crypto';
import { admin, bearer, twoFactor } from 'better-auth/plugins';
import { AUTH_ERROR_MESSAGES } from '../../shared/auth/errors.ts';
import type { AppContext } from '../context.ts';
import {
  createSignupProfile,
  recordLogin,
  recordSecurityEvent,
  syncTwoFactor,
} from '../modules/profile/service.ts';
import { disabledAccountMessage } from './accounts.ts';
import { emailChangeUserHooks, requirePasswordForEmailChange, verificationLinkMail } from './change-email.ts';
import { isCommonPassword } from './common-passwords.ts';
import { deliverAuthMail } from './delivery.ts';
import { existingAccountSignUpMail, resetPasswordMail } from './mails.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { runSignInHooks } from './signin-hooks.ts';
import { runSignUpHooks } from './signup-hooks.ts';
import {
  SIGN_IN_PER_ACCOUNT,
  consumeSignInAttempt,
  redisAuthLimits,
  signInLimitKey,
} from './sign-in-limit.ts';
import { rateCounterOf } from '../db/rate-counter.ts';

// Identity runs on our own server: Better Auth on the app's database (DESIGN.md).
// Sessions live in the database (stateless server) in httpOnly cookies.

export const CLIENT_IP_HEADER = 'x-kontor-client-ip';

const SIGN_IN_PATHS = new Set([
  '/sign-in/email',
  '/two-factor/verify-totp',
  '/two-factor/verify-backup-code',
]);

// The body field holding a new password, per endpoint: each is checked against the list of
// common passwords (issue 11 §10b) once it has the minimum length (that message comes first).
const NEW_PASSWORD_FIELDS: Record<string, 'password' | 'newPassword'> = {
  '/sign-up/email': 'password',
  '/reset-password': 'newPassword',
  '/change-password': 'newPassword',
};

// Sign-up answers no sooner than this after the request reached the handler, whether the
// address was free or taken: creating an account does a few more writes than the taken-address
// answer, and the floor hides that difference (Better Auth does the same, 500 ms, when it
// resends a confirmation link). Off under tests unless a test sets it (setSignUpAnswerFloor).
export const SIGN_UP_ANSWER_FLOOR_MS = 400;
const signUpFloors = new WeakMap<AppContext, number>();
export const setSignUpAnswerFloor = (ctx: AppContext, ms: number) => signUpFloors.set(ctx, ms);
const signUpStarted = new WeakMap<Request, number>();

const waitForSignUpFloor = async (ctx: AppContext, request: Request | undefined) => {
  const started = request ? signUpStarted.get(request) : undefined;
  const floor =
    signUpFloors.get(ctx) ?? (ctx.config.app.ENVIRONMENT === 'test' ? 0 : SIGN_UP_ANSWER_FLOOR_MS);
  if (started === undefined || floor <= 0) return;
  const remaining = floor - (performance.now() - started);
  if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
};

const DEV_SECRET = 'kontor-development-secret-change-me-in-production-0123456789';

export const createAuth = (ctx: AppContext) => {
  const { config } = ctx;
  if (!config.authSecret && config.app.ENVIRONMENT === 'production') {
    throw new Error('AUTH_SECRET must be set in production (a long random string).');
  }
  return betterAuth({
    appName: 'Kontor',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret: config.authSecret ?? DEV_SECRET,
    // PUBLIC_URL and CORS_ORIGINS; in development also the loopback (and, when HOST exposes
    // the server, the network) addresses it is served at: src/server/http/origins.ts.
    trustedOrigins: config.trustedOrigins,
    database: { db: ctx.database.db, type: 'postgres' },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      autoSignIn: true,
      resetPasswordTokenExpiresIn: 24 * 60 * 60,
      revokeSessionsOnPasswordReset: true,
      password: { hash: hashPassword, verify: verifyPassword },
      // Our own page opens the link (SPEC route /reset-password), not the library's redirect.
      sendResetPassword: async ({ user, token }) => {
        // Only the newest link works (issue 11 §10c): older unused ones are deleted now.
        await ctx.database.db
          .deleteFrom('verification')
          .where('value', '=', user.id)
          .where('identifier', 'like', 'reset-password:%')
          .where('identifier', '!=', `reset-password:${token}`)
          .execute();
        const link = `${config.publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
        await deliverAuthMail(ctx, resetPasswordMail(user.email, link));
      },
      onPasswordReset: async ({ user }) => {
        await recordSecurityEvent(ctx, user.id, 'password-changed');
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      // The sign-up link, or (change-email.ts) the link that moves the account to a new address.
      sendVerificationEmail: async ({ user, url, token }) => {
        await deliverAuthMail(ctx, verificationLinkMail(user, url, token));
      },
    },
    // A new sign-in address: a link to it, the change when the link is opened (change-email.ts).
    user: { changeEmail: { enabled: true } },
    databaseHooks: {
      user: {
        update: emailChangeUserHooks(ctx),
        create: {
          // Runs after the account's transaction commits: the profile of SPEC section 3,
          // with the sign-up payload (`profile` in the sign-up body) merged in.
          after: async (user, endpoint) => {
            const body = endpoint?.body as { profile?: unknown } | undefined;
            await createSignupProfile(ctx, user, body?.profile);
            // Other modules' sign-up work (billing's trial), registered in app.ts.
            await runSignUpHooks(ctx, user, body);
          },
        },
      },
      session: {
        create: {
          after: async (session, endpoint) => {
            await recordLogin(ctx, session.userId);
            const path = endpoint?.path ?? '';
            // verify-totp also runs when a signed-in user turns 2FA on; that is no sign-in.
            const signedInAlready =
              path.startsWith('/two-factor/') &&
              /session_token=/.test(endpoint?.headers?.get('cookie') ?? '');
            // The sign-in history and its new-device alert (notifications, registered in app.ts).
            if (SIGN_IN_PATHS.has(path) && !signedInAlready) await runSignInHooks(ctx, session);
          },
        },
      },
    },
    hooks: {
      before: createAuthMiddleware(async (hook) => {
        if (hook.path === '/sign-up/email' && hook.request)
          signUpStarted.set(hook.request, performance.now());
        if (hook.path === '/change-email') await requirePasswordForEmailChange(hook);
        const body = hook.body as Record<string, unknown> | undefined;
        const field = NEW_PASSWORD_FIELDS[hook.path];
        const password = field ? body?.[field] : undefined;
        if (typeof password === 'string' && password.length >= 6 && isCommonPassword(password)) {
          throw APIError.from('BAD_REQUEST', {
            code: 'PASSWORD_TOO_COMMON',
            message: AUTH_ERROR_MESSAGES['common-password'],
          });
        }
        if (hook.path === '/sign-in/email' && typeof body?.email === 'string') {
          const ip = hook.headers?.get(CLIENT_IP_HEADER) ?? 'unknown';
          const { allowed, retryAfter } = await consumeSignInAttempt(
            ctx.database.db,
            signInLimitKey(ip, body.email),
            ctx.now().getTime(),
            SIGN_IN_PER_ACCOUNT,
            config.redisUrl ? rateCounterOf(ctx) : undefined,
          );
          if (!allowed) {
            throw new APIError(
              'TOO_MANY_REQUESTS',
              { code: 'TOO_MANY_REQUESTS', message: 'Too many requests. Please try again later.' },
              { 'X-Retry-After': String(retryAfter) },
            );
          }
        }
      }),
      after: createAuthMiddleware(async (hook) => {
        // Sign-up with an address that already has an account (issue 11 §10a): unless the
        // operator turned revealing on, the answer is a new account's 200 (same body shape,
        // a session cookie and bearer header that open nothing, the same Argon2id work) and
        // the account's owner is told by email instead. See docs/auth.md, enumeration.
        const returned = hook.context.returned;
        if (
          hook.path === '/sign-up/email' &&
          !config.authRevealUnknownEmail &&
          isAPIError(returned) &&
          (returned.body as { code?: string } | undefined)?.code === 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL'
        ) {
          const body = hook.body as {
            email: string;
            password: string;
            name: string;
            image?: string;
            rememberMe?: boolean;
          };
          const email = body.email.toLowerCase();
          await hashPassword(body.password);
          const existing = await hook.context.internalAdapter.findUserByEmail(email);
          if (existing) {
            await deliverAuthMail(
              ctx,
              existingAccountSignUpMail(existing.user.email, { loginUrl: `${config.publicUrl}/login` }),
            ).catch((error: unknown) => console.warn('kontor: existing-account mail not sent', error));
          }
          const token = generateRandomString(32, 'a-z', 'A-Z', '0-9');
          const cookies = hook.context.authCookies;
          const forgetOnClose = body.rememberMe === false;
          await hook.setSignedCookie(cookies.sessionToken.name, token, hook.context.secret, {
            ...cookies.sessionToken.attributes,
            maxAge: forgetOnClose ? undefined : hook.context.sessionConfig.expiresIn,
          });
          if (forgetOnClose) {
            await hook.setSignedCookie(
              cookies.dontRememberToken.name,
              'true',
              hook.context.secret,
              cookies.dontRememberToken.attributes,
            );
          }
          const now = new Date();
          const user = {
            name: body.name,
            email,
            emailVerified: false,
            image: body.image ?? null,
            createdAt: now,
            updatedAt: now,
            twoFactorEnabled: false,
            role: 'user',
            banned: false,
            banReason: null,
            banExpires: null,
            id: randomUUID(),
          };
          await waitForSignUpFloor(ctx, hook.request);
          return new Response(JSON.stringify({ token, user }), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          });
        }
        if (hook.path === '/sign-up/email') await waitForSignUpFloor(ctx, hook.request);
        if (hook.context.returned instanceof Error) return;
        const userId = hook.context.session?.user.id ?? hook.context.newSession?.user.id;
        if (!userId) return;
        if (hook.path === '/change-password') await recordSecurityEvent(ctx, userId, 'password-changed');
        if (hook.path.startsWith('/two-factor/')) await syncTwoFactor(ctx, userId);
      }),
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    rateLimit: {
      enabled: true,
      // Counted where every server process sees them (decision 0044): Better Auth's
      // "rateLimit" table (one conditional update per request), or Redis with REDIS_URL.
      storage: 'database',
      ...(config.redisUrl ? { customStorage: redisAuthLimits(ctx) } : {}),
      window: 60,
      max: 100,
      customRules: {
        // Per address, a cap on one address trying many accounts; each (address, account)
        // pair has its own 10 a minute (sign-in-limit.ts), so an office behind one address
        // is not locked out by one person's typos.
        '/sign-in/email': { window: 60, max: 100 },
        '/sign-up/email': { window: 60, max: config.authSignupLimitPerMinute },
        // Reading one's own session guesses nothing, and every page load does it: limiting it
        // would sign out a busy office behind one address, not slow an attacker.
        '/get-session': false,
        '/request-password-reset': { window: 60, max: 5 },
        '/two-factor/verify-totp': { window: 60, max: 10 },
        // Each asks for the password and may mail an address: few, like reset requests.
        '/change-email': { window: 60, max: 5 },
      },
    },
    advanced: {
      // The library skips its origin check when NODE_ENV=test; ours runs everywhere, so the
      // tests exercise the same check as production.
      disableOriginCheck: false,
      useSecureCookies: config.app.SECURE_COOKIES,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: config.app.SECURE_COOKIES },
      // routes.ts sets this header from Fastify's request.ip (which honours trustProxy) and
      // drops any copy the client sent, so every request has one trustworthy address.
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      database: { generateId: () => crypto.randomUUID() },
    },
    plugins: [
      twoFactor({ issuer: 'Kontor' }),
      // The disabled user is told why (the reason an admin gave: src/server/modules/admin).
      admin({ bannedUserMessage: (user) => disabledAccountMessage(user.banReason) }),
      bearer(),
    ],
    telemetry: { enabled: false },
  });
};

export type Auth = ReturnType<typeof createAuth>;

const instances = new WeakMap<AppContext, Auth>();

/** One auth instance per app context (tests build many apps in one process). */
export const getAuth = (ctx: AppContext): Auth => {
  let auth = instances.get(ctx);
  if (!auth) {
    auth = createAuth(ctx);
    instances.set(ctx, auth);
  }
  return auth;
};

import { betterAuth } from 'better-auth';
import { admin, bearer, twoFactor } from 'better-auth/plugins';
import type { AppContext } from '../context.ts';
import { hashPassword, verifyPassword } from './password.ts';

// Identity runs on our own server: Better Auth on the app's database (DESIGN.md).
// Sessions live in the database (stateless server) in httpOnly cookies.

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
    trustedOrigins: [config.publicUrl, ...config.app.CORS_ORIGINS],
    database: { db: ctx.database.db, type: 'postgres' },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 6,
      maxPasswordLength: 128,
      autoSignIn: true,
      resetPasswordTokenExpiresIn: 24 * 60 * 60,
      revokeSessionsOnPasswordReset: true,
      password: { hash: hashPassword, verify: verifyPassword },
    },
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/email': { window: 60, max: 10 },
        '/sign-up/email': { window: 60, max: 10 },
        '/request-password-reset': { window: 60, max: 5 },
        '/two-factor/verify-totp': { window: 60, max: 10 },
      },
    },
    advanced: {
      useSecureCookies: config.app.SECURE_COOKIES,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: config.app.SECURE_COOKIES },
      ipAddress: { ipAddressHeaders: ['x-forwarded-for', 'x-real-ip'] },
      database: { generateId: () => crypto.randomUUID() },
    },
    plugins: [twoFactor({ issuer: 'Kontor' }), admin(), bearer()],
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

import path from 'node:path';
import { z } from 'zod';
import { APP_VERSION, type AppConfig, ConfigError, buildConfig } from '../shared/config/config.ts';
import { ENVIRONMENTS, ENVIRONMENT_SETTINGS, PLAID_ENVS } from '../shared/config/environments.ts';
import { trustedOrigins } from './http/origins.ts';
import {
  BILLING_INTERVALS,
  type BillingInterval,
  PLAN_IDS,
  type PlanId,
  priceVariable,
} from '../shared/plans.ts';

// Server settings come from environment variables (documented in .env.example and the
// README). A bad value stops start-up with one line naming the setting.

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const limitPerMinute = z.coerce
  .number({ error: 'must be a whole number from 1 to 1000000' })
  .int('must be a whole number from 1 to 1000000')
  .min(1, 'must be a whole number from 1 to 1000000')
  .max(1_000_000, 'must be a whole number from 1 to 1000000');

const schema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a whole number from 1 to 65535' })
    .int('must be a whole number from 1 to 65535')
    .min(1, 'must be a whole number from 1 to 65535')
    .max(65535, 'must be a whole number from 1 to 65535')
    .default(3000),
  // Loopback only: exposing the server to the network is a choice (HOST=0.0.0.0).
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || isPostgresUrl(v), {
      message: 'must be a postgres:// or postgresql:// URL, e.g. postgres://user:password@host:5432/kontor',
    }),
  // A streaming replica for report and list reads (docs/operations.md, "Read replica"; decision 0047).
  DATABASE_REPLICA_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || isPostgresUrl(v), {
      message:
        'must be a postgres:// or postgresql:// URL, e.g. postgres://user:password@replica:5432/kontor',
    }),
  REPLICA_MAX_LAG_MS: z.coerce
    .number({ error: 'must be a whole number of milliseconds from 0 to 600000' })
    .int('must be a whole number of milliseconds from 0 to 600000')
    .min(0, 'must be a whole number of milliseconds from 0 to 600000')
    .max(600_000, 'must be a whole number of milliseconds from 0 to 600000')
    .default(5000),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  APP_ENV: z.enum(ENVIRONMENTS, { error: `must be one of: ${ENVIRONMENTS.join(', ')}` }).optional(),
  PUBLIC_URL: z.string().optional(),
  PUBLIC_DOMAIN: z.string().optional(),
  PLAID_ENV: z.enum(PLAID_ENVS, { error: `must be one of: ${PLAID_ENVS.join(', ')}` }).optional(),
  // Plaid (docs/bank-feeds.md): with both keys, bank feeds go through Plaid, else the Demo Bank.
  PLAID_CLIENT_ID: z.string().optional(),
  PLAID_SECRET: z.string().optional(),
  /** Countries Link offers banks of, comma-separated ISO 3166 codes (default US). */
  PLAID_COUNTRY_CODES: z
    .string()
    .regex(
      /^\s*[A-Za-z]{2}(\s*,\s*[A-Za-z]{2})*\s*$/,
      'must be two-letter country codes separated by commas, e.g. US,CA',
    )
    .optional(),
  /** Where the SDK sends its calls instead of Plaid (tests point it at a local fake); refused in production. */
  PLAID_BASE_URL: z.string().url({ error: 'must be a URL such as http://127.0.0.1:12112' }).optional(),
  CORS_ORIGINS: z.string().optional(),
  AUTH_SECRET: z.string().optional(),
  AUTH_REVEAL_UNKNOWN_EMAIL: bool.default(false),
  TRUST_PROXY: bool.default(false),
  // GET /metrics needs `Authorization: Bearer <METRICS_TOKEN>` when set; loopback only without.
  METRICS_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  AUTH_SIGNUP_LIMIT_PER_MINUTE: z.coerce
    .number({ error: 'must be a whole number from 1 to 100000' })
    .int('must be a whole number from 1 to 100000')
    .min(1, 'must be a whole number from 1 to 100000')
    .max(100000, 'must be a whole number from 1 to 100000')
    .default(10),
  API_LIMIT_PER_MINUTE: limitPerMinute.optional(),
  API_ANONYMOUS_LIMIT_PER_MINUTE: limitPerMinute.optional(),
  // Rate-limit counters in Redis instead of PostgreSQL (decision 0044); unset: the database.
  REDIS_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || /^rediss?:\/\/./.test(v), {
      message: 'must be a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379',
    }),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Kontor <no-reply@kontor.local>'),
  // Platform admins by email, comma-separated (issue 16; `npm run admin -- grant EMAIL` adds more).
  ADMIN_EMAILS: z.string().optional(),
  // Stripe (docs/billing.md): with a secret key Kontor bills through Stripe, else the local provider.
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Where the SDK sends its calls (tests point it at a local fake): http(s)://host:port. */
  STRIPE_API_BASE: z.string().url({ error: 'must be a URL such as http://127.0.0.1:12111' }).optional(),
  // Bank feeds (docs/bank-feeds.md): the key access tokens are encrypted with (32 bytes, base64),
  // and earlier keys, comma-separated, still accepted for decryption during a rotation.
  BANK_FEEDS_KEY: z.string().optional(),
  BANK_FEEDS_OLD_KEYS: z.string().optional(),
  // Web Push (docs/settings.md, Notifications): all three, or none (browser push off).
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  VAPID_SUBJECT: z
    .string()
    .refine((v) => /^(mailto:|https:\/\/)/.test(v), 'must start with mailto: or https://')
    .optional(),
  // Attachments in an S3-compatible object store (docs/operations.md): S3_BUCKET turns it on.
  S3_BUCKET: z
    .string()
    .regex(
      /^[A-Za-z0-9][A-Za-z0-9._-]{1,253}[A-Za-z0-9]$/,
      'must be a bucket name (letters, digits, dots, hyphens)',
    )
    .optional(),
  S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]{1,64}$/, 'must be a region name such as us-east-1 (or auto for Cloudflare R2)')
    .optional(),
  S3_ENDPOINT: z
    .string()
    .url({
      error:
        'must be a URL such as http://127.0.0.1:9000 (MinIO) or https://<account>.r2.cloudflarestorage.com',
    })
    .refine((v) => /^https?:\/\//.test(v), 'must start with http:// or https://')
    .optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.optional(),
  S3_PREFIX: z
    .string()
    .max(200, 'must be at most 200 characters')
    .regex(
      /^[A-Za-z0-9!_.*'()/-]*$/,
      "must use only letters, digits and ! _ . * ' ( ) - / (an S3 key prefix)",
    )
    .optional(),
  ...Object.fromEntries(
    PLAN_IDS.flatMap((plan) =>
      BILLING_INTERVALS.map((interval) => [priceVariable(plan, interval), z.string().optional()]),
    ),
  ),
});

const isPostgresUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
};

/** The placeholder .env.example shows; a server that still has it has no secret at all. */
export const AUTH_SECRET_EXAMPLE = 'replace-me-with-the-output-of-openssl-rand-base64-32';
/** Publicly known values (the example and auth.ts's development fallback): never a real secret. */
const PUBLIC_AUTH_SECRETS = new Set([
  AUTH_SECRET_EXAMPLE,
  'kontor-development-secret-change-me-in-production-0123456789',
]);
export const AUTH_SECRET_MIN_LENGTH = 32;

/** /api requests per minute per signed-in session when the environment limits requests at all. */
export const DEFAULT_API_LIMIT_PER_MINUTE = 1200;

const authSecretProblem = (secret: string | undefined, environment: string): string | null => {
  const hint = 'set it to a long random string, e.g. the output of `openssl rand -base64 32`';
  if (secret === undefined || secret.trim() === '') return `must be set in ${environment}: ${hint}`;
  if (PUBLIC_AUTH_SECRETS.has(secret.trim())) return `is still the example value from .env.example: ${hint}`;
  if (secret.length < AUTH_SECRET_MIN_LENGTH)
    return `is too short (${secret.length} characters, at least ${AUTH_SECRET_MIN_LENGTH}): ${hint}`;
  return null;
};

export type ServerConfig = {
  port: number;
  host: string;
  databaseUrl: string | null;
  /**
   * DATABASE_REPLICA_URL and REPLICA_MAX_LAG_MS: a streaming replica that serves report and
   * list reads while it is at most `maxLagMs` behind (src/server/db/replica.ts); null: none.
   */
  replica: { url: string; maxLagMs: number } | null;
  dataDir: string;
  logLevel: string;
  publicUrl: string;
  publicDomain: string | null;
  authSecret: string | null;
  authRevealUnknownEmail: boolean;
  /** Read the client address from X-Forwarded-For: only behind a proxy that sets it. */
  trustProxy: boolean;
  /** The bearer token /metrics asks for; without it only loopback clients may read it. */
  metricsToken?: string;
  /** Sign-ups allowed per client address per minute. */
  authSignupLimitPerMinute: number;
  /**
   * The global /api limit: requests per minute per signed-in session (`perSession`) and per
   * client address for anonymous calls (`perAddress`); `null` when the environment has none.
   */
  apiRateLimit: { perSession: number; perAddress: number } | null;
  /** REDIS_URL: rate-limit counters live there; null means the database (decision 0044). */
  redisUrl: string | null;
  /** Browser origins allowed to make state-changing calls (PUBLIC_URL, CORS_ORIGINS, local addresses). */
  trustedOrigins: string[];
  smtpUrl: string | null;
  mailFrom: string;
  /** Lower-cased addresses from ADMIN_EMAILS. */
  adminEmails: string[];
  /** Stripe's settings when STRIPE_SECRET_KEY is set; null means the built-in local provider. */
  stripe: StripeSettings | null;
  /** Web Push keys (VAPID_*); null means browser push is not configured on this server. */
  vapid: { publicKey: string; privateKey: string; subject: string } | null;
  /**
   * Bank-feed token keys (BANK_FEEDS_KEY, BANK_FEEDS_OLD_KEYS), each 32 bytes; `key` null means
   * none was given (main.ts refuses to start so in production and staging; elsewhere
   * bank-feeds/token-cipher.ts keeps one in DATA_DIR).
   */
  bankFeeds: { key: Buffer | null; oldKeys: Buffer[] };
  /** Plaid's settings when PLAID_CLIENT_ID and PLAID_SECRET are set; null means the Demo Bank. */
  plaid: PlaidSettings | null;
  /** Where attachments' bytes go (S3_*): an S3-compatible bucket, or null for the database. */
  s3: S3Settings | null;
  version: string;
  app: AppConfig;
};

export type StripeSettings = {
  secretKey: string;
  webhookSecret: string | null;
  /** Price ids by plan and interval, from STRIPE_PRICE_<PLAN>_<INTERVAL>; a missing one is null. */
  prices: Record<PlanId, Record<BillingInterval, string | null>>;
  /** STRIPE_API_BASE, split for the SDK (tests only). */
  api: { protocol: 'http' | 'https'; host: string; port: number } | null;
};

const stripeSettings = (v: Record<string, string | undefined>): StripeSettings | null => {
  if (!v.STRIPE_SECRET_KEY) return null;
  const base = v.STRIPE_API_BASE ? new URL(v.STRIPE_API_BASE) : null;
  const prices = Object.fromEntries(
    PLAN_IDS.map((plan) => [
      plan,
      Object.fromEntries(
        BILLING_INTERVALS.map((interval) => [interval, v[priceVariable(plan, interval)] ?? null]),
      ),
    ]),
  ) as StripeSettings['prices'];
  return {
    secretKey: v.STRIPE_SECRET_KEY,
    webhookSecret: v.STRIPE_WEBHOOK_SECRET ?? null,
    prices,
    api: base
      ? {
          protocol: base.protocol === 'http:' ? 'http' : 'https',
          host: base.hostname,
          port: Number(base.port || (base.protocol === 'http:' ? 80 : 443)),
        }
      : null,
  };
};

export type PlaidSettings = {
  clientId: string;
  secret: string;
  /** The Plaid environment called: `development` (retired by Plaid) is taken as sandbox. */
  env: 'sandbox' | 'production';
  /** PLAID_BASE_URL (tests only): the SDK calls this instead of Plaid's host. */
  basePath: string | null;
  /** Link's country_codes (PLAID_COUNTRY_CODES, default US). */
  countryCodes: string[];
  /** A start-up warning to log (PLAID_ENV=development), or null. */
  warning: string | null;
};

const plaidSettings = (
  v: {
    PLAID_CLIENT_ID?: string;
    PLAID_SECRET?: string;
    PLAID_COUNTRY_CODES?: string;
    PLAID_BASE_URL?: string;
  },
  plaidEnv: string,
  environment: string,
): PlaidSettings | null => {
  if (!v.PLAID_CLIENT_ID !== !v.PLAID_SECRET)
    throw new ConfigError(
      'Invalid configuration: PLAID_CLIENT_ID and PLAID_SECRET go together (both from the Plaid dashboard, Developers > Keys), or neither for the built-in Demo Bank',
    );
  // The base URL override lets tests run the real SDK against a local fake; a production
  // server must never send its keys and its customers' tokens anywhere but Plaid.
  if (v.PLAID_BASE_URL && (environment === 'production' || plaidEnv === 'production'))
    throw new ConfigError(
      `Invalid configuration: PLAID_BASE_URL is for tests only and is refused in production (APP_ENV=${environment}, PLAID_ENV=${plaidEnv})`,
    );
  if (!v.PLAID_CLIENT_ID || !v.PLAID_SECRET) return null;
  return {
    clientId: v.PLAID_CLIENT_ID,
    secret: v.PLAID_SECRET,
    env: plaidEnv === 'production' ? 'production' : 'sandbox',
    basePath: v.PLAID_BASE_URL ? v.PLAID_BASE_URL.replace(/\/+$/, '') : null,
    countryCodes: (v.PLAID_COUNTRY_CODES ?? 'US')
      .split(',')
      .map((code) => code.trim().toUpperCase())
      .filter(Boolean),
    warning:
      plaidEnv === 'development'
        ? 'PLAID_ENV=development: Plaid retired its Development environment, so Kontor calls Plaid Sandbox. Set PLAID_ENV=sandbox (or production with production keys).'
        : null,
  };
};

const vapidSettings = (v: {
  VAPID_PUBLIC_KEY?: string;
  VAPID_PRIVATE_KEY?: string;
  VAPID_SUBJECT?: string;
}): ServerConfig['vapid'] => {
  const given = [v.VAPID_PUBLIC_KEY, v.VAPID_PRIVATE_KEY, v.VAPID_SUBJECT].filter(Boolean).length;
  if (given === 0) return null;
  if (given < 3 || !v.VAPID_PUBLIC_KEY || !v.VAPID_PRIVATE_KEY || !v.VAPID_SUBJECT)
    throw new ConfigError(
      'Invalid configuration: VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT go together (generate keys with `npx web-push generate-vapid-keys`)',
    );
  return { publicKey: v.VAPID_PUBLIC_KEY, privateKey: v.VAPID_PRIVATE_KEY, subject: v.VAPID_SUBJECT };
};

export type S3Settings = {
  bucket: string;
  region: string;
  /** S3_ENDPOINT (MinIO, R2, …); null means AWS's own endpoint for the region. */
  endpoint: string | null;
  /** Both keys, or null for the AWS SDK's default chain (environment, profile, instance role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  forcePathStyle: boolean;
  /** Put before every key (`<prefix><organization_id>/<owner>/<uuid>`); '' or ends in '/'. */
  prefix: string;
};

const s3Settings = (v: {
  S3_BUCKET?: string;
  S3_REGION?: string;
  S3_ENDPOINT?: string;
  S3_ACCESS_KEY_ID?: string;
  S3_SECRET_ACCESS_KEY?: string;
  S3_FORCE_PATH_STYLE?: boolean;
  S3_PREFIX?: string;
}): S3Settings | null => {
  if (!v.S3_ACCESS_KEY_ID !== !v.S3_SECRET_ACCESS_KEY)
    throw new ConfigError(
      "Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together, or neither for the AWS SDK's default credentials (environment, profile, instance role)",
    );
  if (!v.S3_BUCKET) {
    const stray = (
      ['S3_REGION', 'S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_FORCE_PATH_STYLE', 'S3_PREFIX'] as const
    ).filter((name) => v[name] !== undefined);
    if (stray.length > 0)
      throw new ConfigError(
        `Invalid configuration: ${stray.join(', ')} ${stray.length === 1 ? 'is' : 'are'} set but S3_BUCKET is not: set S3_BUCKET to keep attachments in that bucket, or unset the S3_* settings to keep them in the database`,
      );
    return null;
  }
  const prefix = v.S3_PREFIX?.replace(/^\/+/, '') ?? '';
  return {
    bucket: v.S3_BUCKET,
    region: v.S3_REGION ?? 'us-east-1',
    endpoint: v.S3_ENDPOINT ? v.S3_ENDPOINT.replace(/\/+$/, '') : null,
    credentials:
      v.S3_ACCESS_KEY_ID && v.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: v.S3_ACCESS_KEY_ID, secretAccessKey: v.S3_SECRET_ACCESS_KEY }
        : null,
    forcePathStyle: v.S3_FORCE_PATH_STYLE ?? false,
    prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
  };
};

const bankFeedsKey = (name: string, text: string) => {
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32 || !/^[A-Za-z0-9+/]+={0,2}$/.test(text.trim()))
    throw new ConfigError(
      `Invalid configuration: ${name} must be 32 random bytes in base64, e.g. the output of \`openssl rand -base64 32\``,
    );
  return key;
};

// A missing key is refused at start in production and staging by main.ts
// (bank-feeds/token-cipher.ts, bankFeedsKeyProblem), not here: tests build production configs.
const bankFeedsKeys = (key: string | undefined, oldKeys: string | undefined): ServerConfig['bankFeeds'] => {
  return {
    key: key ? bankFeedsKey('BANK_FEEDS_KEY', key) : null,
    oldKeys: (oldKeys ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
      .map((k) => bankFeedsKey('BANK_FEEDS_OLD_KEYS', k)),
  };
};

export const loadServerConfig = (env: NodeJS.ProcessEnv = process.env): ServerConfig => {
  const input = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const result = schema.safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? 'configuration');
    const got = env[name];
    throw new ConfigError(
      `Invalid configuration: ${name} ${issue.message}${got !== undefined ? ` (got "${got}")` : ''}`,
    );
  }
  const v = result.data;
  const environment = v.APP_ENV ?? (env.NODE_ENV === 'production' ? 'production' : 'development');
  // A deployed server must sign sessions with a secret of its own (issue 11 §3): refused here,
  // at start, rather than answering 500 to the first sign-in.
  if (environment === 'production' || environment === 'staging') {
    const problem = authSecretProblem(v.AUTH_SECRET, environment);
    if (problem)
      throw new ConfigError(`Invalid configuration: AUTH_SECRET ${problem} (APP_ENV=${environment})`);
  }
  // The replica copies a PostgreSQL primary; the embedded database has none to copy.
  if (v.DATABASE_REPLICA_URL && !v.DATABASE_URL)
    throw new ConfigError(
      'Invalid configuration: DATABASE_REPLICA_URL needs DATABASE_URL (a replica copies a PostgreSQL primary; the embedded PGlite database has no replicas): set DATABASE_URL to the primary, or unset DATABASE_REPLICA_URL',
    );
  const bankFeeds = bankFeedsKeys(v.BANK_FEEDS_KEY, v.BANK_FEEDS_OLD_KEYS);
  const publicUrl = v.PUBLIC_URL ?? `http://localhost:${v.PORT}`;
  const app = buildConfig(environment, {
    apiUrl: publicUrl,
    plaidEnv: v.PLAID_ENV,
    corsOrigins: v.CORS_ORIGINS?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  });
  return {
    port: v.PORT,
    host: v.HOST,
    databaseUrl: v.DATABASE_URL || null,
    replica: v.DATABASE_REPLICA_URL ? { url: v.DATABASE_REPLICA_URL, maxLagMs: v.REPLICA_MAX_LAG_MS } : null,
    dataDir: path.resolve(v.DATA_DIR),
    logLevel: v.LOG_LEVEL,
    publicUrl,
    publicDomain: v.PUBLIC_DOMAIN ?? null,
    authSecret: v.AUTH_SECRET ?? null,
    authRevealUnknownEmail: v.AUTH_REVEAL_UNKNOWN_EMAIL,
    trustProxy: v.TRUST_PROXY,
    ...(v.METRICS_TOKEN ? { metricsToken: v.METRICS_TOKEN } : {}),
    authSignupLimitPerMinute: v.AUTH_SIGNUP_LIMIT_PER_MINUTE,
    apiRateLimit: apiRateLimit(app.ENVIRONMENT, v.API_LIMIT_PER_MINUTE, v.API_ANONYMOUS_LIMIT_PER_MINUTE),
    redisUrl: v.REDIS_URL || null,
    trustedOrigins: trustedOrigins({
      environment: app.ENVIRONMENT,
      port: v.PORT,
      host: v.HOST,
      publicUrl,
      corsOrigins: app.CORS_ORIGINS,
    }),
    smtpUrl: v.SMTP_URL ?? null,
    mailFrom: v.MAIL_FROM,
    adminEmails: (v.ADMIN_EMAILS ?? '')
      .split(',')
      .map((email) => email.trim().toLowerCase())
      .filter(Boolean),
    stripe: stripeSettings(v as unknown as Record<string, string | undefined>),
    vapid: vapidSettings(v),
    bankFeeds,
    plaid: plaidSettings(v, app.PLAID_ENV, app.ENVIRONMENT),
    s3: s3Settings(v),
    version: APP_VERSION,
    app,
  };
};

// SPEC section 9's request cap stays the per-address limit for anonymous calls; a signed-in
// session gets its own, larger budget, so an office behind one address and a dashboard's
// burst of ~20 requests per page never meet it. Setting either variable turns the limit on
// in the test environment too (which has no cap).
const apiRateLimit = (
  environment: keyof typeof ENVIRONMENT_SETTINGS,
  perSession: number | undefined,
  perAddress: number | undefined,
): ServerConfig['apiRateLimit'] => {
  const cap = ENVIRONMENT_SETTINGS[environment].securityRequestCap;
  if (cap === null && perSession === undefined && perAddress === undefined) return null;
  const anonymous = perAddress ?? cap ?? DEFAULT_API_LIMIT_PER_MINUTE;
  return {
    perSession: perSession ?? Math.max(DEFAULT_API_LIMIT_PER_MINUTE, anonymous),
    perAddress: anonymous,
  };
};

import path from 'node:path';
import { z } from 'zod';
import { APP_VERSION, type AppConfig, ConfigError, buildConfig } from '../shared/config/config.ts';
import { ENVIRONMENTS, PLAID_ENVS } from '../shared/config/environments.ts';

// Server settings come from environment variables (documented in .env.example and the
// README). A bad value stops start-up with one line naming the setting.

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const schema = z.object({
  PORT: z.coerce
    .number({ error: 'must be a whole number from 1 to 65535' })
    .int('must be a whole number from 1 to 65535')
    .min(1, 'must be a whole number from 1 to 65535')
    .max(65535, 'must be a whole number from 1 to 65535')
    .default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || v === '' || isPostgresUrl(v), {
      message: 'must be a postgres:// or postgresql:// URL, e.g. postgres://user:password@host:5432/kontor',
    }),
  DATA_DIR: z.string().min(1).default('./data'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  APP_ENV: z.enum(ENVIRONMENTS, { error: `must be one of: ${ENVIRONMENTS.join(', ')}` }).optional(),
  PUBLIC_URL: z.string().optional(),
  PUBLIC_DOMAIN: z.string().optional(),
  PLAID_ENV: z.enum(PLAID_ENVS, { error: `must be one of: ${PLAID_ENVS.join(', ')}` }).optional(),
  CORS_ORIGINS: z.string().optional(),
  AUTH_SECRET: z.string().optional(),
  AUTH_REVEAL_UNKNOWN_EMAIL: bool.default(false),
  TRUST_PROXY: bool.default(false),
  AUTH_SIGNUP_LIMIT_PER_MINUTE: z.coerce
    .number({ error: 'must be a whole number from 1 to 100000' })
    .int('must be a whole number from 1 to 100000')
    .min(1, 'must be a whole number from 1 to 100000')
    .max(100000, 'must be a whole number from 1 to 100000')
    .default(10),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Kontor <no-reply@kontor.local>'),
});

const isPostgresUrl = (value: string) => {
  try {
    const url = new URL(value);
    return (url.protocol === 'postgres:' || url.protocol === 'postgresql:') && url.hostname !== '';
  } catch {
    return false;
  }
};

export type ServerConfig = {
  port: number;
  host: string;
  databaseUrl: string | null;
  dataDir: string;
  logLevel: string;
  publicUrl: string;
  publicDomain: string | null;
  authSecret: string | null;
  authRevealUnknownEmail: boolean;
  /** Read the client address from X-Forwarded-For: only behind a proxy that sets it. */
  trustProxy: boolean;
  /** Sign-ups allowed per client address per minute. */
  authSignupLimitPerMinute: number;
  smtpUrl: string | null;
  mailFrom: string;
  version: string;
  app: AppConfig;
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
    dataDir: path.resolve(v.DATA_DIR),
    logLevel: v.LOG_LEVEL,
    publicUrl,
    publicDomain: v.PUBLIC_DOMAIN ?? null,
    authSecret: v.AUTH_SECRET ?? null,
    authRevealUnknownEmail: v.AUTH_REVEAL_UNKNOWN_EMAIL,
    trustProxy: v.TRUST_PROXY,
    authSignupLimitPerMinute: v.AUTH_SIGNUP_LIMIT_PER_MINUTE,
    smtpUrl: v.SMTP_URL ?? null,
    mailFrom: v.MAIL_FROM,
    version: APP_VERSION,
    app,
  };
};

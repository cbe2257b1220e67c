import { sql } from 'kysely';
import type { AdminSystem } from '../../../shared/admin.ts';
import type { AppContext } from '../../context.ts';
import { adminExpression } from './guard.ts';

// The admin console's System tab (docs/admin.md): version, environment and uptime; the
// database (kind, a ping, the migrations applied); how mail leaves (SMTP or the outbox); the
// billing provider (Stripe with its prices and webhook secret, or the local provider); and
// how many users, companies and admins there are. No secret is ever shown.

const count = async (ctx: AppContext, table: 'user' | 'organizations') =>
  Number(
    (
      await ctx.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

/** The SMTP server's host and port, never its user or password. */
const smtpHost = (url: string) => {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}`;
  } catch {
    return 'an SMTP_URL that is not a URL';
  }
};

export const systemStatus = async (ctx: AppContext): Promise<AdminSystem> => {
  const { config } = ctx;
  const ping = await ctx.database.ping();
  let migrations = 0;
  let latestMigration: string | null = null;
  try {
    const row = await sql<{ n: number; latest: string | null }>`
      select count(*)::int as n, max(name) as latest from kysely_migration`.execute(ctx.database.db);
    migrations = Number(row.rows[0]?.n ?? 0);
    latestMigration = row.rows[0]?.latest ?? null;
  } catch {
    // A database that does not answer is reported by the ping above.
  }
  const stripe = config.stripe;
  const pricesConfigured = stripe
    ? Object.values(stripe.prices).reduce(
        (n, byInterval) => n + Object.values(byInterval).filter((id) => id !== null && id !== '').length,
        0,
      )
    : 0;
  const admins = Number(
    (
      await ctx.database.db
        .selectFrom('user')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where(adminExpression(ctx))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const uptimeSeconds = Math.round(process.uptime());
  return {
    version: config.version,
    environment: config.app.ENVIRONMENT,
    uptimeSeconds,
    startedAt: new Date(Date.now() - uptimeSeconds * 1000).toISOString(),
    database: {
      kind: ctx.database.kind === 'postgres' ? 'postgresql' : 'pglite',
      ok: ping.ok,
      latencyMs: ping.latencyMs,
      migrations,
      latestMigration,
    },
    mail: config.smtpUrl
      ? { transport: 'smtp', ok: true, detail: `Mail goes out through ${smtpHost(config.smtpUrl)}.` }
      : {
          transport: 'outbox',
          ok: true,
          detail: 'No SMTP_URL: mail is kept in the database outbox (the development mailbox shows it).',
        },
    billing: stripe
      ? {
          provider: 'stripe',
          webhookSecretSet: stripe.webhookSecret !== null,
          pricesConfigured,
          detail: `Stripe, ${pricesConfigured} of 6 prices configured${stripe.webhookSecret ? '' : ', STRIPE_WEBHOOK_SECRET not set (webhooks are refused)'}.`,
        }
      : {
          provider: 'local',
          webhookSecretSet: false,
          pricesConfigured: 0,
          detail: 'No STRIPE_SECRET_KEY: the built-in local provider takes checkouts (no real payments).',
        },
    counts: { users: await count(ctx, 'user'), companies: await count(ctx, 'organizations'), admins },
  };
};

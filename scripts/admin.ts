import { parseArgs } from 'node:util';
import { findUserIdByEmail } from '../src/server/auth/accounts.ts';
import { loadServerConfig } from '../src/server/config.ts';
import type { AppContext } from '../src/server/context.ts';
import { openConfiguredDatabase } from '../src/server/db/client.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { CLI_ACTOR, grantAdmin, revokeAdmin } from '../src/server/modules/admin/admins.ts';
import { disableAccount, enableAccount } from '../src/server/modules/admin/users.ts';
import { adminDisableSchema } from '../src/shared/admin.ts';
import { PLAN_ACCESS, type PlanAccess, createPromoCode } from '../src/server/modules/promo/service.ts';
import { ConfigError } from '../src/shared/config/config.ts';
import { AppError } from '../src/shared/errors.ts';

// npm run admin -- <command>: operator tasks at the shell (the Admin page, /admin, does the rest).
//   grant EMAIL                              (make a signed-up user a platform admin)
//   revoke EMAIL                             (take it away; never the last admin)
//   promo create CODE --plan business [--description "..."] [--expires 2027-01-31] [--max 100]
//   user disable EMAIL --reason "..."       (cannot sign in, is told the reason; sessions end;
//                                           refused for the last platform admin; admin log)
//   user enable EMAIL

const USAGE = `Usage:
  npm run admin -- grant EMAIL
  npm run admin -- revoke EMAIL
  npm run admin -- promo create CODE --plan ${PLAN_ACCESS.join('|')} [--description "..."] [--expires YYYY-MM-DD] [--max N]
  npm run admin -- user disable EMAIL --reason "..."
  npm run admin -- user enable EMAIL`;

const fail = (message: string): never => {
  console.error(`kontor admin: ${message}`);
  process.exit(1);
};

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    plan: { type: 'string' },
    description: { type: 'string' },
    expires: { type: 'string' },
    max: { type: 'string' },
    reason: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});

const [area, action, subject] = positionals;
if (values.help || !area) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 1);
}

const parseExpiry = (value: string | undefined) => {
  if (!value) return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T23:59:59Z`))) {
    return fail(`--expires must be a date like 2027-01-31 (got "${value}")`);
  }
  // A code is good through the whole of its last day (UTC).
  return new Date(`${value}T23:59:59.999Z`);
};

const parseMax = (value: string | undefined) => {
  if (value === undefined) return null;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    return fail(`--max must be a whole number of at least 1 (got "${value}")`);
  return n;
};

try {
  const config = loadServerConfig();
  const database = await openConfiguredDatabase(config);
  const ctx: AppContext = { config, database, now: () => new Date() };
  try {
    await migrateToLatest(database.db);
    if (area === 'grant' || area === 'revoke') {
      const email = action;
      if (!email || subject) fail(`${area} needs one EMAIL.\n${USAGE}`);
      if (area === 'grant') {
        const granted = await grantAdmin(ctx, email!);
        console.log(granted ? `${email} is now a platform admin.` : `${email} was already a platform admin.`);
      } else {
        const revoked = await revokeAdmin(ctx, email!);
        console.log(revoked ? `${email} is no longer a platform admin.` : `${email} had no admin grant.`);
      }
    } else if (area === 'promo' && action === 'create') {
      if (!subject) fail(`promo create needs a CODE.\n${USAGE}`);
      const plan = values.plan as PlanAccess | undefined;
      if (!plan || !PLAN_ACCESS.includes(plan)) fail(`--plan must be one of: ${PLAN_ACCESS.join(', ')}`);
      const row = await createPromoCode(ctx, {
        code: subject!,
        planAccess: plan!,
        description: values.description ?? null,
        expiresAt: parseExpiry(values.expires),
        maxRedemptions: parseMax(values.max),
      });
      console.log(
        `Created promo code ${row.code}: ${row.plan_access} plan${row.description ? ` — ${row.description}` : ''}${row.expires_at ? `, expires ${new Date(row.expires_at).toISOString().slice(0, 10)}` : ''}${row.max_redemptions ? `, at most ${row.max_redemptions} redemptions` : ''}.`,
      );
    } else if (area === 'user' && (action === 'disable' || action === 'enable')) {
      if (!subject) fail(`user ${action} needs an EMAIL.\n${USAGE}`);
      const userId = await findUserIdByEmail(ctx, subject!);
      if (!userId) fail(`no user with the email ${subject}`);
      // The console's own rules: the last platform admin who can sign in is never disabled,
      // and the change is written to the admin log (actor "npm run admin").
      if (action === 'disable') {
        const parsed = adminDisableSchema.safeParse({ reason: values.reason ?? '' });
        if (!parsed.success) fail(`--reason: ${parsed.error.issues[0]?.message ?? 'required'}`);
        await disableAccount(ctx, CLI_ACTOR, { id: userId!, ...parsed.data! });
      } else await enableAccount(ctx, CLI_ACTOR, { id: userId! });
      console.log(`${action === 'disable' ? 'Disabled' : 'Enabled'} ${subject}.`);
    } else {
      fail(`unknown command "${positionals.join(' ')}".\n${USAGE}`);
    }
  } finally {
    await database.close();
  }
} catch (error) {
  if (error instanceof AppError || error instanceof ConfigError) fail(error.message);
  throw error;
}

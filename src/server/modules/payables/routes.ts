import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { payablesBillsRoutes } from './routes-bills.ts';
import { payablesCreditsRoutes } from './routes-credits.ts';
import { payablesPaymentsRoutes } from './routes-payments.ts';
import { payablesRecurringRoutes } from './routes-recurring.ts';
import { payablesReportsRoutes } from './routes-reports.ts';
import { payablesSuppliersRoutes } from './routes-suppliers.ts';

// The payables API under /api/orgs/:organizationId (docs/payables.md), one file per area:
// suppliers (with their statement and CSV import), bills (with approval, attachments and the
// payables settings), paying (one bill, a batch, the payment run), supplier credits, recurring
// bills, and the reports. Each route declares its path, its zod schemas (src/shared/payables.ts)
// and the guard, and calls one service function with (ctx, member, input).

export const payablesRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(payablesSuppliersRoutes(ctx));
    await app.register(payablesBillsRoutes(ctx));
    await app.register(payablesPaymentsRoutes(ctx));
    await app.register(payablesCreditsRoutes(ctx));
    await app.register(payablesRecurringRoutes(ctx));
    await app.register(payablesReportsRoutes(ctx));
  };

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { reconciliationRoutes } from './routes-reconciliations.ts';
import { ruleRoutes } from './routes-rules.ts';
import { transactionListRoutes } from './routes-transactions.ts';

// HTTP routes of the bank transactions, all under /api/orgs/:organizationId/, one file per
// area: the transactions and their receipts, the categorisation rules, reconciliation. Each
// declares its path, schemas (src/shared/transactions.ts) and guard through companyRoutes
// (src/server/http/routes.ts) and calls one service function.

export const transactionRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(transactionListRoutes(ctx));
    await app.register(ruleRoutes(ctx));
    await app.register(reconciliationRoutes(ctx));
  };

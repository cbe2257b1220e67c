import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { invoiceCatalogRoutes } from './routes-catalog.ts';
import { invoiceCustomerRoutes } from './routes-customers.ts';
import { invoiceDocumentRoutes } from './routes-invoices.ts';
import { invoicePaymentRoutes } from './routes-payments.ts';
import { invoiceRecurringRoutes } from './routes-recurring.ts';

// The invoicing API under /api/orgs/:organizationId, one file per area: customers (with their
// credit and statement), catalog (items, tax rates, accounts, settings), invoices, money on an
// invoice (payments, credit notes, refunds), and recurring schedules with the reports. Each
// route declares its path, its zod schemas (src/shared/invoices.ts, invoice-credit.ts) and the
// guard, and calls one service function with (ctx, member, input).

export const invoiceRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(invoiceCustomerRoutes(ctx));
    await app.register(invoiceCatalogRoutes(ctx));
    await app.register(invoiceDocumentRoutes(ctx));
    await app.register(invoicePaymentRoutes(ctx));
    await app.register(invoiceRecurringRoutes(ctx));
  };

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  agingQuerySchema,
  agingReportSchema,
  recurringInputSchema,
  recurringListSchema,
  recurringSchema,
  recurringStatusSchema,
  taxReportQuerySchema,
  taxReportSchema,
} from '../../../shared/invoices.ts';
import type { AppContext } from '../../context.ts';
import { memberOf } from '../../http/tenancy.ts';
import { createSchedule, listSchedules, setScheduleStatus } from './recurring.ts';
import { receivablesAging, salesTax } from './reports.ts';
import { guarded, orgParams, scheduleParams } from './routes-common.ts';

// Recurring invoice schedules (changing one needs 'post': it creates and may send invoices)
// and the invoicing reports: receivables aging and sales tax.

export const invoiceRecurringRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/recurring-invoices',
      guarded(ctx, 'read', 'Recurring invoice schedules', {
        params: orgParams,
        response: { 200: recurringListSchema },
      }),
      async (request) => listSchedules(ctx, memberOf(request)),
    );
    app.post(
      '/orgs/:organizationId/recurring-invoices',
      guarded(ctx, 'post', 'Create a recurring invoice schedule', {
        params: orgParams,
        body: recurringInputSchema,
        response: { 201: recurringSchema },
      }),
      async (request, reply) =>
        reply.status(201).send(await createSchedule(ctx, memberOf(request), request.body)),
    );
    app.patch(
      '/orgs/:organizationId/recurring-invoices/:scheduleId',
      guarded(ctx, 'post', 'Pause, resume or end a schedule', {
        params: scheduleParams,
        body: recurringStatusSchema,
        response: { 200: recurringSchema },
      }),
      async (request) =>
        setScheduleStatus(ctx, memberOf(request), { ...request.body, scheduleId: request.params.scheduleId }),
    );
    app.get(
      '/orgs/:organizationId/reports/receivables-aging',
      guarded(ctx, 'read', 'Receivables aging per customer', {
        params: orgParams,
        querystring: agingQuerySchema,
        response: { 200: agingReportSchema },
      }),
      async (request) => receivablesAging(ctx, memberOf(request), request.query),
    );
    app.get(
      '/orgs/:organizationId/reports/sales-tax',
      guarded(ctx, 'read', 'Sales tax collected per rate for a period', {
        params: orgParams,
        querystring: taxReportQuerySchema,
        response: { 200: taxReportSchema },
      }),
      async (request) => salesTax(ctx, memberOf(request), request.query),
    );
  };

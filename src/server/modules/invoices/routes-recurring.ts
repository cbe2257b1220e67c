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
import { companyRoutePlugin } from '../../http/routes.ts';
import { createSchedule, listSchedules, setScheduleStatus } from './recurring.ts';
import { REPORT_FORMAT_QUERY } from '../../../shared/ledger.ts';
import { sendReport } from '../ledger/report-service.ts';
import { receivablesAgingReport, taxReportFile } from './report-exports.ts';

// Recurring invoice schedules (changing one needs 'post': it creates and may send invoices)
// and the invoicing reports: receivables aging and sales tax.

export const invoiceRecurringRoutes = companyRoutePlugin(['invoices'], (route) => {
  route.get(
    '/recurring-invoices',
    { summary: 'Recurring invoice schedules', permission: 'read', response: recurringListSchema },
    listSchedules,
  );
  route.post(
    '/recurring-invoices',
    {
      summary: 'Create a recurring invoice schedule',
      permission: 'post',
      body: recurringInputSchema,
      response: recurringSchema,
      status: 201,
    },
    createSchedule,
  );
  route.patch(
    '/recurring-invoices/:scheduleId',
    {
      summary: 'Pause, resume or end a schedule',
      permission: 'post',
      body: recurringStatusSchema,
      response: recurringSchema,
    },
    setScheduleStatus,
  );
  route.get(
    '/reports/receivables-aging',
    {
      summary: 'Receivables aging per customer (format=json|csv|pdf)',
      permission: 'read',
      query: agingQuerySchema.extend(REPORT_FORMAT_QUERY),
      response: agingReportSchema,
      produces: ['text/csv', 'application/pdf'],
    },
    async (ctx, member, input, { reply }) =>
      sendReport(reply, await receivablesAgingReport(ctx, member, input)),
  );
  route.get(
    '/reports/sales-tax',
    {
      summary:
        'Tax per rate for a period: collected on invoices, paid on bills (less supplier credits) and the net owed (format=json|csv|pdf)',
      permission: 'read',
      query: taxReportQuerySchema.extend(REPORT_FORMAT_QUERY),
      response: taxReportSchema,
    },
    async (ctx, member, input, { reply }) => sendReport(reply, await taxReportFile(ctx, member, input)),
  );
});

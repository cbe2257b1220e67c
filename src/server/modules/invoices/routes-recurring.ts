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
import { receivablesAging, salesTax } from './reports.ts';

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
      summary: 'Receivables aging per customer',
      permission: 'read',
      query: agingQuerySchema,
      response: agingReportSchema,
    },
    receivablesAging,
  );
  route.get(
    '/reports/sales-tax',
    {
      summary:
        'Tax per rate for a period: collected on invoices, paid on bills (less supplier credits) and the net owed',
      permission: 'read',
      query: taxReportQuerySchema,
      response: taxReportSchema,
    },
    salesTax,
  );
});

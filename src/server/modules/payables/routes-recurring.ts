import {
  billScheduleInputSchema,
  billScheduleListSchema,
  billScheduleSchema,
  billScheduleStatusSchema,
} from '../../../shared/payables.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import {
  createBillSchedule,
  deleteBillSchedule,
  listBillSchedules,
  setBillScheduleStatus,
} from './recurring.ts';

// Recurring bill schedules (rent, subscriptions): members record them, as they draft bills; a
// scheduled bill that is submitted above the approval threshold still waits for an approver.

export const payablesRecurringRoutes = companyRoutePlugin(['payables'], (route) => {
  route.get(
    '/bill-schedules',
    { summary: 'Recurring bill schedules', permission: 'read', response: billScheduleListSchema },
    listBillSchedules,
  );
  route.post(
    '/bill-schedules',
    {
      summary: 'Create a recurring bill schedule (rent, a subscription)',
      permission: 'record',
      body: billScheduleInputSchema,
      response: billScheduleSchema,
      status: 201,
    },
    createBillSchedule,
  );
  route.patch(
    '/bill-schedules/:scheduleId/status',
    {
      summary: 'Pause, resume or end a recurring bill schedule',
      permission: 'record',
      body: billScheduleStatusSchema,
      response: billScheduleSchema,
    },
    setBillScheduleStatus,
  );
  route.delete(
    '/bill-schedules/:scheduleId',
    {
      summary: 'Delete a recurring bill schedule that has created no bill yet (end one that has)',
      permission: 'record',
      response: null,
    },
    deleteBillSchedule,
  );
});

import { z } from 'zod';
import {
  adminActionListSchema,
  adminAuditListSchema,
  adminAuditQuerySchema,
  adminContactListSchema,
  adminContactMessageSchema,
  adminContactQuerySchema,
  adminContactUpdateSchema,
  adminSubscriptionListSchema,
  adminSubscriptionQuerySchema,
  adminSubscriptionSummarySchema,
  adminSystemSchema,
} from '../../../shared/admin.ts';
import { cursorQuery } from '../../../shared/schema-parts.ts';
import { errorBody } from '../../http/errors.ts';
import type { UserRoutes } from '../../http/routes.ts';
import { auditCsv, listAdminActions, listAudit } from './audit-log.ts';
import { actorOf } from './guard.ts';
import { listContactMessages, updateContactMessage } from './inbox.ts';
import { listSubscriptions, subscriptionSummary } from './subscriptions.ts';
import { systemStatus } from './system.ts';

// /api/admin: contact messages, subscriptions, the audit log across companies (and as CSV),
// what admins did, and the system's status.

const refusals = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody };

export const consoleAdminRoutes = (route: UserRoutes) => {
  route.get(
    '/admin/contact-messages',
    {
      summary: 'Contact messages from the website, newest first, with the unread count',
      query: adminContactQuerySchema,
      response: adminContactListSchema,
      otherResponses: refusals,
    },
    (ctx, _user, input) => listContactMessages(ctx, input),
  );
  route.patch(
    '/admin/contact-messages/:id',
    {
      summary: 'Mark a contact message read or replied',
      params: z.object({ id: z.string().min(1).max(100) }),
      body: adminContactUpdateSchema,
      response: adminContactMessageSchema,
      otherResponses: refusals,
    },
    (ctx, user, input) => updateContactMessage(ctx, actorOf(user), input),
  );
  route.get(
    '/admin/subscriptions',
    {
      summary: 'Billing accounts with state and MRR',
      query: adminSubscriptionQuerySchema,
      response: adminSubscriptionListSchema,
      otherResponses: refusals,
    },
    (ctx, _user, input) => listSubscriptions(ctx, input),
  );
  route.get(
    '/admin/subscriptions/summary',
    {
      summary: 'MRR, counts by status, trials ending this week, churn over 30 days',
      response: adminSubscriptionSummarySchema,
      otherResponses: refusals,
    },
    (ctx) => subscriptionSummary(ctx),
  );
  route.get(
    '/admin/audit',
    {
      summary: 'The audit log across companies, newest first',
      query: adminAuditQuerySchema,
      response: adminAuditListSchema,
      otherResponses: refusals,
    },
    (ctx, _user, input) => listAudit(ctx, input),
  );
  route.get(
    '/admin/audit.csv',
    {
      summary: 'The audit log across companies as CSV',
      query: adminAuditQuerySchema,
      otherResponses: refusals,
      produces: ['text/csv'],
    },
    (ctx, _user, input, { reply }) => auditCsv(ctx, input, reply),
  );
  route.get(
    '/admin/actions',
    {
      summary: 'What platform admins did, newest first',
      query: z.object(cursorQuery(200, 50)),
      response: adminActionListSchema,
      otherResponses: refusals,
    },
    (ctx, _user, input) => listAdminActions(ctx, input),
  );
  route.get(
    '/admin/system',
    {
      summary: 'Version, database, mail and billing provider status',
      response: adminSystemSchema,
      otherResponses: refusals,
    },
    (ctx) => systemStatus(ctx),
  );
};

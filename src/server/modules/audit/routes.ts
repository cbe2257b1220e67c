import { auditLogPageSchema, auditLogQuerySchema } from '../../../shared/ledger.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { listAuditLog } from './service.ts';

// The company's audit log, newest first, for admins and accountants (view_audit).

export const auditRoutes = companyRoutePlugin(['audit'], (route) => {
  route.get(
    '/audit-log',
    {
      summary: 'Audit log: who did what, when, before and after',
      permission: 'view_audit',
      query: auditLogQuerySchema,
      response: auditLogPageSchema,
    },
    listAuditLog,
  );
});

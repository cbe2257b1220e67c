import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditLogPageSchema, auditLogQuerySchema } from '../../../shared/ledger.ts';
import type { AppContext } from '../../context.ts';
import { companyRoutes } from '../../http/routes.ts';
import { listAuditLog } from './service.ts';

// The company's audit log, newest first, for admins and accountants (view_audit).

export const auditRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    companyRoutes(app, ctx, ['audit']).get(
      '/audit-log',
      {
        summary: 'Audit log: who did what, when, before and after',
        permission: 'view_audit',
        query: auditLogQuerySchema,
        response: auditLogPageSchema,
      },
      listAuditLog,
    );
  };

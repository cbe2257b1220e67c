import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Permission } from '../../http/permissions.ts';
import { requirePermission } from '../../http/tenancy.ts';

// Path parameters the invoicing route files share. Ids are at most 100 characters.

export const tags = ['invoices'];
export const orgParams = z.object({ organizationId: z.string().min(1) });
const id = z.string().min(1).max(100);
export const customerParams = orgParams.extend({ customerId: id });
export const invoiceParams = orgParams.extend({ invoiceId: id });
export const itemParams = orgParams.extend({ itemId: id });
export const taxRateParams = orgParams.extend({ taxRateId: id });
export const scheduleParams = orgParams.extend({ scheduleId: id });
export const paymentParams = invoiceParams.extend({ paymentId: z.string().min(1) });
export const creditNoteParams = invoiceParams.extend({ creditNoteId: z.string().min(1) });
export const creditNoteRefundParams = invoiceParams.extend({ creditNoteId: id });

/**
 * A route's options: the permission it needs and its OpenAPI summary and zod schemas
 * (`params`, `querystring`, `body`, `response`), tagged 'invoices'.
 */
export const guarded = <S extends object>(
  ctx: AppContext,
  permission: Permission,
  summary: string,
  schema: S,
) => ({
  preHandler: requirePermission(ctx, permission),
  schema: { tags, summary, ...schema },
});

import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  AdminContactMessage,
  AdminPromo,
  AdminPromoCreate,
  AdminPromoUpdate,
  AdminSystem,
  AdminUserDetail,
  adminActionListSchema,
  adminAuditListSchema,
  adminContactListSchema,
  adminDeleteResultSchema,
  adminPromoListSchema,
  adminRedemptionListSchema,
  adminSubscriptionListSchema,
  adminSubscriptionSummarySchema,
  adminUserListSchema,
} from '../../../shared/admin.ts';
import { api } from '../../lib/api.ts';
import { invalidateAfter, keys } from '../../lib/queryKeys.ts';

// The admin console's calls (GET/POST/PATCH /api/admin/...; shapes in src/shared/admin.ts).
// Every query key sits under keys.admin(), and every change refreshes all of them
// (invalidateAfter.admin): a user disabled shows in the list, the detail and the admin actions.

export type AdminUserList = z.infer<typeof adminUserListSchema>;
export type AdminDeleteResult = z.infer<typeof adminDeleteResultSchema>;
export type AdminPromoList = z.infer<typeof adminPromoListSchema>;
export type AdminRedemptionList = z.infer<typeof adminRedemptionListSchema>;
export type AdminContactList = z.infer<typeof adminContactListSchema>;
export type AdminSubscriptionList = z.infer<typeof adminSubscriptionListSchema>;
export type AdminSubscriptionSummary = z.infer<typeof adminSubscriptionSummarySchema>;
export type AdminAuditList = z.infer<typeof adminAuditListSchema>;
export type AdminActionList = z.infer<typeof adminActionListSchema>;

type Query = Record<string, string | number | undefined>;

const PAGE = 25;

const useAdminQuery = <T>(name: string, path: string, query?: Query, enabled = true) =>
  useQuery({
    queryKey: keys.admin(name, query ?? null),
    queryFn: () => api.get<T>(path, query),
    placeholderData: keepPreviousData,
    enabled,
  });

export type UserFilter = { q: string; status: 'all' | 'active' | 'disabled'; cursor?: string };
export const useAdminUsers = ({ q, status, cursor }: UserFilter) =>
  useAdminQuery<AdminUserList>('users', '/admin/users', {
    q: q.trim() || undefined,
    status,
    cursor,
    limit: PAGE,
  });

export const useAdminUser = (id: string) =>
  useQuery({
    queryKey: keys.admin('user', id),
    queryFn: () => api.get<AdminUserDetail>(`/admin/users/${encodeURIComponent(id)}`),
  });

export const useAdminPromos = () => useAdminQuery<AdminPromoList>('promo-codes', '/admin/promo-codes');
export const useAdminRedemptions = (code: string) =>
  useAdminQuery<AdminRedemptionList>(
    'redemptions',
    `/admin/promo-codes/${encodeURIComponent(code)}/redemptions`,
    {
      code,
    },
  );

export type MessageFilter = 'all' | 'unread' | 'unreplied';
export const useAdminMessages = (status: MessageFilter, cursor?: string, enabled = true) =>
  useAdminQuery<AdminContactList>(
    'messages',
    '/admin/contact-messages',
    { status, cursor, limit: PAGE },
    enabled,
  );

export type SubscriptionFilter =
  | 'all'
  | 'trialing'
  | 'active'
  | 'past_due'
  | 'canceled'
  | 'unpaid'
  | 'incomplete'
  | 'read_only';
export const useAdminSubscriptions = (status: SubscriptionFilter, cursor?: string) =>
  useAdminQuery<AdminSubscriptionList>('subscriptions', '/admin/subscriptions', {
    status,
    cursor,
    limit: PAGE,
  });
export const useAdminSubscriptionSummary = () =>
  useAdminQuery<AdminSubscriptionSummary>('subscription-summary', '/admin/subscriptions/summary');

export type AuditFilter = {
  organizationId: string;
  userId: string;
  action: string;
  from: string;
  to: string;
};
/** The audit filters as query parameters (blank ones left out): the list's and the CSV link's. */
export const auditQuery = (filter: AuditFilter): Query => ({
  organizationId: filter.organizationId.trim() || undefined,
  userId: filter.userId.trim() || undefined,
  action: filter.action.trim() || undefined,
  from: filter.from || undefined,
  to: filter.to || undefined,
});
export const useAdminAudit = (filter: AuditFilter, cursor?: string) =>
  useAdminQuery<AdminAuditList>('audit', '/admin/audit', { ...auditQuery(filter), cursor, limit: 50 });
export const auditCsvHref = (filter: AuditFilter) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(auditQuery(filter))) if (v !== undefined) params.set(k, String(v));
  const text = params.toString();
  return `/api/admin/audit.csv${text ? `?${text}` : ''}`;
};
export const useAdminActions = (cursor?: string) =>
  useAdminQuery<AdminActionList>('actions', '/admin/actions', { cursor, limit: PAGE });

export const useAdminSystem = () =>
  useQuery({ queryKey: keys.admin('system'), queryFn: () => api.get<AdminSystem>('/admin/system') });

const userPath = (id: string, action = '') => `/admin/users/${encodeURIComponent(id)}${action}`;
const promoPath = (code: string, action = '') => `/admin/promo-codes/${encodeURIComponent(code)}${action}`;

/** The admin console's changes; each refreshes every admin view once it went through. */
export const useAdminChanges = () => {
  const client = useQueryClient();
  const after =
    <A extends unknown[], T>(call: (...args: A) => Promise<T>) =>
    async (...args: A) => {
      const result = await call(...args);
      await invalidateAfter.admin(client);
      return result;
    };
  return {
    disableUser: after((id: string, reason: string) =>
      api.post<AdminUserDetail>(userPath(id, '/disable'), { reason }),
    ),
    enableUser: after((id: string) => api.post<AdminUserDetail>(userPath(id, '/enable'))),
    sendResetLink: after((id: string) => api.post<{ sent: true }>(userPath(id, '/reset-link'))),
    deleteUser: after((id: string, confirmEmail: string) =>
      api.post<AdminDeleteResult>(userPath(id, '/delete'), { confirmEmail }),
    ),
    createPromo: after((body: AdminPromoCreate) => api.post<AdminPromo>('/admin/promo-codes', body)),
    updatePromo: after((code: string, body: AdminPromoUpdate) =>
      api.patch<AdminPromo>(promoPath(code), body),
    ),
    expirePromo: after((code: string) => api.post<AdminPromo>(promoPath(code, '/expire'))),
    markMessage: after((id: string, change: { read?: boolean; replied?: boolean }) =>
      api.patch<AdminContactMessage>(`/admin/contact-messages/${encodeURIComponent(id)}`, change),
    ),
  };
};

/** Where a user's data export downloads from (a JSON attachment). */
export const userExportHref = (id: string) => `/api${userPath(id, '/export')}`;

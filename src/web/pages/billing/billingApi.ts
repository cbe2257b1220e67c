import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  BillingInvoice,
  BillingOverview,
  LocalCardInput,
  LocalCheckout,
  PlanChoiceInput,
  promoRedeemResultSchema,
} from '../../../shared/billing.ts';
import { api } from '../../lib/api.ts';
import { invalidateAfter, keys } from '../../lib/queryKeys.ts';

// The billing API (docs/billing.md) for the billing page and the app shell's trial banner.
// Billing belongs to the signed-in user's account, not to a company, so its keys are
// keys.billing(…) and every change refreshes them all through invalidateAfter.billing.

export type PromoRedeemResult = z.infer<typeof promoRedeemResultSchema>;

export const billingCalls = {
  overview: () => api.get<BillingOverview>('/billing'),
  invoices: () => api.get<{ invoices: BillingInvoice[] }>('/billing/invoices'),
  checkout: (choice: PlanChoiceInput) => api.post<{ url: string }>('/billing/checkout', choice),
  portal: () => api.post<{ url: string }>('/billing/portal'),
  change: (choice: PlanChoiceInput) => api.post<BillingOverview>('/billing/change', choice),
  cancel: () => api.post<BillingOverview>('/billing/cancel'),
  resume: () => api.post<BillingOverview>('/billing/resume'),
  paymentMethod: (card: LocalCardInput) => api.post<BillingOverview>('/billing/payment-method', card),
  checkoutSession: (id: string) =>
    api.get<LocalCheckout>(`/billing/checkout-sessions/${encodeURIComponent(id)}`),
  pay: (id: string, card: LocalCardInput) =>
    api.post<LocalCheckout>(`/billing/checkout-sessions/${encodeURIComponent(id)}/pay`, card),
  authenticate: (id: string, approve: boolean) =>
    api.post<LocalCheckout>(`/billing/checkout-sessions/${encodeURIComponent(id)}/authenticate`, { approve }),
  redeem: (code: string) => api.post<PromoRedeemResult>('/promo-codes/redeem', { code }),
};

export const useBillingOverview = () =>
  useQuery({ queryKey: keys.billing('overview'), queryFn: billingCalls.overview });

export const useBillingInvoices = () =>
  useQuery({ queryKey: keys.billing('invoices'), queryFn: billingCalls.invoices });

export const useCheckoutSession = (id: string) =>
  useQuery({
    queryKey: keys.billing('checkout', id),
    queryFn: () => billingCalls.checkoutSession(id),
    retry: false,
  });

/**
 * Runs a billing change and refreshes every billing view (overview, invoices, the banner).
 * Returns what the change answered.
 */
export const useBillingChange = () => {
  const client = useQueryClient();
  return async <T>(change: () => Promise<T>): Promise<T> => {
    try {
      return await change();
    } finally {
      await invalidateAfter.billing(client);
    }
  };
};

/**
 * Where Stripe Checkout or the Customer Portal (or the local provider's pages) lives: the
 * browser goes there. A same-origin answer of the local provider is a /billing address too.
 */
export const goTo = (url: string) => window.location.assign(url);

/** The PDF of one of the account's invoices: Stripe's own, or the local provider's from our API. */
export const invoicePdfUrl = (invoice: BillingInvoice, provider: BillingOverview['provider']) =>
  invoice.pdfUrl ??
  (provider === 'local' ? `/api/billing/invoices/${encodeURIComponent(invoice.id)}/pdf` : null);

import type { AppContext } from '../../context.ts';
import { createLocalProvider } from './local-provider.ts';
import type { BillingProvider } from './provider.ts';

// Which provider bills (docs/billing.md): Stripe when STRIPE_SECRET_KEY is set, else the
// built-in local provider (no network).

export const billingProvider = (ctx: AppContext): BillingProvider => createLocalProvider(ctx);

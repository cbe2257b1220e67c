import type { StripeSettings } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { createLocalProvider } from './local-provider.ts';
import type { BillingProvider } from './provider.ts';
import { createStripeProvider } from './stripe-provider.ts';

// Which provider bills (docs/billing.md): Stripe through its SDK when STRIPE_SECRET_KEY is set,
// else the built-in local provider (no network). One Stripe client per configuration.

const stripeProviders = new WeakMap<StripeSettings, BillingProvider>();

export const billingProvider = (ctx: AppContext): BillingProvider => {
  const settings = ctx.config.stripe;
  if (!settings) return createLocalProvider(ctx);
  let provider = stripeProviders.get(settings);
  if (!provider) {
    provider = createStripeProvider(settings);
    stripeProviders.set(settings, provider);
  }
  return provider;
};

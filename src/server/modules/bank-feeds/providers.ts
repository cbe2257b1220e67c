import type { AppContext } from '../../context.ts';
import { createDemoProvider } from './demo-provider.ts';
import { createPlaidProvider } from './plaid-provider.ts';
import type { BankFeedProvider } from './provider.ts';

// Which provider a server talks to (issue 18 §1, §6): Plaid when PLAID_CLIENT_ID and
// PLAID_SECRET are set (ctx.config.plaid; one SDK client per configuration), the built-in
// Demo Bank otherwise.

const plaidProviders = new WeakMap<object, BankFeedProvider>();

export const bankFeedProvider = (ctx: Pick<AppContext, 'config' | 'now'>): BankFeedProvider => {
  const settings = ctx.config.plaid;
  if (!settings) return createDemoProvider({ now: ctx.now });
  let provider = plaidProviders.get(settings);
  if (!provider) {
    provider = createPlaidProvider(settings);
    plaidProviders.set(settings, provider);
  }
  return provider;
};

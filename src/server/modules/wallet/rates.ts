import { badRequest, notFound } from '../../../shared/errors.ts';
import { isCurrencyCode } from '../../../shared/money.ts';
import type { AppContext } from '../../context.ts';
import { type Executor, inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { recordMemberAudit } from '../audit/record.ts';
import { listRates, selectBaseCurrency, selectRateOn, upsertRate } from './queries.ts';

// The company's base currency and exchange rates (base units per one unit of a currency, on a
// date), as the wallet, transfers and transactions use them.

/** A rate numeric(24,10) comes back padded; show it as given. */
export const tidyRate = (rate: string) =>
  rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate;

export const baseCurrencyOf = async (db: Executor, organizationId: string) => {
  const base = await selectBaseCurrency(db, organizationId);
  if (!base) throw notFound('Company not found.');
  return base;
};

export const rateOrThrow = async (
  db: Executor,
  organizationId: string,
  currency: string,
  base: string,
  date: string,
  given?: string,
) => {
  if (currency === base) return null;
  if (given) return given;
  const found = await selectRateOn(db, organizationId, currency, date);
  if (!found) {
    throw badRequest(
      'rate_required',
      `Give the ${currency} to ${base} exchange rate on ${date} for the opening balance, or add the rate first.`,
      { currency, date },
    );
  }
  return found.rate;
};

export const setExchangeRate = async (
  ctx: AppContext,
  member: MemberContext,
  input: { currency: string; date: string; rate: string },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const base = await baseCurrencyOf(trx, member.organizationId);
    if (!isCurrencyCode(input.currency))
      throw badRequest('invalid_currency', `"${input.currency}" is not a currency code.`);
    if (input.currency === base)
      throw badRequest('base_currency_rate', `${base} is the base currency; its rate is always 1.`);
    await upsertRate(trx, { organizationId: member.organizationId, ...input, createdBy: member.userId });
    await recordMemberAudit(
      trx,
      member,
      'exchange_rate.set',
      ['exchange_rate', `${input.currency}:${input.date}`],
      { after: input },
    );
    return { currency: input.currency, date: input.date, rate: tidyRate(input.rate) };
  });

export const listExchangeRates = async (ctx: AppContext, member: MemberContext) => ({
  rates: (await listRates(ctx.database.db, member.organizationId, 200)).map((r) => ({
    currency: r.currency.trim(),
    date: r.date,
    rate: tidyRate(r.rate),
  })),
});

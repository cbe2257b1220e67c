import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  PLANS,
  describeLimit,
  findPlan,
  monthlyEquivalent,
  parsePlanChoice,
  planChoiceQuery,
  planLimitLines,
  planPrice,
  yearlySaving,
} from './plans.ts';

describe('plans', () => {
  it('has personal, business and enterprise with whole-cent prices', () => {
    expect(PLANS.map((p) => p.id)).toEqual(['personal', 'business', 'enterprise']);
    for (const p of PLANS) {
      expect(Number.isSafeInteger(p.monthlyPrice)).toBe(true);
      expect(Number.isSafeInteger(p.yearlyPrice)).toBe(true);
      // Yearly billing is cheaper than twelve months, never more.
      expect(yearlySaving(p)).toBeGreaterThan(0);
    }
  });

  it('prices a charge and its monthly equivalent in minor units', () => {
    const business = findPlan('business');
    expect(planPrice(business, 'monthly')).toBe(4900);
    expect(planPrice(business, 'yearly')).toBe(49000);
    expect(monthlyEquivalent(business, 'yearly')).toBe(4083);
    expect(yearlySaving(business)).toBe(9800);
  });

  it('describes limits', () => {
    expect(describeLimit(null, 'user', 'users')).toBe('Unlimited users');
    expect(describeLimit(1, 'user', 'users')).toBe('1 user');
    expect(describeLimit(10, 'user', 'users')).toBe('10 users');
    expect(describeLimit(1, 'company', 'companies')).toBe('1 company');
  });

  it('states every plan limits in one wording (pricing page and plan picker)', () => {
    expect(planLimitLines(findPlan('personal'))).toEqual([
      '1 company',
      '1 member per company',
      '50 invoices a month per company',
      '1 GB of file storage',
    ]);
    expect(planLimitLines(findPlan('business'))).toEqual([
      '3 companies',
      '10 members per company',
      'Unlimited invoices',
      '10 GB of file storage',
    ]);
    expect(planLimitLines(findPlan('enterprise'))).toEqual([
      'Unlimited companies',
      'Unlimited members per company',
      'Unlimited invoices',
      '100 GB of file storage',
    ]);
  });

  it('promises no feature Kontor does not have', () => {
    const text = PLANS.flatMap((p) => [...p.features, ...planLimitLines(p)]).join(' ');
    expect(text).not.toMatch(/payroll|quotes|SSO|webhook|24\/7|success manager|bank feed|bank connection/i);
  });

  it('round-trips a plan choice through the query string and storage', () => {
    const choice = { plan: 'enterprise' as const, interval: 'yearly' as const };
    expect(parsePlanChoice(new URLSearchParams(planChoiceQuery(choice)))).toEqual(choice);
    expect(parsePlanChoice(JSON.stringify(choice))).toEqual(choice);
    expect(parsePlanChoice(new URLSearchParams('plan=business'))).toEqual({
      plan: 'business',
      interval: 'monthly',
    });
  });

  it('ignores anything that is not a known plan and interval', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (plan, interval) => {
        const parsed = parsePlanChoice(new URLSearchParams({ plan, interval }));
        const known =
          ['personal', 'business', 'enterprise'].includes(plan) && ['monthly', 'yearly'].includes(interval);
        expect(parsed === null).toBe(!known);
      }),
    );
    expect(parsePlanChoice('{not json')).toBeNull();
    expect(parsePlanChoice(null)).toBeNull();
  });
});

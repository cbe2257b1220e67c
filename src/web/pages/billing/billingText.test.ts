import { describe, expect, it } from 'vitest';
import type { BillingOverview } from '../../../shared/billing.ts';
import { parsePlanChoice } from '../../../shared/plans.ts';
import { planChoiceText } from '../signup/PlanChoice.tsx';
import {
  cardText,
  changeKind,
  formatExpiry,
  groupCardNumber,
  planLabel,
  planStatusLine,
  priceText,
  statusChip,
  trialDaysText,
  usageRow,
} from './billingText.ts';

// What the billing page and the trial banner say for each state of the billing overview.

const GB = 1024 ** 3;

const overview = (over: Partial<BillingOverview> = {}): BillingOverview => ({
  plan: 'business',
  interval: 'yearly',
  status: 'trialing',
  provider: 'local',
  access: 'full',
  readOnlyReason: null,
  onTrial: true,
  trialEndsAt: '2026-12-12T10:00:00.000Z',
  trialDaysLeft: 14,
  hasSubscription: false,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  paymentMethod: null,
  grantedPlan: null,
  grantedUntil: null,
  discount: null,
  usage: [],
  ...over,
});

describe('plan and price', () => {
  it('names a plan with its interval and prices it per interval, less a discount as charged', () => {
    expect(planLabel('business', 'yearly')).toBe('Business (yearly)');
    expect(priceText('business', 'yearly')).toBe('$490.00 a year');
    expect(priceText('personal', 'monthly')).toBe('$19.00 a month');
    // 15% of $19.00 is $2.85; of $149.00 is $22.35
    expect(priceText('personal', 'monthly', 15)).toBe('$16.15 a month');
    expect(priceText('enterprise', 'monthly', 15)).toBe('$126.65 a month');
    // 5% of $49.00 is $2.45
    expect(priceText('business', 'monthly', 5)).toBe('$46.55 a month');
  });

  it('tells an upgrade from a downgrade by the monthly price', () => {
    const o = overview({ plan: 'business', interval: 'monthly' });
    expect(changeKind(o, 'enterprise', 'monthly')).toBe('upgrade');
    expect(changeKind(o, 'personal', 'yearly')).toBe('downgrade');
    expect(changeKind(o, 'business', 'yearly')).toBe('downgrade');
  });
});

describe('trial and status', () => {
  it('counts the trial days down', () => {
    expect(trialDaysText(14)).toBe('14 days left');
    expect(trialDaysText(1)).toBe('1 day left');
    expect(trialDaysText(0)).toBe('Ends today');
  });

  it('says what state the account is in', () => {
    expect(statusChip(overview())).toEqual({ label: 'Free trial', tone: 'blue' });
    expect(planStatusLine(overview())).toBe(
      'Free trial: 14 days left. It ends on 12/12/2026; no credit card required until you subscribe.',
    );
    const active = overview({
      status: 'active',
      onTrial: false,
      hasSubscription: true,
      currentPeriodEnd: '2027-11-28T00:00:00.000Z',
    });
    expect(statusChip(active)).toEqual({ label: 'Active', tone: 'green' });
    expect(planStatusLine(active)).toBe('Renews on 11/28/2027.');
    const canceling = { ...active, cancelAtPeriodEnd: true };
    expect(statusChip(canceling).label).toBe('Cancels at period end');
    expect(planStatusLine(canceling)).toBe('Your plan cancels on 11/28/2027. Resume it to keep it.');
    const pastDue = { ...active, status: 'past_due' as const };
    expect(statusChip(pastDue)).toEqual({ label: 'Past due', tone: 'amber' });
    expect(planStatusLine(pastDue)).toMatch(/Update your card/);
    const readOnly = overview({
      onTrial: false,
      trialDaysLeft: 0,
      access: 'read_only',
      readOnlyReason: 'Trial over.',
    });
    expect(statusChip(readOnly)).toEqual({ label: 'Read-only', tone: 'red' });
    expect(planStatusLine(readOnly)).toMatch(/read-only until you subscribe/);
    expect(planStatusLine(overview({ status: 'canceled', onTrial: false }))).toMatch(/has ended/);
  });
});

describe('usage', () => {
  it('shows used against the limit, storage in bytes, unlimited without a bar', () => {
    expect(usageRow({ key: 'companies', label: 'Companies', used: 1, limit: 3 })).toEqual({
      key: 'companies',
      label: 'Companies',
      text: '1 of 3',
      percent: 33,
      tone: 'normal',
    });
    expect(usageRow({ key: 'members', label: 'Members', used: 9, limit: 10 }).tone).toBe('near');
    const full = usageRow({ key: 'companies', label: 'Companies', used: 4, limit: 3 });
    expect([full.percent, full.tone, full.text]).toEqual([100, 'full', '4 of 3']);
    expect(usageRow({ key: 'storageBytes', label: 'Storage', used: 1.5 * GB, limit: 10 * GB }).text).toBe(
      '1.5 GB of 10 GB',
    );
    expect(usageRow({ key: 'storageBytes', label: 'Storage', used: 0, limit: 10 * GB }).text).toBe(
      '0 B of 10 GB',
    );
    const unlimited = usageRow({ key: 'invoicesPerMonth', label: 'Invoices', used: 1234, limit: null });
    expect([unlimited.text, unlimited.percent]).toEqual(['1,234 · Unlimited', null]);
    expect(usageRow({ key: 'bankFeeds', label: 'Feeds', used: 0, limit: 0 }).tone).toBe('full');
  });
});

describe('cards', () => {
  it('summarises the card on file and formats what is typed', () => {
    expect(cardText({ brand: 'visa', last4: '4242', expMonth: 3, expYear: 2030 })).toBe(
      'Visa •••• 4242, expires 03/30',
    );
    expect(groupCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(groupCardNumber('4000-0025 0000x3155')).toBe('4000 0025 0000 3155');
    expect(groupCardNumber('12345678901234567890123')).toBe('1234 5678 9012 3456 789');
    expect(formatExpiry('1230')).toBe('12/30');
    expect(formatExpiry('12/3')).toBe('12/3');
    expect(formatExpiry('1')).toBe('1');
  });
});

describe('the plan chosen on /pricing', () => {
  it('reads the choice from the query or storage and says what the trial starts on', () => {
    const choice = parsePlanChoice(new URLSearchParams('plan=business&interval=yearly'));
    expect(choice).toEqual({ plan: 'business', interval: 'yearly' });
    expect(planChoiceText(choice!)).toBe('Starting a 14-day free trial of Business (yearly)');
    expect(parsePlanChoice(new URLSearchParams('plan=gold&interval=yearly'))).toBeNull();
    expect(parsePlanChoice('{"plan":"personal","interval":"monthly"}')).toEqual({
      plan: 'personal',
      interval: 'monthly',
    });
    expect(parsePlanChoice('not json')).toBeNull();
  });
});

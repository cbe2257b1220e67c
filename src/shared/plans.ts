// Subscription plans (SPEC sections 1 and 9): personal, business, enterprise, each billed
// monthly or yearly. The public pricing page shows these and the billing work charges them,
// so names, prices and limits live here once. Prices are integer minor units (USD cents).

export const PLAN_IDS = ['personal', 'business', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export const BILLING_INTERVALS = ['monthly', 'yearly'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];

export const BILLING_INTERVAL_LABELS: Record<BillingInterval, string> = {
  monthly: 'Monthly',
  yearly: 'Yearly',
};

export const TRIAL_DAYS = 14;
export const PLAN_CURRENCY = 'USD';

/**
 * What a plan allows, enforced on the server (a 402 naming the limit and the plan that lifts
 * it; nothing is deleted when a limit is reached). null means unlimited.
 * - companies: companies the account owns;
 * - members: people in one company (the owner included, pending invitations counted);
 * - invoicesPerMonth: invoices a company issues in a calendar month (UTC);
 * - bankFeeds: linked bank connections of one company (issue 18);
 * - storageBytes: attachments stored across the account's companies.
 */
export type PlanLimits = {
  companies: number | null;
  members: number | null;
  invoicesPerMonth: number | null;
  bankFeeds: number | null;
  storageBytes: number | null;
};

export const PLAN_LIMIT_KEYS = [
  'companies',
  'members',
  'invoicesPerMonth',
  'bankFeeds',
  'storageBytes',
] as const;
export type PlanLimitKey = (typeof PLAN_LIMIT_KEYS)[number];

const GB = 1024 * 1024 * 1024;

export type Plan = {
  id: PlanId;
  name: string;
  tagline: string;
  /** Minor units per month when billed monthly. */
  monthlyPrice: number;
  /** Minor units per year when billed yearly (two months free). */
  yearlyPrice: number;
  limits: PlanLimits;
  features: readonly string[];
  highlighted: boolean;
};

export const PLANS: readonly Plan[] = [
  {
    id: 'personal',
    name: 'Personal',
    tagline: 'For freelancers and sole traders keeping their books straight.',
    monthlyPrice: 1900,
    yearlyPrice: 19000,
    limits: { companies: 1, members: 1, invoicesPerMonth: 50, bankFeeds: 2, storageBytes: 1 * GB },
    features: [
      'Double-entry bookkeeping',
      'Invoices, credit notes and recurring invoices',
      'Bank statement import',
      'Income statement and balance sheet',
      'Audit log of every change',
      'Help from the team through the contact form',
    ],
    highlighted: false,
  },
  {
    id: 'business',
    name: 'Business',
    tagline: 'For growing teams that invoice, pay and report every week.',
    monthlyPrice: 4900,
    yearlyPrice: 49000,
    limits: { companies: 3, members: 10, invoicesPerMonth: null, bankFeeds: 10, storageBytes: 10 * GB },
    features: [
      'Everything in Personal',
      'Role-based permissions and approvals',
      'Bank reconciliation rules',
      'Multi-currency invoicing',
      'Bills, suppliers and payment runs',
    ],
    highlighted: true,
  },
  {
    id: 'enterprise',
    name: 'Enterprise',
    tagline: 'For finance teams running several entities with audit needs.',
    monthlyPrice: 14900,
    yearlyPrice: 149000,
    limits: {
      companies: null,
      members: null,
      invoicesPerMonth: null,
      bankFeeds: null,
      storageBytes: 100 * GB,
    },
    features: [
      'Everything in Business',
      'Unlimited members and companies',
      'Several entities, each with its own books',
    ],
    highlighted: false,
  },
];

export const isPlanId = (value: unknown): value is PlanId => PLAN_IDS.includes(value as PlanId);
export const isBillingInterval = (value: unknown): value is BillingInterval =>
  BILLING_INTERVALS.includes(value as BillingInterval);

export const findPlan = (id: PlanId): Plan => {
  const plan = PLANS.find((p) => p.id === id);
  if (!plan) throw new Error(`Unknown plan ${id}`);
  return plan;
};

/** What one charge costs, in minor units. */
export const planPrice = (plan: Plan, interval: BillingInterval): number =>
  interval === 'monthly' ? plan.monthlyPrice : plan.yearlyPrice;

/** The per-month figure shown for a yearly plan, rounded down to whole cents. */
export const monthlyEquivalent = (plan: Plan, interval: BillingInterval): number =>
  interval === 'monthly' ? plan.monthlyPrice : Math.floor(plan.yearlyPrice / 12);

/** How much a year costs less when billed yearly, in minor units. */
export const yearlySaving = (plan: Plan): number => plan.monthlyPrice * 12 - plan.yearlyPrice;

/** The cheapest plan whose limit is above `needed` for `key` (the upgrade a 402 offers), or null. */
export const planLifting = (key: PlanLimitKey, needed: number): Plan | null =>
  PLANS.find((plan) => plan.limits[key] === null || (plan.limits[key] as number) >= needed) ?? null;

/** Plans in price order (personal < business < enterprise): a change up or down. */
export const planRank = (id: PlanId): number => PLAN_IDS.indexOf(id);

/**
 * The environment variable holding the provider's price identifier of a plan and interval
 * (SPEC section 9: one per plan and interval), e.g. STRIPE_PRICE_BUSINESS_YEARLY.
 */
export const priceVariable = (plan: PlanId, interval: BillingInterval): string =>
  `STRIPE_PRICE_${plan.toUpperCase()}_${interval.toUpperCase()}`;

export const describeLimit = (value: number | null, singular: string, plural: string): string =>
  value === null ? `Unlimited ${plural}` : `${value} ${value === 1 ? singular : plural}`;

const MB = 1024 * 1024;

/** Storage as the plans state it: whole gigabytes ("10 GB"), else megabytes. */
const storageText = (bytes: number): string =>
  bytes % GB === 0 ? `${bytes / GB} GB` : `${Math.floor(bytes / MB)} MB`;

/**
 * A plan's limits in words, the one wording used by the pricing page and the billing page's
 * plan picker: companies the account owns, members per company, invoices a company issues per
 * month, file storage. Bank feeds are left out: Kontor has none yet (issue 18; statements are
 * imported instead), so the pricing does not promise them.
 */
export const planLimitLines = (plan: Plan): string[] => [
  describeLimit(plan.limits.companies, 'company', 'companies'),
  plan.limits.members === null
    ? 'Unlimited members per company'
    : describeLimit(plan.limits.members, 'member per company', 'members per company'),
  plan.limits.invoicesPerMonth === null
    ? 'Unlimited invoices'
    : `${plan.limits.invoicesPerMonth} invoices a month per company`,
  plan.limits.storageBytes === null
    ? 'Unlimited file storage'
    : `${storageText(plan.limits.storageBytes)} of file storage`,
];

// The plan a visitor picked on /pricing travels to sign-up in the query string
// (?plan=business&interval=yearly) and is also kept under this key so billing can offer it
// after the account exists.
export const PLAN_CHOICE_STORAGE_KEY = 'kontor.planChoice';
export type PlanChoice = { plan: PlanId; interval: BillingInterval };

export const planChoiceQuery = (choice: PlanChoice): string =>
  `plan=${choice.plan}&interval=${choice.interval}`;

/** Reads a choice from a query string or stored JSON; anything unknown gives null. */
export const parsePlanChoice = (input: URLSearchParams | string | null | undefined): PlanChoice | null => {
  if (!input) return null;
  let plan: unknown;
  let interval: unknown;
  if (typeof input === 'string') {
    try {
      const parsed = JSON.parse(input) as Record<string, unknown>;
      plan = parsed?.plan;
      interval = parsed?.interval;
    } catch {
      return null;
    }
  } else {
    plan = input.get('plan');
    interval = input.get('interval') ?? 'monthly';
  }
  return isPlanId(plan) && isBillingInterval(interval) ? { plan, interval } : null;
};

import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import {
  BILLING_INTERVALS,
  type BillingInterval,
  PLAN_IDS,
  type PlanId,
  findPlan,
  planPrice,
  priceVariable,
} from '../../shared/plans.ts';
import type { StripeSettings } from '../config.ts';

// A local stand-in for the Stripe API (issue 16 §4: tests drive the real SDK with no network).
// It answers exactly the calls stripe-provider.ts makes — customers.create, coupons.create,
// checkout.sessions.create, billing_portal.sessions.create, subscriptions.retrieve/update,
// payment_methods.retrieve — with Stripe-shaped JSON and in-memory state, records every request
// (form-encoded bodies parsed back into objects) so a test can assert what the SDK sent, lets a
// test complete a checkout (which makes the customer's card, subscription and paid invoice),
// and signs webhook payloads the way Stripe does (generateTestHeaderString).
//
// Start it with `const fake = await startFakeStripe()`, hand `fake.env` to createTestApp (or
// `fake.settings` to createStripeProvider), and `await fake.close()` after.

export type StripeObject = Record<string, any>;

export type RecordedRequest = {
  method: string;
  /** e.g. /v1/subscriptions/sub_123 */
  path: string;
  /** The query string and the form body, parsed into nested objects and arrays. */
  params: StripeObject;
  headers: http.IncomingHttpHeaders;
};

export type FakeStripeError = { status: number; type: string; message: string; code?: string };

export type FakeStripe = {
  url: string;
  secretKey: string;
  webhookSecret: string;
  prices: StripeSettings['prices'];
  /** STRIPE_* variables for createTestApp's env. */
  env: Record<string, string>;
  /** Settings for createStripeProvider. */
  settings: StripeSettings;
  requests: RecordedRequest[];
  /** Recorded requests with this method whose path starts with `pathPrefix`. */
  requestsTo: (method: string, pathPrefix: string) => RecordedRequest[];
  customers: Map<string, StripeObject>;
  coupons: Map<string, StripeObject>;
  checkoutSessions: Map<string, StripeObject>;
  portalSessions: Map<string, StripeObject>;
  subscriptions: Map<string, StripeObject>;
  paymentMethods: Map<string, StripeObject>;
  invoices: Map<string, StripeObject>;
  /** Every price change asked for, with its proration_behavior. */
  prorations: { subscription: string; fromPrice: string; toPrice: string; behavior: string | null }[];
  /**
   * Pays a checkout session as Stripe Checkout would: a card (Visa 4242 unless given), a
   * subscription on the session's price with its metadata and discount, a paid invoice.
   * Answers copies of the objects, ready to be sent as webhook events.
   */
  completeCheckout: (
    sessionId: string,
    options?: { status?: string; card?: { brand: string; last4: string; expMonth: number; expYear: number } },
  ) => {
    session: StripeObject;
    subscription: StripeObject;
    invoice: StripeObject;
    paymentMethod: StripeObject;
  };
  /** Changes a subscription's stored fields (e.g. status) and answers a copy of it. */
  updateSubscription: (id: string, patch: StripeObject) => StripeObject;
  /** The object as stored now (a copy). */
  snapshot: (object: StripeObject) => StripeObject;
  /**
   * A signed webhook: the event's JSON body and the headers to post it with. `timestamp`
   * (seconds) defaults to now; `secret` to the fake's webhook secret.
   */
  webhook: (
    type: string,
    object: StripeObject,
    options?: { id?: string; created?: number; timestamp?: number; secret?: string },
  ) => { id: string; payload: string; headers: Record<string, string> };
  /** The next `times` requests answer this error instead. */
  failNext: (error: FakeStripeError, times?: number) => void;
  close: () => Promise<void>;
};

const DAY = 24 * 60 * 60;

/** `a[b][0][c]=v` pairs into { a: { b: [ { c: 'v' } ] } }, as Stripe reads them. */
export const parseStripeForm = (search: URLSearchParams): StripeObject => {
  const root: StripeObject = {};
  for (const [key, value] of search) {
    const parts = key.split('[').map((p, i) => (i === 0 ? p : p.replace(/\]$/, '')));
    let node: StripeObject = root;
    parts.forEach((part, i) => {
      const name = part === '' ? String(Object.keys(node).length) : part;
      if (i === parts.length - 1) node[name] = value;
      else {
        node[name] ??= {};
        node = node[name];
      }
    });
  }
  const arrays = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const entries = Object.entries(value as StripeObject).map(([k, v]) => [k, arrays(v)] as const);
    if (entries.length > 0 && entries.every(([k]) => /^\d+$/.test(k)))
      return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, v]) => v);
    return Object.fromEntries(entries);
  };
  return arrays(root) as StripeObject;
};

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export const startFakeStripe = async (
  options: {
    now?: () => Date;
    secretKey?: string;
    webhookSecret?: string;
    prices?: Partial<StripeSettings['prices']>;
  } = {},
): Promise<FakeStripe> => {
  const now = () => Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  const secretKey = options.secretKey ?? `sk_test_fake_${randomBytes(8).toString('hex')}`;
  const webhookSecret = options.webhookSecret ?? `whsec_fake_${randomBytes(16).toString('hex')}`;
  const prices = Object.fromEntries(
    PLAN_IDS.map((plan) => [
      plan,
      Object.fromEntries(
        BILLING_INTERVALS.map((interval) => [
          interval,
          options.prices?.[plan] !== undefined
            ? (options.prices[plan]![interval] ?? null)
            : `price_${plan}_${interval}`,
        ]),
      ),
    ]),
  ) as StripeSettings['prices'];

  const priceObjects = new Map<string, StripeObject>();
  for (const plan of PLAN_IDS)
    for (const interval of BILLING_INTERVALS) {
      const id = prices[plan][interval];
      if (id)
        priceObjects.set(id, {
          id,
          object: 'price',
          active: true,
          currency: 'usd',
          unit_amount: planPrice(findPlan(plan), interval),
          recurring: { interval: interval === 'monthly' ? 'month' : 'year', interval_count: 1 },
          product: `prod_kontor_${plan}`,
          type: 'recurring',
          livemode: false,
          metadata: { plan, interval },
        });
    }
  const planOf = (priceId: string): { plan: PlanId; interval: BillingInterval } => {
    const meta = priceObjects.get(priceId)!.metadata;
    return { plan: meta.plan, interval: meta.interval };
  };

  const customers = new Map<string, StripeObject>();
  const coupons = new Map<string, StripeObject>();
  const checkoutSessions = new Map<string, StripeObject>();
  const checkoutExtras = new Map<string, { price: string; subscriptionMetadata: StripeObject }>();
  const portalSessions = new Map<string, StripeObject>();
  const subscriptions = new Map<string, StripeObject>();
  const paymentMethods = new Map<string, StripeObject>();
  const invoices = new Map<string, StripeObject>();
  const prorations: FakeStripe['prorations'] = [];
  const requests: RecordedRequest[] = [];
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const failures: FakeStripeError[] = [];
  let invoiceNumber = 0;
  let baseUrl = '';

  const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

  class ApiError extends Error {
    constructor(
      readonly status: number,
      readonly type: string,
      message: string,
      readonly code?: string,
      readonly param?: string,
    ) {
      super(message);
    }
  }
  const missing = (what: string, id: string, param?: string) =>
    new ApiError(404, 'invalid_request_error', `No such ${what}: '${id}'`, 'resource_missing', param);
  const invalid = (message: string, param?: string) =>
    new ApiError(400, 'invalid_request_error', message, 'parameter_invalid', param);

  const periodEnd = (start: number, priceId: string) =>
    priceObjects.get(priceId)!.recurring.interval === 'year' ? start + 365 * DAY : start + 30 * DAY;

  const expandSubscription = (sub: StripeObject, expand: unknown): StripeObject => {
    const copy = clone(sub);
    const fields = Array.isArray(expand) ? expand : [];
    if (fields.includes('default_payment_method') && typeof copy.default_payment_method === 'string')
      copy.default_payment_method = clone(paymentMethods.get(copy.default_payment_method) ?? null);
    return copy;
  };

  const createCustomer = (p: StripeObject) => {
    const customer = {
      id: newId('cus'),
      object: 'customer',
      created: now(),
      email: p.email ?? null,
      name: p.name ?? null,
      metadata: p.metadata ?? {},
      invoice_settings: { default_payment_method: null, custom_fields: null, footer: null },
      livemode: false,
    };
    customers.set(customer.id, customer);
    return customer;
  };

  const createCoupon = (p: StripeObject) => {
    const id = p.id ?? randomBytes(6).toString('hex');
    if (coupons.has(id))
      throw new ApiError(
        400,
        'invalid_request_error',
        'Coupon already exists.',
        'resource_already_exists',
        'id',
      );
    const percent = p.percent_off === undefined ? null : Number(p.percent_off);
    if (percent === null || !(percent > 0 && percent <= 100))
      throw invalid('Invalid percent_off: must be greater than 0 and at most 100', 'percent_off');
    if (!['forever', 'once', 'repeating'].includes(p.duration)) throw invalid('Invalid duration', 'duration');
    const coupon = {
      id,
      object: 'coupon',
      created: now(),
      duration: p.duration,
      name: p.name ?? null,
      percent_off: percent,
      amount_off: null,
      valid: true,
      livemode: false,
      metadata: p.metadata ?? {},
    };
    coupons.set(id, coupon);
    return coupon;
  };

  const createCheckoutSession = (p: StripeObject) => {
    if (p.mode !== 'subscription') throw invalid('This fake supports mode=subscription only.', 'mode');
    if (!p.success_url) throw invalid('Missing required param: success_url.', 'success_url');
    if (p.customer && !customers.has(p.customer)) throw missing('customer', p.customer, 'customer');
    const lineItems = Array.isArray(p.line_items) ? p.line_items : [];
    if (lineItems.length !== 1) throw invalid('Pass exactly one line item.', 'line_items');
    const price = lineItems[0].price;
    if (!priceObjects.has(price)) throw missing('price', price, 'line_items[0][price]');
    const discounts = Array.isArray(p.discounts) ? p.discounts : [];
    for (const d of discounts) if (!coupons.has(d.coupon)) throw missing('coupon', d.coupon, 'discounts');
    const id = `cs_test_${randomBytes(16).toString('hex')}`;
    const session = {
      id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      customer: p.customer ?? null,
      client_reference_id: p.client_reference_id ?? null,
      subscription: null,
      success_url: p.success_url,
      cancel_url: p.cancel_url ?? null,
      metadata: p.metadata ?? {},
      discounts: discounts.map((d: StripeObject) => ({ coupon: d.coupon, promotion_code: null })),
      currency: 'usd',
      amount_total: null,
      created: now(),
      expires_at: now() + DAY,
      livemode: false,
      url: `${baseUrl}/c/pay/${id}`,
    };
    checkoutSessions.set(id, session);
    checkoutExtras.set(id, { price, subscriptionMetadata: p.subscription_data?.metadata ?? {} });
    return session;
  };

  const createPortalSession = (p: StripeObject) => {
    if (!p.customer) throw invalid('Missing required param: customer.', 'customer');
    if (!customers.has(p.customer)) throw missing('customer', p.customer, 'customer');
    const id = newId('bps');
    const session = {
      id,
      object: 'billing_portal.session',
      created: now(),
      customer: p.customer,
      return_url: p.return_url ?? null,
      livemode: false,
      url: `${baseUrl}/p/session/${id}`,
    };
    portalSessions.set(id, session);
    return session;
  };

  const updateSubscription = (id: string, p: StripeObject) => {
    const sub = subscriptions.get(id);
    if (!sub) throw missing('subscription', id);
    if (sub.status === 'canceled' || sub.status === 'incomplete_expired')
      throw invalid(
        'A canceled subscription can only update its cancellation_details and metadata.',
        Object.keys(p).find((k) => k !== 'expand'),
      );
    const items = Array.isArray(p.items) ? p.items : [];
    for (const change of items) {
      const item = sub.items.data.find((i: StripeObject) => i.id === change.id);
      if (!item) throw invalid(`Invalid subscription item: '${change.id}'`, 'items');
      if (change.price !== undefined) {
        if (!priceObjects.has(change.price)) throw missing('price', change.price, 'items[0][price]');
        const fromPrice = item.price.id;
        const intervalChanged =
          priceObjects.get(fromPrice)!.recurring.interval !==
          priceObjects.get(change.price)!.recurring.interval;
        item.price = clone(priceObjects.get(change.price)!);
        item.plan = { id: change.price, object: 'plan' };
        if (intervalChanged) {
          // Stripe resets the billing cycle when the interval changes.
          item.current_period_start = now();
          item.current_period_end = periodEnd(now(), change.price);
        }
        prorations.push({
          subscription: id,
          fromPrice,
          toPrice: change.price,
          behavior: p.proration_behavior ?? null,
        });
      }
    }
    if (p.cancel_at_period_end !== undefined) {
      const cancel = p.cancel_at_period_end === 'true';
      sub.cancel_at_period_end = cancel;
      sub.cancel_at = cancel ? sub.items.data[0].current_period_end : null;
      sub.canceled_at = cancel ? now() : null;
    }
    if (p.metadata) sub.metadata = { ...sub.metadata, ...p.metadata };
    return sub;
  };

  const completeCheckout: FakeStripe['completeCheckout'] = (sessionId, opts = {}) => {
    const session = checkoutSessions.get(sessionId);
    const extras = checkoutExtras.get(sessionId);
    if (!session || !extras) throw new Error(`fake-stripe: no checkout session ${sessionId}`);
    if (session.status !== 'open')
      throw new Error(`fake-stripe: checkout session ${sessionId} is ${session.status}`);
    const customerId = session.customer ?? createCustomer({}).id;
    const card = opts.card ?? { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2034 };
    const paymentMethod = {
      id: newId('pm'),
      object: 'payment_method',
      type: 'card',
      created: now(),
      customer: customerId,
      card: {
        brand: card.brand,
        display_brand: card.brand,
        last4: card.last4,
        exp_month: card.expMonth,
        exp_year: card.expYear,
        country: 'US',
        funding: 'credit',
      },
      billing_details: {},
      livemode: false,
      metadata: {},
    };
    // As Checkout does: the card is the subscription's default, not the customer's.
    paymentMethods.set(paymentMethod.id, paymentMethod);
    const start = now();
    const price = priceObjects.get(extras.price)!;
    const subId = newId('sub');
    const invoiceId = newId('in');
    const subscription = {
      id: subId,
      object: 'subscription',
      created: start,
      start_date: start,
      billing_cycle_anchor: start,
      customer: customerId,
      status: opts.status ?? 'active',
      currency: 'usd',
      cancel_at: null,
      cancel_at_period_end: false,
      canceled_at: null,
      ended_at: null,
      collection_method: 'charge_automatically',
      default_payment_method: paymentMethod.id,
      discounts: session.discounts.map((d: StripeObject) => `di_${d.coupon}`),
      items: {
        object: 'list',
        data: [
          {
            id: newId('si'),
            object: 'subscription_item',
            created: start,
            price: clone(price),
            plan: { id: price.id, object: 'plan' },
            quantity: 1,
            subscription: subId,
            current_period_start: start,
            current_period_end: periodEnd(start, price.id),
            metadata: {},
            discounts: [],
            tax_rates: [],
          },
        ],
        has_more: false,
        total_count: 1,
        url: `/v1/subscription_items?subscription=${subId}`,
      },
      latest_invoice: invoiceId,
      metadata: extras.subscriptionMetadata,
      trial_start: null,
      trial_end: null,
      livemode: false,
    };
    subscriptions.set(subId, subscription);
    const percentOff = session.discounts[0] ? coupons.get(session.discounts[0].coupon)!.percent_off : 0;
    const amount = Math.round(price.unit_amount * (1 - percentOff / 100));
    const { plan, interval } = planOf(price.id);
    invoiceNumber += 1;
    const invoice = {
      id: invoiceId,
      object: 'invoice',
      number: `KONTOR-${String(invoiceNumber).padStart(4, '0')}`,
      customer: customerId,
      status: 'paid',
      currency: 'usd',
      amount_due: amount,
      amount_paid: amount,
      amount_remaining: 0,
      total: amount,
      subtotal: price.unit_amount,
      description: null,
      billing_reason: 'subscription_create',
      created: start,
      period_start: start,
      period_end: start,
      hosted_invoice_url: `${baseUrl}/i/${invoiceId}`,
      invoice_pdf: `${baseUrl}/i/${invoiceId}/pdf`,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: subId, metadata: extras.subscriptionMetadata },
      },
      lines: {
        object: 'list',
        data: [
          {
            id: newId('il'),
            object: 'line_item',
            amount: price.unit_amount,
            currency: 'usd',
            description: `1 × Kontor ${findPlan(plan).name} (${interval})`,
            period: { start, end: periodEnd(start, price.id) },
          },
        ],
        has_more: false,
      },
      livemode: false,
    };
    invoices.set(invoiceId, invoice);
    Object.assign(session, {
      status: 'complete',
      payment_status: 'paid',
      subscription: subId,
      customer: customerId,
      amount_total: amount,
    });
    return {
      session: clone(session),
      subscription: clone(subscription),
      invoice: clone(invoice),
      paymentMethod: clone(paymentMethod),
    };
  };

  const route = (method: string, path: string, p: StripeObject): unknown => {
    const parts = path.split('/').filter(Boolean); // ['v1', ...]
    if (parts[0] !== 'v1')
      throw new ApiError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
    const [, resource, id, sub] = parts;
    if (method === 'POST' && resource === 'customers' && !id) return createCustomer(p);
    if (method === 'GET' && resource === 'customers' && id && !sub) {
      const customer = customers.get(id);
      if (!customer) throw missing('customer', id);
      return customer;
    }
    if (method === 'POST' && resource === 'coupons' && !id) return createCoupon(p);
    if (method === 'POST' && resource === 'checkout' && id === 'sessions' && !sub)
      return createCheckoutSession(p);
    if (method === 'GET' && resource === 'checkout' && id === 'sessions' && sub) {
      const session = checkoutSessions.get(sub);
      if (!session) throw missing('checkout.session', sub);
      return session;
    }
    if (method === 'POST' && resource === 'billing_portal' && id === 'sessions' && !sub)
      return createPortalSession(p);
    if (resource === 'subscriptions' && id && !sub) {
      if (method === 'GET') {
        const found = subscriptions.get(id);
        if (!found) throw missing('subscription', id);
        return expandSubscription(found, p.expand);
      }
      if (method === 'POST') return expandSubscription(updateSubscription(id, p), p.expand);
    }
    if (method === 'GET' && resource === 'payment_methods' && id && !sub) {
      const pm = paymentMethods.get(id);
      if (!pm) throw missing('payment_method', id);
      return pm;
    }
    throw new ApiError(404, 'invalid_request_error', `Unrecognized request URL (${method}: ${path}).`);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fake-stripe');
      const body = Buffer.concat(chunks).toString('utf8');
      const search = new URLSearchParams(url.search);
      for (const [k, v] of new URLSearchParams(body)) search.append(k, v);
      const method = req.method ?? 'GET';
      const params = parseStripeForm(search);
      requests.push({ method, path: url.pathname, params, headers: req.headers });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': newId('req') });
        res.end(JSON.stringify(payload));
      };
      if (req.headers.authorization !== `Bearer ${secretKey}`)
        return send(401, {
          error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' },
        });
      const failure = failures.shift();
      if (failure)
        return send(failure.status, {
          error: {
            type: failure.type,
            message: failure.message,
            ...(failure.code ? { code: failure.code } : {}),
          },
        });
      const key = method === 'POST' ? req.headers['idempotency-key'] : undefined;
      const seen = typeof key === 'string' ? idempotent.get(key) : undefined;
      if (seen) return send(seen.status, seen.body);
      let status = 200;
      let payload: unknown;
      try {
        payload = clone(route(method, url.pathname, params));
      } catch (error) {
        if (!(error instanceof ApiError)) throw error;
        status = error.status;
        payload = {
          error: {
            type: error.type,
            message: error.message,
            ...(error.code ? { code: error.code } : {}),
            ...(error.param ? { param: error.param } : {}),
          },
        };
      }
      if (typeof key === 'string') idempotent.set(key, { status, body: payload });
      send(status, payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  baseUrl = `http://127.0.0.1:${port}`;

  const signer = new Stripe(secretKey);
  const env: Record<string, string> = {
    STRIPE_SECRET_KEY: secretKey,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_BASE: baseUrl,
  };
  for (const plan of PLAN_IDS)
    for (const interval of BILLING_INTERVALS) {
      const price = prices[plan][interval];
      if (price) env[priceVariable(plan, interval)] = price;
    }

  return {
    url: baseUrl,
    secretKey,
    webhookSecret,
    prices,
    env,
    settings: { secretKey, webhookSecret, prices, api: { protocol: 'http', host: '127.0.0.1', port } },
    requests,
    requestsTo: (method, pathPrefix) =>
      requests.filter((r) => r.method === method && r.path.startsWith(pathPrefix)),
    customers,
    coupons,
    checkoutSessions,
    portalSessions,
    subscriptions,
    paymentMethods,
    invoices,
    prorations,
    completeCheckout,
    updateSubscription: (id, patch) => {
      const sub = subscriptions.get(id);
      if (!sub) throw new Error(`fake-stripe: no subscription ${id}`);
      Object.assign(sub, patch);
      return clone(sub);
    },
    snapshot: (object) => clone(object),
    webhook: (type, object, opts = {}) => {
      const id = opts.id ?? newId('evt');
      const payload = JSON.stringify(
        {
          id,
          object: 'event',
          api_version: Stripe.API_VERSION,
          created: opts.created ?? now(),
          data: { object },
          livemode: false,
          pending_webhooks: 1,
          request: { id: null, idempotency_key: null },
          type,
        },
        null,
        2,
      );
      const header = signer.webhooks.generateTestHeaderString({
        payload,
        secret: opts.secret ?? webhookSecret,
        timestamp: opts.timestamp ?? now(),
      });
      return { id, payload, headers: { 'content-type': 'application/json', 'stripe-signature': header } };
    },
    failNext: (error, times = 1) => {
      for (let i = 0; i < times; i += 1) failures.push(error);
    },
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
};

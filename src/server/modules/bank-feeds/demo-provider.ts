import { createHash, randomBytes } from 'node:crypto';
import { badRequest } from '../../../shared/errors.ts';
import { addDays } from '../../../shared/dates.ts';
import {
  type BankFeedProvider,
  type FeedAccount,
  type FeedTransaction,
  FeedItemError,
  type SyncPage,
} from './provider.ts';

// The Demo Bank (issue 18 §6): the provider interface with no network, so anyone can link an
// account and watch transactions arrive over days. Everything is computed from the item id,
// the day it was linked and the clock: the bank's book on day D is a pure function, so a
// sync from a cursor (the day last seen) to today is the difference of two books — new lines
// as added, changed ones as modified, vanished ones as removed — and the same inputs always
// give the same lines. The book holds payroll, rent, customer payments and a bank fee on the
// checking account, SaaS and card spend on the card; recent card spend and customer payments
// are pending for a day or two and then post under a new id naming the pending one, a few
// card lines change their description after posting (modified) and a few duplicate holds
// vanish after two days (removed).

export const DEMO_INSTITUTIONS = [
  { id: 'demo-us', name: 'Demo Bank', currency: 'USD' },
  { id: 'demo-eu', name: 'Demo Bank Europe', currency: 'EUR' },
  { id: 'demo-uk', name: 'Demo Bank UK', currency: 'GBP' },
] as const;

/** Days of history a new link brings (Plaid asks for up to 730; the demo keeps it shorter). */
export const DEMO_HISTORY_DAYS = 180;
const PAGE_SIZE = 100;

type Item = { itemId: string; institution: (typeof DEMO_INSTITUTIONS)[number]; linkedOn: string };

const today = (now: Date) => now.toISOString().slice(0, 10);

const hash = (...parts: (string | number)[]) => createHash('sha256').update(parts.join('|')).digest();
/** A deterministic number in [0, 1) for one slot of one day. */
const chance = (item: string, day: string, slot: string) => hash(item, day, slot).readUInt32BE(0) / 2 ** 32;
const between = (item: string, day: string, slot: string, lo: number, hi: number) =>
  Math.round(lo + chance(item, day, slot) * (hi - lo));

const tokenOf = (item: Item, secret: string) =>
  `demo-access:${item.itemId}:${item.institution.id}:${item.linkedOn}:${secret}`;

const itemOf = (accessToken: string): Item => {
  const [kind, itemId, institutionId, linkedOn] = accessToken.split(':');
  const institution = DEMO_INSTITUTIONS.find((i) => i.id === institutionId);
  if (kind !== 'demo-access' || !itemId || !institution || !linkedOn || !/^\d{4}-\d{2}-\d{2}$/.test(linkedOn))
    throw new FeedItemError('INVALID_ACCESS_TOKEN', 'The Demo Bank does not know this link.');
  return { itemId, institution, linkedOn };
};

const accountsOf = (item: Item): FeedAccount[] => [
  {
    id: `${item.itemId}-checking`,
    name: `${item.institution.name} Business Checking`,
    mask: '0001',
    type: 'depository',
    subtype: 'checking',
    currency: item.institution.currency,
    currentBalance: null,
  },
  {
    id: `${item.itemId}-card`,
    name: `${item.institution.name} Business Card`,
    mask: '4242',
    type: 'credit',
    subtype: 'credit card',
    currency: item.institution.currency,
    currentBalance: null,
  },
];

const CUSTOMERS = ['Northwind Traders', 'Acme Corp', 'Globex', 'Initech', 'Umbrella Health', 'Stark Studio'];
const SAAS = [
  { day: 1, name: 'Google Workspace', amount: 7200 },
  { day: 5, name: 'Figma', amount: 4500 },
  { day: 10, name: 'Slack', amount: 2625 },
  { day: 17, name: 'GitHub', amount: 2100 },
];
const CARD_SPEND = [
  { short: 'SQ *BLUE BOTTLE', full: 'Blue Bottle Coffee', lo: 450, hi: 1800 },
  { short: 'UBER *TRIP', full: 'Uber', lo: 1200, hi: 5400 },
  { short: 'AMZN MKTP', full: 'Amazon Marketplace', lo: 1500, hi: 18000 },
  { short: 'TST* CORNER BISTRO', full: 'Corner Bistro', lo: 2200, hi: 9000 },
  { short: 'STAPLES 0042', full: 'Staples', lo: 800, hi: 6500 },
];

/** One line of the bank's life: when it appears, as what, and what happens to it. */
type Event = {
  base: string;
  accountId: string;
  date: string;
  amount: number;
  description: string;
  counterparty: string | null;
  /** Days it stays pending before it posts (0: posted at once). */
  pendingDays: number;
  /** The posted amount when it differs from the pending one (a tip). */
  postedAmount?: number;
  /** The description it gets this many days after posting (modified). */
  renamed?: { after: number; description: string };
  /** Removed this many days after posting (a duplicate hold the bank drops). */
  removedAfter?: number;
};

const lastDayOfMonth = (day: string) => addDays(`${addDays(`${day.slice(0, 7)}-28`, 4).slice(0, 7)}-01`, -1);

/** What happened on one calendar day at the bank. */
const eventsOn = (item: Item, day: string): Event[] => {
  const id = item.itemId;
  const checking = `${id}-checking`;
  const card = `${id}-card`;
  const dom = Number(day.slice(8, 10));
  const out: Event[] = [];
  const add = (slot: string, e: Omit<Event, 'base'>) => out.push({ base: `${id}-${day}-${slot}`, ...e });
  if (dom === 1)
    add('rent', {
      accountId: checking,
      date: day,
      amount: -240000,
      description: 'RENT - HARBOR OFFICE LLC',
      counterparty: 'Harbor Office LLC',
      pendingDays: 0,
    });
  if (dom === 15 || day === lastDayOfMonth(day))
    add('payroll', {
      accountId: checking,
      date: day,
      amount: -between(id, day, 'payroll', 780000, 860000),
      description: 'GUSTO PAYROLL',
      counterparty: 'Gusto',
      pendingDays: 0,
    });
  if (dom === 28)
    add('fee', {
      accountId: checking,
      date: day,
      amount: -1500,
      description: 'MONTHLY SERVICE FEE',
      counterparty: null,
      pendingDays: 0,
    });
  if (chance(id, day, 'customer') < 0.35) {
    const customer = CUSTOMERS[between(id, day, 'who', 0, CUSTOMERS.length - 1)]!;
    add('customer', {
      accountId: checking,
      date: day,
      amount: between(id, day, 'paid', 1200, 9800) * 100,
      description: `ACH CREDIT ${customer.toUpperCase()}`,
      counterparty: customer,
      pendingDays: 1,
    });
  }
  for (const s of SAAS)
    if (dom === s.day)
      add(`saas-${s.name}`, {
        accountId: card,
        date: day,
        amount: -s.amount,
        description: s.name.toUpperCase(),
        counterparty: s.name,
        pendingDays: 0,
      });
  if (chance(id, day, 'spend') < 0.5) {
    const m = CARD_SPEND[between(id, day, 'merchant', 0, CARD_SPEND.length - 1)]!;
    const amount = -between(id, day, 'amount', m.lo, m.hi);
    const roll = chance(id, day, 'fate');
    add('spend', {
      accountId: card,
      date: day,
      amount,
      description: m.short,
      counterparty: m.full,
      pendingDays: 2,
      ...(m.full === 'Corner Bistro' && { postedAmount: Math.round(amount * 1.18) }),
      ...(roll < 0.15 && { renamed: { after: 3, description: m.full } }),
    });
    if (roll > 0.93)
      add('hold', {
        accountId: card,
        date: day,
        amount,
        description: `${m.short} (HOLD)`,
        counterparty: m.full,
        pendingDays: 0,
        removedAfter: 2,
      });
  }
  return out;
};

/** The bank's book as seen on `day`: every line that exists then, pending or posted. */
const bookOn = (item: Item, day: string): Map<string, FeedTransaction> => {
  const book = new Map<string, FeedTransaction>();
  if (day < item.linkedOn) day = item.linkedOn;
  for (let d = addDays(item.linkedOn, -DEMO_HISTORY_DAYS); d <= day; d = addDays(d, 1)) {
    for (const e of eventsOn(item, d)) {
      const posts = addDays(e.date, e.pendingDays);
      const tx = {
        accountId: e.accountId,
        date: e.date,
        currency: item.institution.currency,
        counterparty: e.counterparty,
        reference: null,
      };
      if (day < posts) {
        const id = `${e.base}-pending`;
        book.set(id, {
          ...tx,
          id,
          amount: e.amount,
          description: e.description,
          pending: true,
          pendingId: null,
        });
        continue;
      }
      if (e.removedAfter !== undefined && day >= addDays(posts, e.removedAfter)) continue;
      const renamed = e.renamed && day >= addDays(posts, e.renamed.after);
      book.set(e.base, {
        ...tx,
        id: e.base,
        amount: e.postedAmount ?? e.amount,
        description: renamed ? e.renamed!.description : e.description,
        reference: `DEMO-${hash(e.base).toString('hex').slice(0, 10).toUpperCase()}`,
        pending: false,
        pendingId: e.pendingDays > 0 ? `${e.base}-pending` : null,
      });
    }
  }
  return book;
};

type Cursor = { from: string | null; to: string; offset: number };

const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString('base64url');
const decodeCursor = (text: string): Cursor => {
  try {
    const c = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Cursor;
    if (typeof c.to === 'string' && typeof c.offset === 'number') return c;
  } catch {}
  throw new FeedItemError('INVALID_CURSOR', 'The Demo Bank does not know this cursor.');
};

type Change =
  | { kind: 'added' | 'modified'; tx: FeedTransaction }
  | { kind: 'removed'; id: string; accountId: string };

const changesBetween = (item: Item, from: string | null, to: string): Change[] => {
  const before = from ? bookOn(item, from) : new Map<string, FeedTransaction>();
  const after = bookOn(item, to);
  const changes: Change[] = [];
  const byDate = [...after.values()].sort((a, b) =>
    a.date === b.date ? (a.id < b.id ? -1 : 1) : a.date < b.date ? -1 : 1,
  );
  for (const tx of byDate) {
    const old = before.get(tx.id);
    if (!old) changes.push({ kind: 'added', tx });
    else if (JSON.stringify(old) !== JSON.stringify(tx)) changes.push({ kind: 'modified', tx });
  }
  for (const [id, tx] of before)
    if (!after.has(id)) changes.push({ kind: 'removed', id, accountId: tx.accountId });
  return changes;
};

export const createDemoProvider = (options: { now: () => Date }): BankFeedProvider => ({
  name: 'demo',
  createLinkToken: async () => ({
    provider: 'demo',
    linkToken: `demo-link-${randomBytes(8).toString('hex')}`,
    expiresAt: new Date(options.now().getTime() + 30 * 60_000).toISOString(),
    institutions: DEMO_INSTITUTIONS.map((i) => ({ id: i.id, name: `${i.name} (${i.currency})` })),
  }),
  /** The page's public token is `demo-public:<institution id>:<nonce>` (DemoLinkDialog). */
  exchangePublicToken: async (publicToken) => {
    const [kind, institutionId, nonce] = publicToken.split(':');
    const institution = DEMO_INSTITUTIONS.find((i) => i.id === institutionId);
    if (kind !== 'demo-public' || !institution || !nonce || !/^[\w-]{6,64}$/.test(nonce))
      throw badRequest(
        'invalid_public_token',
        'The Demo Bank did not issue this public token; connect again.',
      );
    const itemId = `demo-item-${hash(nonce, institution.id).toString('hex').slice(0, 16)}`;
    const item: Item = { itemId, institution, linkedOn: today(options.now()) };
    return {
      itemId,
      accessToken: tokenOf(item, randomBytes(16).toString('hex')),
      institutionName: institution.name,
    };
  },
  listAccounts: async (accessToken) => accountsOf(itemOf(accessToken)),
  syncTransactions: async (accessToken, cursorText): Promise<SyncPage> => {
    const item = itemOf(accessToken);
    const cursor: Cursor = cursorText
      ? decodeCursor(cursorText)
      : { from: null, to: today(options.now()), offset: 0 };
    // A finished cursor (offset 0 after the last page) starts the next round at today.
    const round =
      cursor.offset === 0 && cursorText ? { from: cursor.to, to: today(options.now()), offset: 0 } : cursor;
    const changes = changesBetween(item, round.from, round.to);
    const page = changes.slice(round.offset, round.offset + PAGE_SIZE);
    const hasMore = round.offset + PAGE_SIZE < changes.length;
    const next: Cursor = hasMore
      ? { ...round, offset: round.offset + PAGE_SIZE }
      : { from: null, to: round.to, offset: 0 };
    return {
      added: page.flatMap((c) => (c.kind === 'added' ? [c.tx] : [])),
      modified: page.flatMap((c) => (c.kind === 'modified' ? [c.tx] : [])),
      removed: page.flatMap((c) => (c.kind === 'removed' ? [{ id: c.id, accountId: c.accountId }] : [])),
      nextCursor: encodeCursor(next),
      hasMore,
    };
  },
  removeItem: async (accessToken) => {
    itemOf(accessToken);
  },
});

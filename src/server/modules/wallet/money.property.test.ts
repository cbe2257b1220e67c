import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.ts';
import type { FiscalYear } from '../../../shared/ledger.ts';
import { csvMappingSchema } from '../../../shared/transactions.ts';
import type { WalletSummary } from '../../../shared/wallet.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import { createTestCompany } from '../../testing/companies.ts';
import { setUpInvoicing } from '../../testing/invoices.ts';
import { threeScreens } from '../../testing/money.ts';
import { addDays } from '../ledger/dates.ts';
import { commitStatement } from '../statement-import/service.ts';

// Three screens, one number (issue 13 §2): random sequences of invoices, payments, payment
// removals, voids, transfers (and their deletion), statement imports (CSV and OFX through the
// import service), manual bank lines, categorisations, year-end closes and reopenings and lock
// dates. After every step, at two dates, each money account's wallet balance equals its ledger
// balance summed from the posted lines (in its own currency and in the base currency), the
// wallet's cash total equals the balance sheet's cash and bank lines (which the dashboard's cash
// position reads), the balance sheet balances and the trial balance is zero.
//
// Payments of more than is due keep the excess as the customer's credit, and refunds pay some
// of that credit back out of a random money account.

type Op =
  | { kind: 'invoice'; units: number; day: number }
  | { kind: 'pay'; pick: number; share: number; account: number | null; day: number }
  | { kind: 'unpay'; pick: number }
  | { kind: 'refund'; account: number; share: number; day: number }
  | { kind: 'void'; pick: number }
  | { kind: 'transfer'; from: number; to: number; cents: number; day: number }
  | { kind: 'untransfer'; pick: number }
  | { kind: 'import'; account: number; rows: { day: number; cents: number; text: string }[]; ofx: boolean }
  | { kind: 'record'; account: number; cents: number; day: number }
  | { kind: 'categorize'; pick: number; category: number }
  | { kind: 'close' }
  | { kind: 'lock' };

const START = '2025-11-01';
const day = (n: number) => addDays(START, n);
const DAYS = fc.integer({ min: 0, max: 120 });
const cents = fc.integer({ min: -300_000, max: 300_000 }).filter((n) => n !== 0);
const TEXTS = ['COFFEE SHOP', 'CLIENT PAYMENT', 'RENT', 'FUEL', 'SOFTWARE'];

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('invoice' as const),
      units: fc.integer({ min: 1, max: 6 }),
      day: DAYS,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      pick: fc.nat(),
      // Above 100: an overpayment, the excess kept as credit.
      share: fc.integer({ min: 1, max: 130 }),
      account: fc.option(fc.nat(), { nil: null }),
      day: DAYS,
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('unpay' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('refund' as const),
      account: fc.nat(),
      share: fc.integer({ min: 1, max: 100 }),
      day: DAYS,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('void' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('transfer' as const),
      from: fc.nat(),
      to: fc.nat(),
      cents: fc.integer({ min: 1, max: 200_000 }),
      day: DAYS,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('untransfer' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('import' as const),
      account: fc.nat(),
      rows: fc.array(fc.record({ day: DAYS, cents, text: fc.constantFrom(...TEXTS) }), {
        minLength: 1,
        maxLength: 5,
      }),
      ofx: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('record' as const), account: fc.nat(), cents, day: DAYS }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('categorize' as const), pick: fc.nat(), category: fc.nat(2) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'close' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'lock' as const }) },
);

const MAPPING = csvMappingSchema.parse({
  dateColumn: 0,
  descriptionColumn: 1,
  amountColumn: 2,
  dateFormat: 'YYYY-MM-DD',
});
const decimal = (c: number) =>
  `${c < 0 ? '-' : ''}${Math.floor(Math.abs(c) / 100)}.${String(Math.abs(c) % 100).padStart(2, '0')}`;
const csvOf = (rows: { day: number; cents: number; text: string }[]) =>
  ['Date,Description,Amount', ...rows.map((r) => `${day(r.day)},${r.text},${decimal(r.cents)}`)].join('\n');
let fitid = 0;
const ofxOf = (rows: { day: number; cents: number; text: string }[], currency: string) =>
  [
    'OFXHEADER:100',
    'DATA:OFXSGML',
    'VERSION:102',
    '',
    '<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS>',
    `<CURDEF>${currency}`,
    '<BANKTRANLIST>',
    ...rows.map(
      (r) =>
        `<STMTTRN><TRNTYPE>${r.cents < 0 ? 'DEBIT' : 'CREDIT'}<DTPOSTED>${day(r.day).replaceAll('-', '')}<TRNAMT>${decimal(r.cents)}<FITID>P${++fitid}<NAME>${r.text}</STMTTRN>`,
    ),
    '</BANKTRANLIST>',
    '</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>',
  ].join('\n');

const t = setUpTestApp();
beforeAll(() => t.clock.set('2026-03-15T12:00:00Z'));

type Res = { status: number; body: any };

describe('wallet = ledger = balance sheet cash = dashboard cash, after every step', () => {
  it('holds over random sequences of money-moving operations', { timeout: 120_000 }, async () => {
    const runs = Number(process.env.PROPERTY_RUNS ?? 5);
    let steps = 0;
    // What actually went through (not refused), by route, so the property is not vacuous.
    const done = new Map<string, number>();
    const tally = (key: string, ok: boolean) => {
      if (ok) done.set(key, (done.get(key) ?? 0) + 1);
    };
    const started = performance.now();
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 10 }), async (ops) => {
        const company = await createTestCompany(t.app);
        const fx = await setUpInvoicing(t.app, t.database, company);
        const call = async (
          method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
          url: string,
          payload?: unknown,
        ) => {
          const res = await t.app.inject({
            method,
            url: `/api/orgs/${company.id}${url}`,
            headers: { cookie: company.owner.cookie },
            ...(payload !== undefined ? { payload: payload as object } : {}),
          });
          const out: Res = { status: res.statusCode, body: res.body ? res.json() : undefined };
          if (method !== 'GET')
            tally(`${method} ${url.replace(/[0-9a-f-]{36}/g, ':id')}`, res.statusCode < 300);
          if (process.env.DEBUG_PROP && res.statusCode >= 300)
            console.log(method, url, res.statusCode, res.body);
          // Bad or refused input is a clear 4xx; never a 5xx.
          expect(out.status, `${method} ${url} ${JSON.stringify(payload)} → ${res.body}`).toBeLessThan(500);
          return out;
        };
        const must = async (
          method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
          url: string,
          payload?: unknown,
        ) => {
          const res = await call(method, url, payload);
          if (res.status >= 300)
            throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(res.body)}`);
          return res.body;
        };
        const member: MemberContext = { organizationId: company.id, userId: company.owner.id, role: 'owner' };
        await must('POST', '/wallet/rates', { currency: 'EUR', date: '2025-10-01', rate: '1.08' });
        await must('POST', '/wallet/accounts', {
          name: 'Savings',
          kind: 'bank',
          currency: 'USD',
          openingDate: '2025-11-01',
          openingBalance: 500_000,
        });
        await must('POST', '/wallet/accounts', {
          name: 'Euro account',
          kind: 'bank',
          currency: 'EUR',
          openingDate: '2025-11-01',
          openingBalance: 100_000,
        });
        // The chart's money accounts open with the company's fiscal year; these books start earlier.
        for (const a of ((await must('GET', '/wallet')) as WalletSummary).accounts)
          if (a.openingDate > START) await must('PATCH', `/wallet/accounts/${a.id}`, { openingDate: START });
        const wallet = (await must('GET', '/wallet')) as WalletSummary;
        const accounts = wallet.accounts.filter((a) => !a.archived);
        const usd = accounts.filter((a) => a.currency === 'USD' && a.kind !== 'credit_card');
        const ledgerAccounts = (await must('GET', '/accounts')) as
          | { id: string; type: string; subtype: string }[]
          | { accounts: { id: string; type: string }[] };
        const list = Array.isArray(ledgerAccounts) ? ledgerAccounts : ledgerAccounts.accounts;
        const categories = list
          .filter((a) => a.type === 'expense' || a.type === 'income')
          .map((a) => a.id)
          .slice(0, 3);
        const state = {
          invoices: [] as string[],
          paid: [] as string[],
          transfers: [] as string[],
          closed: false,
          locked: false,
        };
        const nth = <T>(xs: T[], n: number) => (xs.length === 0 ? undefined : xs[n % xs.length]);

        const step = async (o: Op) => {
          switch (o.kind) {
            case 'invoice': {
              const inv = await must('POST', '/invoices', {
                customerId: fx.customerId,
                issueDate: day(o.day),
                lines: [
                  {
                    description: 'Consulting hour',
                    quantity: String(o.units),
                    unitPrice: 12_500,
                    taxRateIds: [fx.taxRateId],
                  },
                ],
              });
              const sent = await call('POST', `/invoices/${inv.id}/send`, { email: false });
              if (sent.status < 300) state.invoices.push(inv.id);
              return;
            }
            case 'pay': {
              const id = nth(state.invoices, o.pick);
              if (!id) return;
              const inv = await must('GET', `/invoices/${id}`);
              const amount = Math.max(1, Math.floor((inv.amountDue * o.share) / 100));
              const into = o.account === null ? undefined : nth(usd, o.account)?.ledgerAccountId;
              const paid = await call('POST', `/invoices/${id}/payments`, {
                date: inv.issueDate > day(o.day) ? inv.issueDate : day(o.day),
                amount,
                ...(into ? { depositAccountId: into } : {}),
                ...(o.share > 100 ? { keepExcessAsCredit: true } : {}),
              });
              if (paid.status < 300) state.paid.push(id);
              return;
            }
            case 'refund': {
              const credit = await must('GET', `/customers/${fx.customerId}/credit`);
              const held = (credit.balances as { currency: string; amount: number }[]).find(
                (b) => b.currency === 'USD',
              );
              const from = nth(usd, o.account);
              if (!held || held.amount <= 0 || !from) return;
              await call('POST', `/customers/${fx.customerId}/credit/refunds`, {
                amount: Math.max(1, Math.floor((held.amount * o.share) / 100)),
                date: day(o.day),
                moneyAccountId: from.id,
                currency: 'USD',
              });
              return;
            }
            case 'unpay': {
              const id = nth(state.paid, o.pick);
              if (!id) return;
              const inv = await must('GET', `/invoices/${id}`);
              const payment = (inv.payments as { id: string; reversed: boolean }[]).find((p) => !p.reversed);
              if (payment) await call('DELETE', `/invoices/${id}/payments/${payment.id}`);
              return;
            }
            case 'void': {
              const id = nth(state.invoices, o.pick);
              if (id) await call('POST', `/invoices/${id}/void`, { reason: 'Property test' });
              return;
            }
            case 'transfer': {
              const from = nth(accounts, o.from);
              const to = nth(accounts, o.to);
              if (!from || !to || from.id === to.id) return;
              const res = await call('POST', '/wallet/transfers', {
                fromAccountId: from.id,
                toAccountId: to.id,
                date: day(o.day),
                amount: o.cents,
                ...(from.currency !== to.currency
                  ? { rate: from.currency === 'EUR' ? '1.08' : '0.925' }
                  : {}),
              });
              if (res.status < 300) state.transfers.push(res.body.id);
              return;
            }
            case 'untransfer': {
              const id = nth(state.transfers, o.pick);
              if (!id) return;
              const res = await call('DELETE', `/wallet/transfers/${id}`);
              if (res.status < 300) state.transfers = state.transfers.filter((x) => x !== id);
              return;
            }
            case 'import': {
              const account = nth(
                accounts.filter((a) => a.kind === 'bank'),
                o.account,
              )!;
              const input = o.ofx
                ? {
                    moneyAccountId: account.id,
                    fileName: 's.ofx',
                    content: ofxOf(o.rows, account.currency),
                    applyRules: true,
                  }
                : {
                    moneyAccountId: account.id,
                    fileName: 's.csv',
                    content: csvOf(o.rows),
                    mapping: MAPPING,
                    applyRules: true,
                  };
              const imported = await commitStatement(t.ctx, member, input as never).catch(
                (error: unknown) => {
                  // A locked or closed period refuses the import whole, with a 4xx.
                  if (!(error instanceof AppError && error.status < 500)) throw error;
                  return null;
                },
              );
              tally(o.ofx ? 'import ofx' : 'import csv', (imported?.imported ?? 0) > 0);
              return;
            }
            case 'record': {
              const account = nth(accounts, o.account)!;
              await call('POST', '/transactions', {
                moneyAccountId: account.id,
                date: day(o.day),
                description: 'Manual line',
                amount: o.cents,
              });
              return;
            }
            case 'categorize': {
              const open = await must('GET', '/transactions?categoryId=uncategorized&limit=20');
              const tx = nth(open.transactions as { id: string; currency: string }[], o.pick);
              const category = nth(categories, o.category);
              if (tx && category)
                await call('PATCH', `/transactions/${tx.id}`, { categoryAccountId: category });
              return;
            }
            case 'close': {
              await call('POST', `/fiscal-years/2025-12-31/${state.closed ? 'reopen' : 'close'}`, {});
              const { years } = (await must('GET', '/fiscal-years')) as { years: FiscalYear[] };
              state.closed = years.find((y) => y.endDate === '2025-12-31')?.status === 'closed';
              return;
            }
            case 'lock': {
              const res = await call('PATCH', '/ledger/settings', {
                lockDate: state.locked ? null : '2025-11-30',
              });
              if (res.status < 300) state.locked = !state.locked;
              return;
            }
          }
        };

        const check = async (label: string) => {
          for (const asOf of ['2025-12-31', '2026-03-15']) {
            const s = await threeScreens(t.app, t.database.db, company, asOf);
            for (const a of s.perAccount) expect(a.wallet, `${label} @${asOf}: ${a.name}`).toEqual(a.ledger);
            expect(s.walletCash, `${label} @${asOf}: wallet cash = balance sheet cash`).toBe(
              s.balanceSheetCash,
            );
            expect(s.balanced, `${label} @${asOf}: balance sheet balances`).toBe(true);
            expect(s.trialBalance, `${label} @${asOf}: trial balance`).toBe(0);
          }
        };

        await check('start');
        // Every kind of operation once, in an order where each can go through, then the random ones.
        const prefix: Op[] = [
          { kind: 'invoice', units: 2, day: 40 },
          { kind: 'pay', pick: 0, share: 50, account: null, day: 45 },
          { kind: 'invoice', units: 1, day: 41 },
          { kind: 'pay', pick: 1, share: 120, account: null, day: 46 },
          { kind: 'refund', account: 0, share: 50, day: 47 },
          { kind: 'import', account: 0, ofx: false, rows: [{ day: 50, cents: -4_200, text: 'FUEL' }] },
          {
            kind: 'import',
            account: 1,
            ofx: true,
            rows: [{ day: 51, cents: 9_900, text: 'CLIENT PAYMENT' }],
          },
          { kind: 'categorize', pick: 0, category: 0 },
          { kind: 'transfer', from: 0, to: 1, cents: 10_000, day: 55 },
          { kind: 'unpay', pick: 0 },
          { kind: 'close' },
        ];
        for (const [i, o] of [...prefix, ...ops].entries()) {
          await step(o);
          steps += 1;
          await check(`step ${i + 1} ${JSON.stringify(o)}`);
        }
      }),
      { numRuns: runs, seed: Number(process.env.PROPERTY_SEED ?? 1125), endOnFailure: true },
    );
    // Measured: steps and time, for docs/transactions.md.
    console.log(
      `money property: ${runs} runs, ${steps} steps, ${Math.round(performance.now() - started)} ms`,
      Object.fromEntries(done),
    );
    for (const key of [
      'POST /invoices/:id/send',
      'POST /invoices/:id/payments',
      'DELETE /invoices/:id/payments/:id',
      'POST /customers/:id/credit/refunds',
      'POST /wallet/transfers',
      'import csv',
      'import ofx',
      'PATCH /transactions/:id',
      'POST /fiscal-years/2025-12-31/close',
    ])
      expect(done.get(key) ?? 0, `${key} went through at least once`).toBeGreaterThan(0);
  });
});

import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from '@playwright/test';
import { buildWebApp, freePort, startServer, waitForHealth } from '../build-web.ts';
import { seedDemoBooks } from '../demo-books.ts';

// Signed-in pages benchmark (issue 22 §2: CLS ≤ 0.05 on every page): builds the web app, starts
// the real server on a fresh database, signs a user up with a company that has data (entries
// over fourteen months, bank lines, invoices, a bill) and opens each signed-in page cold in
// Chromium, at a phone (390×844, CPU 4x slower, as Lighthouse's mobile preset) and a desktop
// (1280×800) size. Reports per page Cumulative Layout Shift (and the elements that moved, the
// largest shift first) and Largest Contentful Paint, as Chromium's PerformanceObserver sees them.
// A benchmark, not a test: e2e/layout-shift.spec.ts holds the CLS limit.
//
// Usage: node --import tsx scripts/bench/app-pages.ts [--runs 3] [--json]
//        [--base-url http://127.0.0.1:PORT]  (measure a server that is already running)
//        [--pages dashboard,wallet]
//        [--profile mobile|desktop]
//        [--empty]  (a new company with nothing recorded: the dashboard's first steps)

const args = process.argv.slice(2);
const arg = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const runs = Number(arg('--runs')) || 3;
const asJson = args.includes('--json');
const PAGES = (arg('--pages') ?? 'dashboard,transactions,invoices,wallet,accounting,billing,settings').split(
  ',',
);
const PASSWORD = 'Correct-Horse-9';

type Profile = { name: string; viewport: { width: number; height: number }; cpuSlowdown: number };
const ALL_PROFILES: Profile[] = [
  { name: 'mobile', viewport: { width: 390, height: 844 }, cpuSlowdown: 4 },
  { name: 'desktop', viewport: { width: 1280, height: 800 }, cpuSlowdown: 1 },
];

const PROFILES = ALL_PROFILES.filter((p) => !arg('--profile') || p.name === arg('--profile'));

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Signs a user up (the context keeps the session cookie) with a company that has data. */
export const seedSignedInCompany = async (browser: Browser, baseUrl: string, withData = true) => {
  const context = await browser.newContext({ baseURL: baseUrl });
  const r = context.request;
  const headers = { origin: baseUrl };
  const ok = async (res: Awaited<ReturnType<typeof r.post>>): Promise<any> => {
    if (!res.ok()) throw new Error(`${res.url()}: ${res.status()} ${await res.text()}`);
    return res.json();
  };
  await ok(
    await r.post('/api/auth/sign-up/email', {
      data: { email: `pages-${Date.now()}@example.com`, password: PASSWORD, name: 'Paula Pages' },
      headers,
    }),
  );
  const company = await ok(
    await r.post('/api/orgs', {
      data: { name: 'Pagewood Studio', baseCurrency: 'USD', fiscalYearStartMonth: 1 },
      headers,
    }),
  );
  if (!withData) return context;
  const o = `/api/orgs/${company.id}`;
  await seedDemoBooks({
    get: async (path) => (await r.get(`${o}${path}`)).json(),
    post: async (path, body) => ok(await r.post(`${o}${path}`, { data: body, headers })),
  });
  return context;
};

export type Measured = {
  cls: number;
  lcpMs: number;
  /** Long tasks' time over 50 ms each, from navigation until settled (Lighthouse's TBT, roughly). */
  blockingMs: number;
  shifts: { value: number; sources: string[] }[];
};

/**
 * Installs the layout-shift and LCP observers (buffered) before any script of the page runs.
 * A string, not a function: tsx would wrap the function's inner functions in its `__name`
 * helper, which does not exist in the page.
 */
export const LAYOUT_OBSERVER = `(() => {
  const w = window;
  w.__layout = { cls: 0, lcp: 0, tbt: 0, shifts: [] };
  const describe = (n) => {
    if (!n || !(n instanceof Element)) return n ? '#' + n.nodeName.toLowerCase() : '?';
    const cls = typeof n.className === 'string' ? n.className.split(/\\s+/).slice(0, 4).join('.') : '';
    const text = (n.textContent || '').trim().slice(0, 30);
    return n.tagName.toLowerCase() + (n.id ? '#' + n.id : '') + (cls ? '.' + cls : '') + ' "' + text + '"';
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      w.__layout.cls += e.value;
      w.__layout.shifts.push({
        value: e.value,
        sources: (e.sources || []).map((s) =>
          describe(s.node) + ' y ' + Math.round(s.previousRect.y) + '→' + Math.round(s.currentRect.y) +
          ' h ' + Math.round(s.previousRect.height) + '→' + Math.round(s.currentRect.height) +
          ' @' + Math.round(e.startTime) + 'ms'),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__layout.lcp = e.startTime;
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__layout.tbt += Math.max(0, e.duration - 50);
  }).observe({ type: 'longtask', buffered: true });
})();`;

export const observeLayout = async (page: Page) => page.addInitScript({ content: LAYOUT_OBSERVER });

/** Waits until the page has settled: its heading shows, nothing is loading, the network is quiet. */
export const settle = async (page: Page, quietMs = 1500) => {
  await page.locator('main h1').first().waitFor({ timeout: 60_000 });
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"]'), undefined, { timeout: 30_000 })
    .catch(() => undefined);
  await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  await page.waitForTimeout(quietMs);
};

export const readLayout = (page: Page) =>
  page
    .evaluate(() => (window as unknown as { __layout: Measured & { lcp: number; tbt: number } }).__layout)
    .then(
      (l): Measured => ({
        cls: l.cls,
        lcpMs: l.lcp,
        blockingMs: l.tbt,
        shifts: [...l.shifts].sort((a, b) => b.value - a.value),
      }),
    );

const measure = async (
  browser: Browser,
  state: string,
  baseUrl: string,
  pagePath: string,
  profile: Profile,
) => {
  const context = await browser.newContext({ viewport: profile.viewport, storageState: JSON.parse(state) });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (profile.cpuSlowdown > 1)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
  await observeLayout(page);
  await page.goto(`${baseUrl}/${pagePath}`, { waitUntil: 'load' });
  await settle(page, 1500 * profile.cpuSlowdown);
  const result = await readLayout(page);
  await context.close();
  return result;
};

const main = async () => {
  let server: ChildProcess | null = null;
  let tmp: string | null = null;
  let baseUrl = arg('--base-url') ?? '';
  if (!baseUrl) {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-bench-pages-'));
    const webDir = path.join(tmp, 'web');
    buildWebApp(webDir);
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = startServer({ port, dataDir: path.join(tmp, 'data'), webDir, env: { APP_ENV: 'test' } });
  }
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    await waitForHealth(baseUrl, server);
    const seeded = await seedSignedInCompany(browser, baseUrl, !args.includes('--empty'));
    const state = JSON.stringify(await seeded.storageState());
    await seeded.close();
    const report = [];
    for (const pagePath of PAGES)
      for (const profile of PROFILES) {
        const results: Measured[] = [];
        for (let i = 0; i < runs; i++)
          results.push(await measure(browser, state, baseUrl, pagePath, profile));
        const worst = [...results].sort((a, b) => b.cls - a.cls)[0]!;
        const row = {
          page: `/${pagePath}`,
          profile: profile.name,
          clsMedian: Number(median(results.map((r) => r.cls)).toFixed(4)),
          clsMax: Number(worst.cls.toFixed(4)),
          lcpMedianMs: Math.round(median(results.map((r) => r.lcpMs))),
          blockingMedianMs: Math.round(median(results.map((r) => r.blockingMs))),
          worstShifts: worst.shifts.slice(0, 3),
        };
        report.push(row);
        if (!asJson) {
          console.log(
            `${row.page.padEnd(14)} ${row.profile.padEnd(8)} CLS ${row.clsMedian.toFixed(3)} (max ${row.clsMax.toFixed(3)})  LCP ${row.lcpMedianMs} ms  blocking ${row.blockingMedianMs} ms`,
          );
          for (const s of row.worstShifts)
            console.log(`    shift ${s.value.toFixed(4)}: ${s.sources.slice(0, 3).join(' | ')}`);
        }
      }
    if (asJson) console.log(JSON.stringify({ runs, report }, null, 2));
  } finally {
    await browser.close();
    server?.kill();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  }
};

if (path.resolve(process.argv[1] ?? '') === fileURLToPath(import.meta.url)) await main();

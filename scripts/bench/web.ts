import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { buildWebApp, freePort, startServer, waitForHealth } from '../build-web.ts';

// Public-site benchmark: builds the web app, starts the real server on a fresh database and
// loads / in Chromium with a cold cache, several times per profile. Reports
//  - the JavaScript / loads before it is interactive, gzipped: every script requested before
//    the router's 1 s preload of secondary screens begins (entry, its static imports and
//    the lazy chunks the first render asks for), and whether any private-app code is in it;
//  - Largest Contentful Paint, as Chromium reports it (and Cumulative Layout Shift alongside).
// Usage: node --import tsx scripts/bench/web.ts [--runs 5] [--json]

const args = process.argv.slice(2);
const runs = Number(args[args.indexOf('--runs') + 1]) || 5;
const asJson = args.includes('--json');

// Chunks that only the 1 s preload asks for: the first request for one of them marks the
// end of "before interactive".
const PRELOAD_ONLY =
  /\/(PricingPage|AboutPage|ContactPage|NotFoundPage|AppShell|LoginPage|SignupPage)-[\w-]+\.js$/;
// Private app pages must never be in the landing's first load.
const PRIVATE =
  /\/(AppShell|DashboardPage|TransactionsPage|InvoicesPage|WalletPage|BillingPage|AccountingPage|SettingsPage|AdminPage)[\w-]*\.js$/;

type Profile = {
  name: string;
  viewport: { width: number; height: number };
  cpuSlowdown: number;
  network: { latency: number; downloadThroughput: number; uploadThroughput: number } | null;
};

const PROFILES: Profile[] = [
  { name: 'desktop, no throttling', viewport: { width: 1440, height: 900 }, cpuSlowdown: 1, network: null },
  {
    // Close to Lighthouse's mobile preset: 4x slower CPU, 1.6 Mbps down, 150 ms round trip.
    name: 'phone, 4x CPU, 1.6 Mbps / 150 ms',
    viewport: { width: 390, height: 844 },
    cpuSlowdown: 4,
    network: {
      latency: 150,
      downloadThroughput: (1.6 * 1024 * 1024) / 8,
      uploadThroughput: (750 * 1024) / 8,
    },
  },
];

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

type RunResult = {
  lcpMs: number;
  cls: number;
  lcpElement: string;
  scripts: { path: string; bytes: number; gzip: number }[];
  previewRenderedBeforePreload: boolean;
};

const measure = async (page: Page, baseUrl: string, profile: Profile): Promise<RunResult> => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (profile.network)
    await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.network });
  if (profile.cpuSlowdown > 1)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });

  const requested: { path: string; at: number }[] = [];
  const bodies = new Map<string, Buffer>();
  const start = Date.now();
  page.on('request', (r) => {
    if (r.resourceType() === 'script')
      requested.push({ path: new URL(r.url()).pathname, at: Date.now() - start });
  });
  page.on('response', async (r) => {
    if (r.request().resourceType() !== 'script') return;
    try {
      bodies.set(new URL(r.url()).pathname, await r.body());
    } catch {
      // a response that went away (navigation) is not counted
    }
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __lcp: { t: number; el: string }; __cls: number };
    w.__lcp = { t: 0, el: '' };
    w.__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!e.hadRecentInput) w.__cls += e.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as (PerformanceEntry & { element?: Element | null })[]) {
        const el = e.element;
        w.__lcp = {
          t: e.startTime,
          el: el
            ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`
            : '',
        };
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });

  await page.goto(`${baseUrl}/`, { waitUntil: 'load' });
  const previewAt = await page
    .getByTestId('dashboard-preview')
    .waitFor({ timeout: 60_000 })
    .then(() => Date.now() - start);
  // Let the preload burst happen, then read LCP (no input has happened, so it is final).
  await page.waitForTimeout(2500 * Math.max(1, profile.cpuSlowdown / 2));
  const { lcp, cls } = await page.evaluate(() => {
    const w = window as unknown as { __lcp: { t: number; el: string }; __cls: number };
    return { lcp: w.__lcp, cls: w.__cls };
  });

  const preloadAt = requested.find((r) => PRELOAD_ONLY.test(r.path))?.at ?? Number.POSITIVE_INFINITY;
  const before = [...new Set(requested.filter((r) => r.at < preloadAt).map((r) => r.path))];
  const scripts = before.map((p) => {
    const body = bodies.get(p) ?? Buffer.alloc(0);
    return { path: p, bytes: body.length, gzip: zlib.gzipSync(body).length };
  });
  await cdp.detach();
  return {
    lcpMs: lcp.t,
    cls,
    lcpElement: lcp.el,
    scripts,
    previewRenderedBeforePreload: previewAt <= preloadAt,
  };
};

const main = async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-bench-'));
  const webDir = path.join(tmp, 'web');
  buildWebApp(webDir);

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = startServer({ port, dataDir: path.join(tmp, 'data'), webDir, env: { APP_ENV: 'test' } });
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  try {
    await waitForHealth(baseUrl, server);
    const report = [];
    for (const profile of PROFILES) {
      const results: RunResult[] = [];
      for (let i = 0; i < runs; i++) {
        const context = await browser.newContext({ viewport: profile.viewport });
        const page = await context.newPage();
        results.push(await measure(page, baseUrl, profile));
        await context.close();
      }
      const first = results[0]!;
      const jsGzip = first.scripts.reduce((s, x) => s + x.gzip, 0);
      const jsRaw = first.scripts.reduce((s, x) => s + x.bytes, 0);
      report.push({
        profile: profile.name,
        runs,
        lcpMedianMs: Math.round(median(results.map((r) => r.lcpMs))),
        lcpRangeMs: [
          Math.round(Math.min(...results.map((r) => r.lcpMs))),
          Math.round(Math.max(...results.map((r) => r.lcpMs))),
        ],
        lcpElement: first.lcpElement,
        clsMedian: +median(results.map((r) => r.cls)).toFixed(3),
        jsBeforeInteractive: { gzipKiB: +(jsGzip / 1024).toFixed(1), rawKiB: +(jsRaw / 1024).toFixed(1) },
        scripts: first.scripts.map((s) => ({ path: s.path, gzipKiB: +(s.gzip / 1024).toFixed(1) })),
        privateCodeLoaded: first.scripts.filter((s) => PRIVATE.test(s.path)).map((s) => s.path),
        previewRenderedBeforePreload: results.every((r) => r.previewRenderedBeforePreload),
      });
    }
    if (asJson) {
      console.log(JSON.stringify(report, null, 2));
    } else {
      for (const r of report) {
        console.log(`\n${r.profile} (${r.runs} cold loads)`);
        console.log(
          `  LCP median ${r.lcpMedianMs} ms (range ${r.lcpRangeMs[0]}–${r.lcpRangeMs[1]} ms) on ${r.lcpElement}`,
        );
        console.log(`  CLS median ${r.clsMedian}`);
        console.log(
          `  JS before interactive: ${r.jsBeforeInteractive.gzipKiB} KiB gzipped (${r.jsBeforeInteractive.rawKiB} KiB raw)`,
        );
        for (const s of r.scripts) console.log(`    ${s.gzipKiB.toFixed(1).padStart(6)} KiB  ${s.path}`);
        console.log(
          `  private app code in it: ${r.privateCodeLoaded.length ? r.privateCodeLoaded.join(', ') : 'none'}`,
        );
        console.log(
          `  dashboard preview rendered before the preload: ${r.previewRenderedBeforePreload ? 'yes' : 'no'}`,
        );
      }
    }
    if (report.some((r) => r.privateCodeLoaded.length > 0)) process.exitCode = 1;
  } finally {
    await browser.close();
    server.kill('SIGTERM');
    fs.rmSync(tmp, { recursive: true, force: true });
  }
};

await main();

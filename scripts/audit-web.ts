import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildWebApp, freePort, root, startServer, waitForHealth } from './build-web.ts';
import { seedDemoBooks } from './demo-books.ts';

// npm run audit:web: Lighthouse 12 (the system Chromium) on every page of issue 22, as a
// browser sees a freshly started Kontor. Builds the web app into a temporary folder, starts the
// real server on a fresh embedded database, signs a user up with a company that has data
// (fourteen months of entries, bank lines, invoices), then runs the Lighthouse CLI on each
// public page (signed out) and each signed-in page (the session cookie sent as an extra
// header), with the mobile and the desktop preset, several times each, and takes the median.
// Prints a table (page × preset: the four category scores, FCP, LCP, CLS, TBT) and the audits
// that failed per page, writes them into docs/performance.md ("Lighthouse", replaced on each
// full run) and, with --json, a summary to a file. A benchmark, not a test: it never fails on
// a score, only when a run cannot be made.
//
//   npm run audit:web -- [--runs 3] [--pages /,/dashboard] [--preset mobile|desktop]
//                        [--json out.json] [--docs | --no-docs] [--base-url http://127.0.0.1:PORT]
//
// --docs / --no-docs: whether to write docs/performance.md (default: only on a full run, i.e.
// without --pages, --preset or --runs below 3). --base-url audits a server that is already
// running (a user with data is signed up there) instead of building and starting one.

export const PUBLIC_PAGES = ['/', '/pricing', '/about', '/contact', '/login', '/signup', '/reset-password'];
export const APP_PAGES = [
  '/dashboard',
  '/transactions',
  '/invoices',
  '/wallet',
  '/accounting',
  '/billing',
  '/settings',
];
const PRESETS = ['mobile', 'desktop'] as const;
type Preset = (typeof PRESETS)[number];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const PASSWORD = 'Correct-Horse-9';
const RUN_TIMEOUT_MS = 240_000;

const { values: options } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    pages: { type: 'string' },
    preset: { type: 'string' },
    json: { type: 'string' },
    docs: { type: 'boolean' },
    'no-docs': { type: 'boolean' },
    'base-url': { type: 'string' },
  },
});
const runs = Number(options.runs);
if (!Number.isInteger(runs) || runs < 1)
  throw new Error(`--runs must be a whole number ≥ 1 (got ${options.runs})`);
const pages = options.pages
  ? options.pages.split(',').map((p) => (p.startsWith('/') ? p : `/${p}`))
  : [...PUBLIC_PAGES, ...APP_PAGES];
for (const p of pages)
  if (![...PUBLIC_PAGES, ...APP_PAGES].includes(p))
    throw new Error(`--pages: ${p} is not one of ${[...PUBLIC_PAGES, ...APP_PAGES].join(', ')}`);
if (options.preset && !PRESETS.includes(options.preset as Preset))
  throw new Error(`--preset must be mobile or desktop (got ${options.preset})`);
const presets: Preset[] = options.preset ? [options.preset as Preset] : [...PRESETS];
const fullRun = !options.pages && !options.preset && runs >= 3;
const writeDocs = options['no-docs'] ? false : (options.docs ?? fullRun);

const findChromium = () =>
  [process.env.CHROME_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find(
    (c) => c && fs.existsSync(c),
  ) ?? null;

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

// ---------------------------------------------------------------------------------------------
// A signed-in user with a company that has data, through the API as the web app would.

/** Signs a user up with a company that has fourteen months of books; returns the Cookie header. */
const seedSignedInCompany = async (baseUrl: string): Promise<string> => {
  let cookie = '';
  const call = async (method: string, url: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        origin: baseUrl,
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`seeding: ${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
    if (!cookie) {
      const set = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
      if (set.length) cookie = set.join('; ');
    }
    return text ? JSON.parse(text) : null;
  };
  await call('POST', '/api/auth/sign-up/email', {
    email: `audit-${Date.now()}@example.com`,
    password: PASSWORD,
    name: 'Ada Audit',
  });
  if (!cookie) throw new Error('seeding: sign-up set no session cookie');
  const company = await call('POST', '/api/orgs', {
    name: 'Lighthouse Studio',
    baseCurrency: 'USD',
    fiscalYearStartMonth: 1,
  });
  const o = `/api/orgs/${company.id}`;
  await seedDemoBooks({
    get: (path) => call('GET', `${o}${path}`),
    post: (path, body) => call('POST', `${o}${path}`, body),
  });
  return cookie;
};

// ---------------------------------------------------------------------------------------------
// One Lighthouse run (the CLI, as anyone would run it) and what we keep of it.

type Lhr = {
  lighthouseVersion: string;
  finalDisplayedUrl: string;
  runtimeError?: { code: string; message: string };
  environment: { benchmarkIndex: number; hostUserAgent: string };
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<
    string,
    {
      id: string;
      title: string;
      score: number | null;
      scoreDisplayMode: string;
      numericValue?: number;
      displayValue?: string;
      errorMessage?: string;
      details?: { items?: Record<string, unknown>[] };
    }
  >;
};

/**
 * An audit that did not pass: `weighted` when it counts towards its category's score (the rest
 * are diagnostics that point at a cause), `errored` when Lighthouse could not run it at all.
 */
type Failed = {
  id: string;
  category: string;
  weighted: boolean;
  errored: boolean;
  title: string;
  detail: string;
};

type RunResult = {
  scores: Record<(typeof CATEGORIES)[number], number>;
  fcpMs: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  benchmarkIndex: number;
  failed: Failed[];
};

/** A short line of what an audit found: its display value and its first few items. */
const auditDetail = (audit: Lhr['audits'][string]) => {
  const items = (audit.details?.items ?? []).slice(0, 3).map((item) => {
    const node = item.node as { snippet?: string; selector?: string } | undefined;
    const text =
      item.description ?? item.url ?? node?.snippet ?? node?.selector ?? item.source ?? item.label ?? '';
    return String(typeof text === 'object' ? JSON.stringify(text) : text).slice(0, 160);
  });
  return [audit.displayValue, audit.errorMessage, ...items].filter(Boolean).join(' | ');
};

const failedAudits = (lhr: Lhr): Failed[] => {
  const failed: Failed[] = [];
  for (const category of CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const audit = lhr.audits[ref.id];
      if (!audit) continue;
      const scored = ['binary', 'numeric', 'metricSavings'].includes(audit.scoreDisplayMode);
      const failing =
        audit.scoreDisplayMode === 'error' || (scored && audit.score !== null && audit.score < 0.9);
      if (failing)
        failed.push({
          id: audit.id,
          category,
          weighted: ref.weight > 0,
          errored: audit.scoreDisplayMode === 'error',
          title: audit.title,
          detail: auditDetail(audit),
        });
    }
  }
  return failed;
};

const runLighthouse = (
  chromePath: string,
  url: string,
  preset: Preset,
  cookie: string | null,
  outFile: string,
): Promise<Lhr> =>
  new Promise((resolve, reject) => {
    const args = [
      path.join(root, 'node_modules/lighthouse/cli/index.js'),
      url,
      '--output=json',
      `--output-path=${outFile}`,
      '--quiet',
      '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage',
      `--only-categories=${CATEGORIES.join(',')}`,
      '--disable-full-page-screenshot',
      '--max-wait-for-load=60000',
      ...(preset === 'desktop' ? ['--preset=desktop'] : []),
      ...(cookie ? [`--extra-headers=${JSON.stringify({ Cookie: cookie })}`] : []),
    ];
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, CHROME_PATH: chromePath },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), RUN_TIMEOUT_MS);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (code !== 0 || !fs.existsSync(outFile)) {
        reject(
          new Error(
            `lighthouse ${url} (${preset}) ended with ${code ?? signal}: ${stderr.trim().slice(-800)}`,
          ),
        );
        return;
      }
      const lhr = JSON.parse(fs.readFileSync(outFile, 'utf8')) as Lhr;
      fs.rmSync(outFile, { force: true });
      resolve(lhr);
    });
  });

const auditOnce = async (
  chromePath: string,
  baseUrl: string,
  page: string,
  preset: Preset,
  cookie: string | null,
  outFile: string,
): Promise<RunResult> => {
  const lhr = await runLighthouse(chromePath, `${baseUrl}${page}`, preset, cookie, outFile);
  if (lhr.runtimeError) throw new Error(`lighthouse ${page} (${preset}): ${lhr.runtimeError.message}`);
  // A signed-in page that sent us to the sign-in page would measure the wrong page.
  const landed = new URL(lhr.finalDisplayedUrl).pathname;
  if (landed !== page)
    throw new Error(`lighthouse ${page} (${preset}) ended on ${landed}, not the page asked for`);
  const score = (c: string) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
  const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  return {
    scores: {
      performance: score('performance'),
      accessibility: score('accessibility'),
      'best-practices': score('best-practices'),
      seo: score('seo'),
    },
    fcpMs: value('first-contentful-paint'),
    lcpMs: value('largest-contentful-paint'),
    cls: value('cumulative-layout-shift'),
    tbtMs: value('total-blocking-time'),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    failed: failedAudits(lhr),
  };
};

// ---------------------------------------------------------------------------------------------
// Summary, table, docs.

type Row = {
  page: string;
  preset: Preset;
  signedIn: boolean;
  runs: number;
  scores: Record<(typeof CATEGORIES)[number], number>;
  fcpMs: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  /** Audits that failed in most runs (score below 0.9, or an error), with what they found. */
  failed: (Failed & { inRuns: number })[];
  perRun: Omit<RunResult, 'failed'>[];
};

const summarize = (page: string, preset: Preset, results: RunResult[]): Row => {
  const med = (pick: (r: RunResult) => number) => median(results.map(pick));
  const counts = new Map<string, Failed & { inRuns: number }>();
  for (const r of results)
    for (const f of r.failed) {
      const known = counts.get(f.id);
      if (known) known.inRuns += 1;
      else counts.set(f.id, { ...f, inRuns: 1 });
    }
  return {
    page,
    preset,
    signedIn: APP_PAGES.includes(page),
    runs: results.length,
    scores: {
      performance: Math.round(med((r) => r.scores.performance)),
      accessibility: Math.round(med((r) => r.scores.accessibility)),
      'best-practices': Math.round(med((r) => r.scores['best-practices'])),
      seo: Math.round(med((r) => r.scores.seo)),
    },
    fcpMs: Math.round(med((r) => r.fcpMs)),
    lcpMs: Math.round(med((r) => r.lcpMs)),
    cls: Number(med((r) => r.cls).toFixed(3)),
    tbtMs: Math.round(med((r) => r.tbtMs)),
    failed: [...counts.values()].filter((f) => f.inRuns * 2 > results.length),
    perRun: results.map(({ failed: _failed, ...rest }) => rest),
  };
};

const TARGET = 95;
const CLS_LIMIT = 0.05;

const tableLines = (rows: Row[], markdown: boolean) => {
  const mark = (n: number) => (n < TARGET ? (markdown ? `**${n}**` : `${n}!`) : String(n));
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const head = ['page', 'preset', 'perf', 'a11y', 'best pr.', 'SEO', 'FCP', 'LCP', 'CLS', 'TBT'];
  const body = rows.map((r) => [
    r.page,
    r.preset,
    mark(r.scores.performance),
    mark(r.scores.accessibility),
    mark(r.scores['best-practices']),
    mark(r.scores.seo),
    seconds(r.fcpMs),
    seconds(r.lcpMs),
    r.cls > CLS_LIMIT ? (markdown ? `**${r.cls.toFixed(3)}**` : `${r.cls.toFixed(3)}!`) : r.cls.toFixed(3),
    `${r.tbtMs} ms`,
  ]);
  if (markdown)
    return [
      `| ${head.join(' | ')} |`,
      `| ${head.map((_, i) => (i < 2 ? '---' : '---:')).join(' | ')} |`,
      ...body.map((cells) => `| ${cells.join(' | ')} |`),
    ];
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)];
};

/** Per page and preset: the failed audits that count, then the diagnostics; errors apart. */
const failedLines = (rows: Row[], markdown: boolean) => {
  const code = (id: string) => (markdown ? `\`${id}\`` : id);
  const bullet = markdown ? '- ' : '  ';
  const lines: string[] = [];
  for (const r of rows) {
    const scored = r.failed.filter((f) => f.weighted && !f.errored).map((f) => code(f.id));
    const diagnostics = r.failed.filter((f) => !f.weighted && !f.errored).map((f) => code(f.id));
    if (scored.length + diagnostics.length === 0) continue;
    const parts = [scored.length ? scored.join(', ') : 'nothing that counts'];
    if (diagnostics.length) parts.push(`diagnostics: ${diagnostics.join(', ')}`);
    lines.push(`${bullet}${code(r.page)} ${r.preset}: ${parts.join('; ')}`);
  }
  const errored = [...new Set(rows.flatMap((r) => r.failed.filter((f) => f.errored).map((f) => f.id)))];
  if (errored.length)
    lines.push(`${bullet}could not run (Lighthouse errors, any page): ${errored.map(code).join(', ')}`);
  return lines.length ? lines : [`${bullet}none`];
};

const git = (...args: string[]) => {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return '';
  }
};

const docsSection = (rows: Row[], meta: Meta) =>
  [
    '## Lighthouse',
    '',
    `**How to measure:** \`npm run audit:web\` (\`scripts/audit-web.ts\`, described in docs/web-audit.md). It builds`,
    'the web app, starts the real server on a fresh embedded database, signs a user up with a company',
    'that has fourteen months of books, and runs the Lighthouse CLI on the public pages (signed out)',
    'and the signed-in pages (session cookie as an extra header), mobile and desktop presets, median',
    `${meta.runs === 1 ? 'of one run (a shortened run)' : `of ${meta.runs} runs`} each. The goal (issue 22): every category ≥ ${TARGET}, CLS ≤ ${CLS_LIMIT}; misses are in bold.`,
    'This section is rewritten by each full run.',
    '',
    `**Latest run:** ${meta.date}, commit \`${meta.commit}\`${meta.dirty ? ' plus uncommitted changes' : ''}; Lighthouse ${meta.lighthouse},`,
    `${meta.chromium}; ${meta.machine}; took ${meta.minutes} min.`,
    '',
    ...tableLines(rows, true),
    '',
    'Audits that failed in most runs (score below 0.9), by page and preset: first those that count',
    'towards the score, then the diagnostics (no weight, but they point at the cause); details of',
    'each are in the `--json` summary:',
    '',
    ...failedLines(rows, true),
    '',
  ].join('\n');

/** Replaces (or appends) the "## Lighthouse" section of docs/performance.md. */
const writeDocsSection = (section: string) => {
  const file = path.join(root, 'docs/performance.md');
  const text = fs.readFileSync(file, 'utf8');
  const start = text.search(/^## Lighthouse\s*$/m);
  if (start < 0) {
    fs.writeFileSync(file, `${text.replace(/\n*$/, '\n\n')}${section}`);
    return;
  }
  const rest = text.slice(start + 1);
  const next = rest.search(/^## /m);
  const end = next < 0 ? text.length : start + 1 + next;
  fs.writeFileSync(file, `${text.slice(0, start)}${section}${next < 0 ? '' : '\n'}${text.slice(end)}`);
};

type Meta = {
  date: string;
  commit: string;
  dirty: boolean;
  lighthouse: string;
  chromium: string;
  machine: string;
  minutes: number;
  runs: number;
};

// ---------------------------------------------------------------------------------------------

const main = async () => {
  const started = Date.now();
  const chromePath = findChromium();
  if (!chromePath) {
    console.error(
      'audit:web: no Chromium found. Install it (`apt-get install chromium`) or set CHROME_PATH.',
    );
    process.exit(1);
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-audit-'));
  let server: ChildProcess | null = null;
  let baseUrl = options['base-url']?.replace(/\/+$/, '') ?? '';
  const loadBefore = os.loadavg()[0]!;
  try {
    if (!baseUrl) {
      const port = await freePort();
      baseUrl = `http://127.0.0.1:${port}`;
      const webDir = path.join(tmp, 'web');
      // The build reads PUBLIC_URL for the pages' canonical and social-preview addresses.
      process.env.PUBLIC_URL = baseUrl;
      console.log('audit:web: building the web app…');
      buildWebApp(webDir);
      server = startServer({ port, dataDir: path.join(tmp, 'data'), webDir });
    }
    await waitForHealth(baseUrl, server, 180);
    const needsUser = pages.some((p) => APP_PAGES.includes(p));
    const cookie = needsUser ? await seedSignedInCompany(baseUrl) : null;
    if (needsUser) console.log('audit:web: signed up a user with fourteen months of books');

    const total = pages.length * presets.length * runs;
    let done = 0;
    const rows: Row[] = [];
    for (const page of pages)
      for (const preset of presets) {
        const results: RunResult[] = [];
        for (let i = 0; i < runs; i++) {
          // Lighthouse now and then loses a trace (NO_NAVSTART, NO_FCP on a busy machine): such a
          // run is made again, twice at most, before the audit gives up.
          let result: RunResult | null = null;
          for (let attempt = 1; !result; attempt++) {
            try {
              result = await auditOnce(
                chromePath,
                baseUrl,
                page,
                preset,
                APP_PAGES.includes(page) ? cookie : null,
                path.join(tmp, 'lhr.json'),
              );
            } catch (error) {
              if (attempt >= 3) throw error;
              console.warn(`\naudit:web: run again after: ${(error as Error).message.slice(0, 300)}`);
            }
          }
          results.push(result);
          done += 1;
          process.stdout.write(
            `\raudit:web: ${done}/${total} runs (${page} ${preset}: ${CATEGORIES.map((c) => result.scores[c]).join('/')})          `,
          );
        }
        rows.push(summarize(page, preset, results));
        // What is measured so far, in case the audit is stopped before the end.
        if (options.json)
          fs.writeFileSync(
            path.resolve(options.json),
            `${JSON.stringify({ partial: true, runs, rows }, null, 2)}\n`,
          );
      }
    process.stdout.write('\n\n');
    const lighthouseVersion = JSON.parse(
      fs.readFileSync(path.join(root, 'node_modules/lighthouse/package.json'), 'utf8'),
    ).version;

    const benchmark = Math.round(median(rows.flatMap((r) => r.perRun.map((x) => x.benchmarkIndex))));
    const cpus = os.cpus();
    const meta: Meta = {
      date: `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
      commit: git('rev-parse', '--short', 'HEAD') || 'unknown',
      dirty: git('status', '--porcelain', '--untracked-files=no') !== '',
      lighthouse: lighthouseVersion,
      chromium: (() => {
        try {
          return execFileSync(chromePath, ['--version'], {
            encoding: 'utf8',
            stdio: ['ignore', 'pipe', 'ignore'],
          })
            .trim()
            .split(' built')[0]!;
        } catch {
          return path.basename(chromePath);
        }
      })(),
      machine: `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), load average ${loadBefore.toFixed(1)} before and ${os.loadavg()[0]!.toFixed(1)} after, Lighthouse benchmark index ${benchmark}`,
      minutes: Math.round((Date.now() - started) / 60_000),
      runs,
    };

    console.log(`Lighthouse ${meta.lighthouse}, ${meta.chromium}, median of ${runs} run(s); ${meta.machine}`);
    console.log(`(! marks a score below ${TARGET} or CLS above ${CLS_LIMIT})\n`);
    for (const line of tableLines(rows, false)) console.log(line);
    console.log('\nFailed audits (in most runs):');
    for (const line of failedLines(rows, false)) console.log(line);
    for (const r of rows)
      for (const f of r.failed.filter((x) => x.detail && !x.errored))
        console.log(`    ${r.page} ${r.preset} ${f.id}: ${f.detail.slice(0, 240)}`);

    if (options.json) {
      fs.writeFileSync(
        path.resolve(options.json),
        `${JSON.stringify({ ...meta, target: TARGET, clsLimit: CLS_LIMIT, rows }, null, 2)}\n`,
      );
      console.log(`\nJSON summary: ${path.resolve(options.json)}`);
    }
    if (writeDocs) {
      writeDocsSection(docsSection(rows, meta));
      console.log('docs/performance.md: "Lighthouse" section written');
    } else {
      console.log('docs/performance.md left as it is (a narrowed run; --docs writes it anyway)');
    }
  } finally {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server?.once('exit', resolve));
      server.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  }
};

await main();

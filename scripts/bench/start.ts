import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildServer, isStale, serverIsStale } from '../build-server.mjs';
import { buildWebApp, freePort, root } from '../build-web.ts';
import { createScratchDatabase } from './setup.ts';

// Start and idle memory of the compiled server (issue 20 §6; docs/performance.md "Start and
// memory"): `npm start`'s command (node --expose-gc --enable-source-maps scripts/start.mjs,
// with dist/server rebuilt first when stale so no run compiles) started --runs times on each
// database — PostgreSQL (a database of its own on the server of --pg-url, dropped after) and
// the embedded PGlite (a temp DATA_DIR) — first on a new database (every migration runs), then
// on the same, now migrated, one. Each run: wall time from spawning Node to /api/health
// answering 200 (polled every 10 ms), the server's CPU time (user + system) by then, its RSS
// then and after --idle seconds (default 5) of idling, and on PostgreSQL the CPU of the
// database's backends over the run. The server gets SIGTERM after each run.
//
// node --import tsx scripts/bench/start.ts [--runs 5] [--idle 5] [--only postgres|pglite]
//   [--app-env production|development] [--entry dist/server/main.js] [--node-options "..."]
//   [--pg-url postgres://postgres@127.0.0.1:5432/postgres] [--json]
// --app-env production (the default) sets a random AUTH_SECRET and BANK_FEEDS_KEY, as a
// deployment must; development is what `npm start` runs with no settings. --entry starts a file
// directly with the same flags instead of scripts/start.mjs (skips its staleness checks).

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1]! : fallback;
};
const RUNS = Number(arg('runs', '5'));
const IDLE_SECONDS = Number(arg('idle', '5'));
const ONLY = arg('only', '');
const APP_ENV = arg('app-env', 'production');
const ENTRY = arg('entry', 'scripts/start.mjs');
const NODE_OPTIONS = arg('node-options', '');
const PG_URL = arg('pg-url', process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
const AS_JSON = args.includes('--json');

const TICKS_PER_SECOND = 100; // Linux USER_HZ

/** utime + stime of a process in ms, from /proc (0 when it is gone). */
const cpuMsOf = (pid: number) => {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
};

/** Resident memory of a process in MB (VmRSS, 10^6 bytes as in the issue's figures). */
const rssMbOf = (pid: number) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Math.round((Number(match[1]) * 1024) / 1e6) : Number.NaN;
};

/** CPU (ms) of the PostgreSQL backends whose process title names database `name`. */
const postgresCpuMs = (name: string) => {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(` ${name} `))
        total += cpuMsOf(Number(entry));
    } catch {
      // gone
    }
  }
  return total;
};

const loadAverage = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Run = {
  database: 'postgres' | 'pglite';
  state: 'new' | 'migrated';
  startMs: number;
  cpuMsAtHealthy: number;
  rssMbAtHealthy: number;
  rssMbIdle: number;
  postgresCpuMs: number | null;
  loadAverage: string;
};

const exited = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((r) => child.once('exit', () => r()));

const startOnce = async (
  database: Run['database'],
  state: Run['state'],
  env: Record<string, string>,
  pgName: string | null,
): Promise<Run> => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const pgCpu0 = pgName ? postgresCpuMs(pgName) : 0;
  const load = loadAverage();
  const t0 = performance.now();
  const child = spawn(process.execPath, ['--expose-gc', '--enable-source-maps', ENTRY], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_OPTIONS,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      LOG_LEVEL: 'warn',
      APP_ENV,
      ...(APP_ENV === 'production' || APP_ENV === 'staging'
        ? { AUTH_SECRET: randomBytes(32).toString('hex'), BANK_FEEDS_KEY: randomBytes(32).toString('base64') }
        : {}),
      ...env,
    },
  });
  try {
    let startMs = Number.NaN;
    while (performance.now() - t0 < 120_000) {
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      try {
        const res = await fetch(`${url}/api/health`);
        await res.arrayBuffer();
        if (res.status === 200) {
          startMs = performance.now() - t0;
          break;
        }
      } catch {
        // not listening yet
      }
      await sleep(10);
    }
    if (Number.isNaN(startMs)) throw new Error('the server did not answer /api/health within 120 s');
    const pid = child.pid!;
    const cpuMsAtHealthy = cpuMsOf(pid);
    const rssMbAtHealthy = rssMbOf(pid);
    await sleep(IDLE_SECONDS * 1000);
    const rssMbIdle = rssMbOf(pid);
    return {
      database,
      state,
      startMs: Math.round(startMs),
      cpuMsAtHealthy,
      rssMbAtHealthy,
      rssMbIdle,
      postgresCpuMs: pgName ? postgresCpuMs(pgName) - pgCpu0 : null,
      loadAverage: load,
    };
  } finally {
    child.kill('SIGTERM');
    await exited(child);
  }
};

/** `runs` starts on a new database: the first migrates it, the others find it migrated. */
const series = async (database: Run['database']) => {
  const runs: Run[] = [];
  if (database === 'postgres') {
    const scratch = await createScratchDatabase(PG_URL, 'start');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-bench-start-'));
    try {
      for (let i = 0; i <= RUNS; i += 1)
        runs.push(
          await startOnce(
            database,
            i === 0 ? 'new' : 'migrated',
            { DATABASE_URL: scratch.url, DATA_DIR: dataDir },
            scratch.name,
          ),
        );
    } finally {
      await scratch.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  } else {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-bench-start-'));
    try {
      for (let i = 0; i <= RUNS; i += 1)
        runs.push(
          await startOnce(
            database,
            i === 0 ? 'new' : 'migrated',
            { DATABASE_URL: '', DATA_DIR: dataDir },
            null,
          ),
        );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
  return runs;
};

// What npm start would build is built once here, so that no run includes a build.
if (serverIsStale()) {
  process.stderr.write('compiling the server first (dist/server is stale)...\n');
  await buildServer();
}
if (
  isStale(path.join(root, 'dist/web/index.html'), [
    'src/web',
    'src/shared',
    'vite.config.ts',
    'package-lock.json',
  ])
) {
  process.stderr.write('building the web app first (dist/web is stale)...\n');
  buildWebApp(path.join(root, 'dist/web'));
}

const all: Run[] = [];
for (const database of ['postgres', 'pglite'] as const)
  if (!ONLY || ONLY === database) all.push(...(await series(database)));

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
const summary = (['postgres', 'pglite'] as const).flatMap((database) =>
  (['new', 'migrated'] as const).flatMap((state) => {
    const runs = all.filter((r) => r.database === database && r.state === state);
    if (!runs.length) return [];
    const pgCpu = runs.map((r) => r.postgresCpuMs).filter((v): v is number => v !== null);
    return [
      {
        database,
        state,
        runs: runs.length,
        startMsMedian: median(runs.map((r) => r.startMs)),
        startMsMin: Math.min(...runs.map((r) => r.startMs)),
        startMsMax: Math.max(...runs.map((r) => r.startMs)),
        cpuMsMedian: median(runs.map((r) => r.cpuMsAtHealthy)),
        rssMbAtHealthyMedian: median(runs.map((r) => r.rssMbAtHealthy)),
        rssMbIdleMedian: median(runs.map((r) => r.rssMbIdle)),
        rssMbIdleMax: Math.max(...runs.map((r) => r.rssMbIdle)),
        postgresCpuMsMedian: pgCpu.length ? median(pgCpu) : null,
      },
    ];
  }),
);

if (AS_JSON) {
  process.stdout.write(
    `${JSON.stringify({ entry: ENTRY, appEnv: APP_ENV, nodeOptions: NODE_OPTIONS, summary, runs: all })}\n`,
  );
} else {
  console.log(`entry ${ENTRY}, APP_ENV=${APP_ENV}${NODE_OPTIONS ? `, NODE_OPTIONS=${NODE_OPTIONS}` : ''}`);
  console.log(
    'database  state     runs  start ms (median, min–max)  server CPU ms  RSS at health  RSS idle (max)  pg CPU ms',
  );
  for (const s of summary)
    console.log(
      [
        s.database.padEnd(8),
        s.state.padEnd(8),
        String(s.runs).padStart(4),
        `${s.startMsMedian} (${s.startMsMin}–${s.startMsMax})`.padStart(26),
        String(s.cpuMsMedian).padStart(13),
        `${s.rssMbAtHealthyMedian} MB`.padStart(13),
        `${s.rssMbIdleMedian} MB (${s.rssMbIdleMax})`.padStart(15),
        String(s.postgresCpuMsMedian ?? '–').padStart(10),
      ].join('  '),
    );
  console.log(`load average at the end: ${loadAverage()}`);
}

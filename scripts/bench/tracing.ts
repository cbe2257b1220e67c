import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

// What tracing costs (docs/performance.md "Tracing and backups"): the compiled server
// (`npm run build:server` first) started with tracing off and on in turns, against a collector
// that accepts and discards the spans. For each start: time to the first healthy answer, CPU
// time used by then, resident memory after 3 s idle, then 3 s of GET /api/health from 10
// clients (each one request span and its statements) — requests per second and CPU
// milliseconds per request, the figure that holds up on a busy machine.
//
//   node --import tsx scripts/bench/tracing.ts [runs]                        # embedded database
//   BENCH_DATABASE_URL=postgres://… node --import tsx scripts/bench/tracing.ts   # PostgreSQL (migrated)

const root = path.resolve(import.meta.dirname, '../..');
const entry = process.env.BENCH_SERVER_ENTRY ?? path.join(root, 'dist/server/main.js');
const databaseUrl = process.env.BENCH_DATABASE_URL ?? '';
const runs = Number(process.argv[2] ?? 3);

if (!fs.existsSync(entry)) {
  console.error('Compile the server first: npm run build:server');
  process.exit(1);
}

const collector = http.createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
const otlp = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;

/** User plus system CPU time of a process so far, in ms (Linux /proc). */
const cpuMs = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * (1000 / 100);
};
const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

const start = (dataDir: string, port: number, tracing: boolean): ChildProcess =>
  spawn(process.execPath, ['--expose-gc', '--enable-source-maps', entry], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      APP_ENV: 'test',
      LOG_LEVEL: 'warn',
      WEB_DIR: '/nonexistent',
      OTEL_EXPORTER_OTLP_ENDPOINT: tracing ? otlp : '',
    },
  });

const healthy = async (url: string) => {
  for (;;) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
};

const stop = async (server: ChildProcess) => {
  const exited = new Promise((r) => server.once('exit', r));
  server.kill('SIGTERM');
  await exited;
};

// The embedded database: migrate one data directory once, then start every run on a copy.
const seed = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-bench-tracing-'));
if (!databaseUrl) {
  const server = start(seed, 39_400, false);
  await healthy('http://127.0.0.1:39400');
  await stop(server);
}

const one = async (tracing: boolean, port: number) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-bench-tracing-run-'));
  if (!databaseUrl) fs.cpSync(seed, dataDir, { recursive: true });
  const began = performance.now();
  const server = start(dataDir, port, tracing);
  const url = `http://127.0.0.1:${port}`;
  await healthy(url);
  const startMs = performance.now() - began;
  const startCpu = cpuMs(server.pid!);
  await new Promise((r) => setTimeout(r, 3000));
  const idleRss = rssMb(server.pid!);
  let requests = 0;
  const cpuBefore = cpuMs(server.pid!);
  const until = performance.now() + 3000;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (performance.now() < until) {
        await (await fetch(`${url}/api/health`)).text();
        requests += 1;
      }
    }),
  );
  const perRequest = (cpuMs(server.pid!) - cpuBefore) / requests;
  await stop(server);
  fs.rmSync(dataDir, { recursive: true, force: true });
  return {
    tracing: tracing ? 'on' : 'off',
    startMs: Math.round(startMs),
    startCpuMs: Math.round(startCpu),
    idleRssMb: Math.round(idleRss),
    requestsPerSecond: Math.round(requests / 3),
    cpuMsPerRequest: Number(perRequest.toFixed(2)),
  };
};

const results = [];
for (let i = 0; i < runs; i += 1) {
  for (const tracing of [false, true]) {
    const result = await one(tracing, 39_401 + i * 2 + (tracing ? 1 : 0));
    console.log(JSON.stringify(result));
    results.push(result);
  }
}
console.table(results);
collector.close();
fs.rmSync(seed, { recursive: true, force: true });

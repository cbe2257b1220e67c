// A CPU profile of a server started by a bench script (docs/performance.md, "CPU per request,
// 2026-11-28 evening"). Node 20 refuses --cpu-prof in NODE_OPTIONS and the benches start the
// server themselves, so this is preloaded through NODE_OPTIONS instead:
//
//   CPUPROF_DIR=/tmp/prof CPUPROF_MATCH=src/server/main.ts CPUPROF_DELAY_MS=9000 \
//     NODE_OPTIONS="--import ./scripts/bench/cpu-profile.mjs" \
//     node --import tsx scripts/bench/posting-http.ts --clients 8 --seconds 15
//
// Only a process whose argv contains CPUPROF_MATCH is profiled (the server, not the bench);
// profiling starts CPUPROF_DELAY_MS after the process starts (past start-up and warm-up) and the
// profile is written to CPUPROF_DIR/server-<pid>.cpuprofile when the process exits (the servers
// exit on SIGTERM). Sampling every 0.5 ms. Summarise with scripts/bench/profile-summary.mjs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const dir = process.env.CPUPROF_DIR;
const match = process.env.CPUPROF_MATCH ?? 'main';
if (dir && process.argv.some((a) => a.includes(match))) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.setSamplingInterval', { interval: 500 });
  const delay = Number(process.env.CPUPROF_DELAY_MS ?? 0);
  if (delay > 0) setTimeout(() => session.post('Profiler.start'), delay).unref();
  else session.post('Profiler.start');
  process.on('exit', () => {
    session.post('Profiler.stop', (error, result) => {
      if (error || !result) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}/server-${process.pid}.cpuprofile`, JSON.stringify(result.profile));
    });
  });
}

// Where a .cpuprofile's time went: self time grouped by what runs it (Better Auth, Kysely, the
// pg driver, Fastify, zod, …), then the top functions. Idle time, the socket write syscall
// (`writev`, mostly time the process waited for a core on a busy machine) and the profiler's
// own start are left out.
//
//   node scripts/bench/profile-summary.mjs <file.cpuprofile> [--from <seconds>] [--top 25]
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const profile = JSON.parse(readFileSync(args[0], 'utf8'));
const fromUs = option('from', 0) * 1e6;
const top = option('top', 25);
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const SKIP = new Set(['(idle)', '(program)', 'writev', 'dispatch']);

const packageOf = (url) => url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? null;
const groupOf = ({ url, functionName }) => {
  if (functionName === '(garbage collector)') return 'garbage collection';
  if (functionName === 'run' && !url) return 'WebCrypto jobs (Better Auth cookie HMAC)';
  const pkg = packageOf(url ?? '');
  if (pkg && /^(better-auth|better-call|@better-auth\/|@opentelemetry\/)/.test(pkg)) return 'Better Auth';
  if (pkg === 'kysely') return 'Kysely (building and compiling queries)';
  if ((pkg && /^(pg|pg-protocol|pg-pool|pg-types|postgres-)/.test(pkg)) || functionName === 'writeBuffer')
    return 'pg driver and socket writes';
  if (pkg && /^(fastify|find-my-way|avvio|@fastify\/|fast-json|secure-json-parse|toad-cache)/.test(pkg))
    return 'Fastify and its plugins (rate limit, compress)';
  if (pkg && /^(zod|fastify-type-provider-zod)$/.test(pkg))
    return 'zod (input parsing, response serializing)';
  if (pkg === 'helmet') return 'helmet';
  if (pkg) return pkg;
  if (/\/src\//.test(url ?? '')) return 'Kontor (src/)';
  return 'Node (http, streams, events, promises, natives)';
};

const groups = new Map();
const functions = new Map();
let total = 0;
let at = 0;
for (let i = 0; i < profile.samples.length; i += 1) {
  at += profile.timeDeltas[i] ?? 0;
  if (at < fromUs) continue;
  const frame = byId.get(profile.samples[i]).callFrame;
  if (SKIP.has(frame.functionName)) continue;
  const dt = profile.timeDeltas[i] ?? 0;
  total += dt;
  const group = groupOf(frame);
  groups.set(group, (groups.get(group) ?? 0) + dt);
  const where = packageOf(frame.url ?? '') ?? (frame.url || '(native)').replace(/^.*\/src\//, 'src/');
  const name = `${frame.functionName || '(anonymous)'} ${where}:${frame.lineNumber + 1}`;
  functions.set(name, (functions.get(name) ?? 0) + dt);
}
const show = (title, map) => {
  process.stdout.write(`\n${title} (of ${(total / 1000).toFixed(0)} ms sampled)\n`);
  for (const [name, t] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(`${((100 * t) / total).toFixed(1).padStart(6)} %  ${name}\n`);
};
show('by group', groups);
show('by function', functions);
